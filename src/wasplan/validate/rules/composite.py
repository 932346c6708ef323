"""CompositePodGroup objects and the CompositePodGroupTemplate tree inside 1.37 Workloads.

The tree rules are the hand-written `ValidateWorkloadSpec` checks of api-reference §4.1 (rules 2 and 4); the
object rules follow §4.3. Cycles and depth across CompositePodGroup *objects* need other documents and are
in lint.
"""

from __future__ import annotations

from wasplan.api.releases import GateSet
from wasplan.diagnostics import Diagnostic
from wasplan.documents import Document
from wasplan.validate.rules import disruption
from wasplan.validate.rules.common import make
from wasplan.validate.rules.status import check_conditions
from wasplan.validate.walk import COMPOSITE, TemplateNode, items, mapping

# Levels counted including the leaf PodGroupTemplate level (api-reference §4.1 rule 2).
MAX_TREE_LEVELS = 4


def check(doc: Document, gates: GateSet) -> list[Diagnostic]:
    """Rules for one CompositePodGroup (v1alpha3, and v1beta1 from 1.38)."""
    spec = mapping(doc.obj.get("spec"))
    out = disruption.check_group(doc, spec, ("spec",), f'CompositePodGroup "{doc.name}"', gates.release.caps)
    out += check_conditions(doc, mapping(doc.obj.get("status")), "1.37")
    return out


def check_tree(doc: Document, nodes: list[TemplateNode]) -> list[Diagnostic]:
    """Depth and non-empty rules for every composite template of a Workload."""
    out: list[Diagnostic] = []
    for node in nodes:
        if node.kind != COMPOSITE:
            continue
        label = f'composite template "{node.name}"' if node.name else "composite template"
        if node.level == MAX_TREE_LEVELS:
            # Only the first offending level is reported; anything below it is inside the same finding.
            out.append(make(doc, "WAS204",
                            f"{label} is at level {node.level}, so its children would be at level {node.level + 1}; "
                            f"a Workload's template tree may have at most {MAX_TREE_LEVELS} levels counting the "
                            "podGroupTemplates leaves", node.path,
                            "flatten the tree: at most 3 nested compositePodGroupTemplates above the leaves"))
        if not items(node.obj.get("podGroupTemplates")) and not items(node.obj.get("compositePodGroupTemplates")):
            out.append(make(doc, "WAS205",
                            f"{label} has no children: it needs at least one entry in podGroupTemplates or "
                            "compositePodGroupTemplates", node.path))
    return out
