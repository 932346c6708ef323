"""Replacements for fields that do not exist, as people copy them from blogs, KEP drafts and older releases.

The schema check reports an unknown field; this module tells the user what the real field is. The table is
api-reference §9 (mismatches between examples and the real API) and §8 (renames between versions).
Plain typos of known fields get `wasplan.suggest.did_you_mean`, the one suggestion rule of every command.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from wasplan.api.releases import SCHEDULING_GROUP
from wasplan.validate.walk import RELEASE_OF_VERSION

ALL = frozenset({"1.35", "1.36", "1.37"})
R135, R136, R137 = frozenset({"1.35"}), frozenset({"1.36"}), frozenset({"1.37"})
R136_UP = frozenset({"1.36", "1.37"})
GROUP_KINDS = frozenset({"Workload", "PodGroup", "CompositePodGroup"})


@dataclass(frozen=True, slots=True)
class HintRule:
    """A hint shown for a field under a parent path, for some kinds and releases."""

    field: str
    parent: tuple[str, ...]  # suffix of the parent path (list indices left out); () matches anywhere
    kinds: frozenset[str] | None  # None: any kind
    releases: frozenset[str]  # releases of the scheduling.k8s.io version; other groups count as any release
    text: str


def _r(field: str, parent: tuple[str, ...], kinds: Iterable[str] | None, releases: frozenset[str], text: str):
    return HintRule(field, parent, frozenset(kinds) if kinds is not None else None, releases, text)


_GANG_PER_TEMPLATE = ("a Workload has no {field}: the gang threshold is set per template, in "
                      "spec.podGroupTemplates[].schedulingPolicy.gang.minCount")
_GANG_OF_GROUP = ("a PodGroup has no {field}: its members are the pods whose spec.schedulingGroup.podGroupName "
                  "names it, and the gang threshold is spec.schedulingPolicy.gang.minCount")
_REF_136 = "spec.podGroupTemplateRef.workload.workloadName (with podGroupTemplateName beside it)"
_REF_137 = "spec.workloadRef.workloadName (with templateName beside it)"
_TOPOLOGY = "schedulingConstraints.topology[].key, e.g. topology: [{key: topology.kubernetes.io/rack}]"
_NEW_IN_137 = "{field} exists from Kubernetes 1.37 (scheduling.k8s.io/v1alpha3 and v1beta1); v1alpha2 has no such field"
_POD_REF = ("spec.schedulingGroup.podGroupName: the 1.35 spec.workloadRef {name, podGroup} was removed in 1.36; "
            "create a PodGroup that references the Workload's template and name it in schedulingGroup")
_TEMPLATE_PARENTS = (("podGroupTemplates",), ("compositePodGroupTemplates",))

# First matching row wins, so specific rows come before general ones.
HINT_RULES: list[HintRule] = [
    # thresholds that do not exist (§9)
    _r("totalPods", ("spec",), ["PodGroup"], ALL, _GANG_OF_GROUP),
    _r("minMatch", ("spec",), ["PodGroup"], ALL, _GANG_OF_GROUP),
    _r("totalPods", ("spec",), ["Workload"], ALL, _GANG_PER_TEMPLATE),
    _r("minMatch", ("spec",), ["Workload"], ALL, _GANG_PER_TEMPLATE),
    *[_r(f, p, ["Workload"], ALL, "use schedulingPolicy.gang.minCount of this template")
      for f in ("totalPods", "minMatch") for p in _TEMPLATE_PARENTS],
    _r("desiredCount", (), GROUP_KINDS, ALL,
       "there is no desiredCount (it appeared only in early 1.36 drafts): the one threshold is "
       "schedulingPolicy.gang.minCount"),
    _r("minCount", ("schedulingPolicy",), None, ALL, "schedulingPolicy.gang.minCount: minCount belongs inside gang"),
    _r("minGroupCount", ("podGroupTemplates", "schedulingPolicy", "gang"), ["Workload"], ALL,
       "minCount: a PodGroupTemplate counts pods (minGroupCount is for composite templates)"),
    _r("minGroupCount", ("spec", "schedulingPolicy", "gang"), ["PodGroup"], ALL,
       "minCount: a PodGroup counts pods (minGroupCount is for CompositePodGroups)"),
    _r("minCount", ("gang",), ["Workload", "CompositePodGroup"], ALL,
       "minGroupCount: a composite group counts child groups, not pods"),
    # the reference from PodGroup to its Workload (§8.2, §9)
    _r("workloadName", ("spec",), ["PodGroup"], R136, _REF_136),
    _r("workloadName", ("spec",), ["PodGroup"], R137, _REF_137),
    _r("workloadName", ("spec", "podGroupTemplateRef"), ["PodGroup"], R136,
       "podGroupTemplateRef.workload.workloadName: the released 1.36 API wraps the reference in `workload`"),
    _r("podGroupTemplateName", ("spec", "podGroupTemplateRef"), ["PodGroup"], R136,
       "podGroupTemplateRef.workload.podGroupTemplateName: the released 1.36 API wraps the reference in `workload`"),
    _r("podGroupTemplateRef", ("spec",), ["PodGroup"], R137,
       "spec.workloadRef {workloadName, templateName}: podGroupTemplateRef.workload was the 1.36 (v1alpha2) shape"),
    _r("podGroupTemplateName", ("workloadRef",), ["PodGroup", "CompositePodGroup"], R137,
       "templateName (podGroupTemplateName was the 1.36 v1alpha2 name)"),
    _r("workloadRef", ("spec",), ["PodGroup"], R136,
       "spec.podGroupTemplateRef.workload {workloadName, podGroupTemplateName}: workloadRef is the 1.37 shape"),
    _r("templateName", ("podGroupTemplateRef", "workload"), ["PodGroup"], R136,
       "podGroupTemplateName (templateName is the 1.37 name)"),
    # topology (§9)
    _r("topologyConstraints", ("schedulingConstraints",), None, ALL, _TOPOLOGY),
    _r("topologyKey", ("schedulingConstraints",), None, ALL, _TOPOLOGY),
    _r("topologyKey", ("schedulingConstraints", "topology"), None, ALL, "key (a node label key)"),
    _r("key", ("schedulingConstraints",), None, ALL, _TOPOLOGY),  # the 1.37 docs' own Job example
    _r("level", ("schedulingConstraints", "topology"), None, ALL,
       "key: name the node label key itself, e.g. topology.kubernetes.io/rack"),
    # v1alpha1 (1.35) names and back (§8.4)
    _r("podGroups", ("spec",), ["Workload"], R136_UP, "spec.podGroupTemplates (podGroups was the 1.35 v1alpha1 name)"),
    *[_r("policy", p, ["Workload"], R136_UP, "schedulingPolicy (policy was the 1.35 v1alpha1 name)")
      for p in _TEMPLATE_PARENTS],
    _r("policy", ("spec",), ["PodGroup", "CompositePodGroup"], R136_UP, "spec.schedulingPolicy"),
    _r("podGroupTemplates", ("spec",), ["Workload"], R135, "spec.podGroups (the 1.35 v1alpha1 name)"),
    _r("schedulingPolicy", ("podGroups",), ["Workload"], R135, "policy (the 1.35 v1alpha1 name)"),
    # 1.37 fields used with the 1.36 version
    *[_r(f, (), GROUP_KINDS, R136, _NEW_IN_137)
      for f in ("preemptionPolicy", "compositePodGroupTemplates", "parentCompositePodGroupName")],
    # KEP example (§9)
    _r("apiVersion", ("controllerRef",), ["Workload"], ALL,
       "controllerRef.apiGroup: the API group only, without a version (e.g. batch for a Job, empty for core)"),
    # core and batch
    _r("workloadRef", ("spec",), ["Pod"], ALL, _POD_REF),
    _r("workloadRef", ("template", "spec"), None, ALL, _POD_REF),
    # KEP-6012 era spellings of a Job's spec.scheduling
    _r("policy", ("spec", "scheduling"), ["Job"], ALL, "spec.scheduling.schedulingPolicy (policy was a KEP draft name)"),
    _r("constraints", ("spec", "scheduling"), ["Job"], ALL,
       "spec.scheduling.schedulingConstraints (constraints was a KEP draft name)"),
    _r("disruption", ("spec", "scheduling"), ["Job"], ALL,
       "spec.scheduling.disruptionMode (disruption was a KEP draft name)"),
    _r("priorityClassName", ("scheduling", "schedulingPolicy"), ["Job"], ALL,
       "spec.template.spec.priorityClassName: a Job's pods, and so its PodGroup, take the pod template's priority"),
    _r("priorityClassName", ("schedulingPolicy",), GROUP_KINDS, R136_UP,
       "priorityClassName sits beside schedulingPolicy (in the template, or the PodGroup's spec), not inside it"),
    _r("scheduling", ("spec",), ["Job"], ALL,
       "Job spec.scheduling exists from Kubernetes 1.37 (gate WorkloadWithJob); in 1.36 the Job controller "
       "gang-schedules an Indexed Job with parallelism == completions by itself"),
]


def _release(api_version: str) -> str | None:
    group, _, version = api_version.rpartition("/")
    return RELEASE_OF_VERSION.get(version) if group == SCHEDULING_GROUP else None


def hint_for_unknown_field(api_version: str, kind: str, parent_path: tuple, field: str) -> str | None:
    """What to write instead of `field`, unknown under `parent_path` of an `api_version`/`kind` object.

    `parent_path` is the path of the mapping that holds the field (list indices are ignored). A
    scheduling.k8s.io version outside 1.35-1.37 gets no hint, since the table speaks only for those.
    """
    parent = tuple(p for p in parent_path if isinstance(p, str))
    release = _release(api_version)
    if api_version.startswith(SCHEDULING_GROUP + "/") and release is None:
        return None
    for rule in HINT_RULES:
        if rule.field != field or (rule.kinds is not None and kind not in rule.kinds):
            continue
        if release is not None and release not in rule.releases:
            continue
        if rule.parent and parent[-len(rule.parent):] != rule.parent:
            continue
        return rule.text.replace("{field}", field)
    return None
