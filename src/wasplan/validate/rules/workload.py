"""Server-side rules for Workload (v1alpha1 of 1.35, v1alpha2 of 1.36, v1alpha3/v1beta1 of 1.37).

Follows api-reference §3.1 (list-map keys), §4.1 (the hand-written `ValidateWorkloadSpec` rules) and §5.
"""

from __future__ import annotations

from wasplan.api.releases import GateSet
from wasplan.diagnostics import Diagnostic, FieldPath, format_path
from wasplan.documents import Document
from wasplan.validate.rules import composite
from wasplan.validate.rules.common import claim_names_unique, disrupt_all_with_basic, make
from wasplan.validate.walk import POD, TemplateNode, caps_of_version, iter_templates, mapping


def check(doc: Document, gates: GateSet) -> list[Diagnostic]:
    nodes = list(iter_templates(mapping(doc.obj.get("spec")), doc.version))
    out = unique_template_names(doc, nodes)
    for node in nodes:
        if node.kind == POD:
            out += claim_names_unique(doc, node.obj, node.path)
        out += disrupt_all_with_basic(doc, node.obj, node.path, _label(node))
    caps = caps_of_version(doc.version)
    if caps is not None and caps.composites:
        out += composite.check_tree(doc, nodes)
        out += uniform_priority(doc, nodes)
    return out


def _label(node: TemplateNode) -> str:
    what = "template" if node.kind == POD else "composite template"
    return f'{what} "{node.name}"' if node.name else what


def unique_template_names(doc: Document, nodes: list[TemplateNode]) -> list[Diagnostic]:
    """WAS201: names are a map key, and in 1.37 unique across the whole tree, composites included."""
    seen: dict[str, FieldPath] = {}
    out: list[Diagnostic] = []
    for node in nodes:
        name = node.name
        if name is None:
            continue
        if name in seen:
            out.append(make(doc, "WAS201",
                            f'template name "{name}" is used twice (also at {format_path(seen[name])})',
                            node.path + ("name",),
                            "every podGroupTemplate and compositePodGroupTemplate of a Workload needs its own name",
                            name=name))
        else:
            seen[name] = node.path
    return out


def _priority_config(node: TemplateNode) -> tuple:
    return node.obj.get("priorityClassName") or None, node.obj.get("priority")


def _describe(config: tuple) -> str:
    cls, prio = config
    cls_text = f'priorityClassName "{cls}"' if cls is not None else "no priorityClassName"
    prio_text = f"priority {prio}" if prio is not None else "no priority"
    return f"{cls_text} and {prio_text}"


def uniform_priority(doc: Document, nodes: list[TemplateNode]) -> list[Diagnostic]:
    """WAS206: 1.37 requires one priority configuration for all templates (api-reference §4.1 rule 3).

    Each template that differs from the first one is reported, so every place to fix gets a line.
    """
    if not nodes:
        return []
    first = nodes[0]
    reference = _priority_config(first)
    out: list[Diagnostic] = []
    for node in nodes[1:]:
        config = _priority_config(node)
        if config == reference:
            continue
        field = "priorityClassName" if config[0] != reference[0] else "priority"
        path = node.path + (field,) if node.obj.get(field) is not None else node.path
        out.append(make(doc, "WAS206",
                        f"detected multiple priority configurations: {_label(node)} has {_describe(config)}, "
                        f"but {_label(first)} has {_describe(reference)}", path,
                        "give every template of the Workload the same priorityClassName and priority (or none)"))
    return out
