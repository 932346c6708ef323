"""Server-side rules for Workload (v1alpha1 of 1.35, v1alpha2 of 1.36, v1alpha3/v1beta1 of 1.37).

Follows api-reference §3.1 (list-map keys), §4.1 (the hand-written `ValidateWorkloadSpec` rules) and §5.
"""

from __future__ import annotations

from wasplan.api.releases import GateSet
from wasplan.diagnostics import Diagnostic, FieldPath, format_path
from wasplan.documents import Document
from wasplan.validate.rules import composite, disruption
from wasplan.validate.rules.common import claim_names_unique, make
from wasplan.validate.walk import POD, TemplateNode, caps_of_version, iter_templates, mapping


def check(doc: Document, gates: GateSet) -> list[Diagnostic]:
    nodes = list(iter_templates(mapping(doc.obj.get("spec")), doc.version))
    out = unique_template_names(doc, nodes)
    for node in nodes:
        if node.kind == POD:
            out += claim_names_unique(doc, node.obj, node.path)
        out += disruption.check_group(doc, node.obj, node.path, _label(node), gates.release.caps)
    caps = caps_of_version(doc.version)
    if caps is not None and caps.composites:
        out += composite.check_tree(doc, nodes)
        out += disruption.check_children(doc, nodes, gates.release.caps, _label)
        out += uniform_priority(doc, nodes, gates.release.caps.uniform_preemption_policy)
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


def _priority_config(node: TemplateNode, with_policy: bool) -> tuple:
    config = (node.obj.get("priorityClassName") or None, node.obj.get("priority"))
    return config + (node.obj.get("preemptionPolicy"),) if with_policy else config


def _describe(config: tuple) -> str:
    texts = [f'priorityClassName "{config[0]}"' if config[0] is not None else "no priorityClassName",
             f"priority {config[1]}" if config[1] is not None else "no priority"]
    if len(config) > 2:
        texts.append(f"preemptionPolicy {config[2]}" if config[2] is not None else "no preemptionPolicy")
    return ", ".join(texts[:-1]) + " and " + texts[-1]


# upstream's message (validation.go validateWorkloadPriority): 1.37 for the PodGroupTemplate case, 1.38 for any
_MIXED = {False: "detected multiple priority configurations",
          True: "all priority, priorityClassName, and preemptionPolicy values must be identical, detected multiple "
                "values"}
_FIELDS = ("priorityClassName", "priority", "preemptionPolicy")


def _upstream_order(nodes: list[TemplateNode]) -> list[TemplateNode]:
    """The order validateWorkloadPriority visits: the top-level pod group templates, then each composite template
    followed by its composite children (recursively) and then its pod group templates."""
    pods_first = [n for n in nodes if n.level == 1 and n.kind == POD]

    def subtree(node: TemplateNode) -> list[TemplateNode]:
        below = [n for n in nodes if n.path[:len(node.path)] == node.path and len(n.path) == len(node.path) + 2]
        return [node, *(m for c in below if c.kind != POD for m in subtree(c)), *(c for c in below if c.kind == POD)]

    return pods_first + [m for n in nodes if n.level == 1 and n.kind != POD for m in subtree(n)]


def uniform_priority(doc: Document, nodes: list[TemplateNode], with_policy: bool = False) -> list[Diagnostic]:
    """WAS206: one priority configuration for all templates of a Workload: priorityClassName and priority from
    1.37, preemptionPolicy too from 1.38 (`Capabilities.uniform_preemption_policy`, on create).

    Each template that differs from the first one upstream visits is reported, so every place to fix gets a line.
    """
    ordered = _upstream_order(nodes)
    if not ordered:
        return []
    first = ordered[0]
    reference = _priority_config(first, with_policy)
    out: list[Diagnostic] = []
    for node in ordered[1:]:
        config = _priority_config(node, with_policy)
        if config == reference:
            continue
        field = next(f for f, mine, theirs in zip(_FIELDS, config, reference) if mine != theirs)
        path = node.path + (field,) if node.obj.get(field) is not None else node.path
        out.append(make(doc, "WAS206",
                        f"{_MIXED[with_policy]}: {_label(node)} has {_describe(config)}, "
                        f"but {_label(first)} has {_describe(reference)}", path,
                        "give every template of the Workload the same priorityClassName and priority (or none)"
                        + (" and the same preemptionPolicy" if with_policy else "")))
    return out
