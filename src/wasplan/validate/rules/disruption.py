"""How a group's scheduling policy and disruption mode may combine, per release.

Through 1.37 the API accepts `disruptionMode: {all: {}}` on a group that is not a gang, which wasplan warns about
(WAS207). v1.38.0-beta.0 refuses it on create for PodGroups, CompositePodGroups and both kinds of Workload
template (`Capabilities.all_disruption_needs_gang`; pkg/apis/scheduling/validation/validation.go ValidatePodGroup,
ValidateCompositePodGroup, validatePodGroupTemplate, validateCompositePodGroupTemplate, message
`nonGangDisruptionModeAllErrorMsg`), and requires a CompositePodGroupTemplate's children to follow it: a gang
parent's children are gangs, an `all` parent's children are `all` (`Capabilities.gang_parent_needs_gang_children`,
validateCompositePodGroupTemplate's validateChild). Upstream's messages are kept word for word after the name of
the object or template they are about.
"""

from __future__ import annotations

from wasplan.api.releases import Capabilities
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.validate.rules.common import GANG, disrupt_all_with_basic, is_disrupt_all, make, policy_kind
from wasplan.validate.walk import COMPOSITE, POD, TemplateNode, items

NON_GANG_ALL = 'cannot have "all" disruption mode when scheduling policy is other than "gang"'
CHILD_GANG = 'must have "gang" scheduling policy when parent compositePodGroupTemplate has "gang" scheduling policy'
CHILD_ALL = 'must have "all" disruption mode when parent compositePodGroupTemplate has "all" disruption mode'


def check_group(doc: Document, owner: dict, base: FieldPath, what: str, caps: Capabilities) -> list[Diagnostic]:
    """A PodGroup's or CompositePodGroup's spec, or one template (`owner` at `base`, named `what`)."""
    if not caps.all_disruption_needs_gang:
        return disrupt_all_with_basic(doc, owner, base, what)
    if not is_disrupt_all(owner.get("disruptionMode")) or policy_kind(owner.get("schedulingPolicy")) == GANG:
        return []
    return [make(doc, "WAS260", f"{what}: {NON_GANG_ALL}", base + ("disruptionMode",),
                 "use schedulingPolicy.gang to make the pods one unit, or use disruptionMode single")]


def check_children(doc: Document, nodes: list[TemplateNode], caps: Capabilities,
                   label) -> list[Diagnostic]:
    """Every child of every CompositePodGroupTemplate against its parent (`label(node)` names a template)."""
    if not caps.gang_parent_needs_gang_children:
        return []
    out: list[Diagnostic] = []
    for node in nodes:
        if node.kind != COMPOSITE:
            continue
        gang = policy_kind(node.obj.get("schedulingPolicy")) == GANG
        every = is_disrupt_all(node.obj.get("disruptionMode"))
        for child in _children(node):
            if gang and policy_kind(child.obj.get("schedulingPolicy")) != GANG:
                out.append(make(doc, "WAS261", f"{label(child)}: {CHILD_GANG}", child.path + ("schedulingPolicy",),
                                f"give it schedulingPolicy.gang, like its parent {label(node)}"))
            if every and not is_disrupt_all(child.obj.get("disruptionMode")):
                out.append(make(doc, "WAS262", f"{label(child)}: {CHILD_ALL}", child.path + ("disruptionMode",),
                                f"give it disruptionMode {{all: {{}}}}, like its parent {label(node)}"))
    return out


def _children(node: TemplateNode) -> list[TemplateNode]:
    """The direct children in upstream's order: composite templates, then pod group templates."""
    return [TemplateNode(kind, node.path + (key, i), child, node.level + 1)
            for kind, key in ((COMPOSITE, "compositePodGroupTemplates"), (POD, "podGroupTemplates"))
            for i, child in enumerate(items(node.obj.get(key))) if isinstance(child, dict)]
