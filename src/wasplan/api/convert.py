"""Pure conversions between the served versions and the hub model.

`to_hub` reads any known version (1.35 v1alpha1 Workloads included); `from_hub` writes one, and reports what a
target version cannot express instead of guessing (api-reference §8). Manifests are schema-validated before
they get here; `--cluster` snapshot objects are not, so `to_hub` holds every field it reads to its type
(api/fields.py) and raises a ValueError naming the field in the manifest's spelling
(`spec.schedulingPolicy.gang.minCount: expected an integer, got 'abc'`) for anything else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wasplan.api import fields as f
from wasplan.api import hub as h
from wasplan.api.releases import SCHEDULING_GROUP, SCHEDULING_VERSIONS

V1ALPHA1 = f"{SCHEDULING_GROUP}/v1alpha1"
V1ALPHA2 = f"{SCHEDULING_GROUP}/v1alpha2"
V1ALPHA3 = f"{SCHEDULING_GROUP}/v1alpha3"
V1BETA1 = f"{SCHEDULING_GROUP}/v1beta1"
KNOWN_VERSIONS = SCHEDULING_VERSIONS
CONVERTIBLE_KINDS = ("Workload", "PodGroup", "CompositePodGroup")

_MODE_136_TO_HUB = {"Pod": h.DisruptionMode.SINGLE, "PodGroup": h.DisruptionMode.ALL}
_MODE_HUB_TO_136 = {v: k for k, v in _MODE_136_TO_HUB.items()}
_PREEMPTION_POLICIES = frozenset(p.value for p in h.PreemptionPolicy)


@dataclass(frozen=True)
class Loss:
    """Something the target version cannot hold. `droppable` losses may go with `--allow-lossy`."""

    path: tuple
    message: str
    droppable: bool


class ConversionError(ValueError):
    def __init__(self, losses: list[Loss]):
        super().__init__("; ".join(loss.message for loss in losses))
        self.losses = losses


def is_old_style(api_version: str) -> bool:
    return api_version in (V1ALPHA1, V1ALPHA2)


# ----------------------------------------------------------------------------------------- reading


def _policy(raw: Any, at: str) -> h.SchedulingPolicy:
    gang = f.mapping(raw, at).get("gang")
    if gang is not None:
        gang = f.strict_mapping(gang, f"{at}.gang")
        return h.SchedulingPolicy(kind=h.PolicyKind.GANG,
                                  min_count=f.optional_integer(gang.get("minCount"), f"{at}.gang.minCount"),
                                  min_group_count=f.optional_integer(gang.get("minGroupCount"),
                                                                     f"{at}.gang.minGroupCount"))
    return h.SchedulingPolicy(kind=h.PolicyKind.BASIC)


def _topology(raw: Any, at: str) -> tuple[str, ...]:
    """Entries that are not maps with a key are passed over, as they always were (validation reports them)."""
    entries = f.mapping(raw, at).get("topology") or ()
    return tuple(f.string(t.get("key"), f"{at}.topology[{i}].key")
                 for i, t in enumerate(entries) if isinstance(t, dict) and t.get("key"))


def _mode(raw: Any, old: bool, at: str) -> h.DisruptionMode | None:
    if raw is None:
        return None
    if old:
        mode = _MODE_136_TO_HUB.get(raw) if isinstance(raw, str) else None
        if mode is None:
            raise ValueError(f"{at}: expected Pod or PodGroup, got {raw!r}")
        return mode
    if f.strict_mapping(raw, at).get("all") is not None:
        return h.DisruptionMode.ALL
    return h.DisruptionMode.SINGLE


def _preemption(raw: Any, at: str) -> h.PreemptionPolicy | None:
    if not raw:
        return None
    if raw not in _PREEMPTION_POLICIES:
        raise ValueError(f"{at}: expected Never or PreemptLowerPriority, got {raw!r}")
    return h.PreemptionPolicy(raw)


def _claims(raw: Any, at: str) -> tuple[h.ResourceClaim, ...]:
    out = []
    for i, c in enumerate(f.items(raw, at)):
        c = f.strict_mapping(c, f"{at}[{i}]")
        out.append(h.ResourceClaim(
            name=f.string(c.get("name"), f"{at}[{i}].name"),
            resource_claim_name=f.optional_string(c.get("resourceClaimName"), f"{at}[{i}].resourceClaimName"),
            resource_claim_template_name=f.optional_string(c.get("resourceClaimTemplateName"),
                                                           f"{at}[{i}].resourceClaimTemplateName")))
    return tuple(out)


def _settings(raw: dict, old: bool, at: str) -> dict:
    return dict(
        policy=_policy(raw.get("schedulingPolicy"), f"{at}.schedulingPolicy"),
        topology_keys=_topology(raw.get("schedulingConstraints"), f"{at}.schedulingConstraints"),
        disruption_mode=_mode(raw.get("disruptionMode"), old, f"{at}.disruptionMode"),
        priority_class_name=f.optional_string(raw.get("priorityClassName"), f"{at}.priorityClassName"),
        priority=f.optional_integer(raw.get("priority"), f"{at}.priority"),
        preemption_policy=_preemption(raw.get("preemptionPolicy"), f"{at}.preemptionPolicy"),
    )


def _pg_template(raw: Any, old: bool, at: str) -> h.PodGroupTemplate:
    raw = f.strict_mapping(raw, at)
    return h.PodGroupTemplate(name=f.string(raw.get("name"), f"{at}.name"),
                              resource_claims=_claims(raw.get("resourceClaims"), f"{at}.resourceClaims"),
                              **_settings(raw, old, at))


def _cpg_template(raw: Any, at: str) -> h.CompositePodGroupTemplate:
    raw = f.strict_mapping(raw, at)
    groups, composites = f"{at}.podGroupTemplates", f"{at}.compositePodGroupTemplates"
    return h.CompositePodGroupTemplate(
        name=f.string(raw.get("name"), f"{at}.name"),
        pod_group_templates=tuple(_pg_template(t, False, f"{groups}[{i}]")
                                  for i, t in enumerate(f.items(raw.get("podGroupTemplates"), groups))),
        composite_templates=tuple(_cpg_template(t, f"{composites}[{i}]")
                                  for i, t in enumerate(f.items(raw.get("compositePodGroupTemplates"), composites))),
        **_settings(raw, False, at),
    )


def _conditions(raw: Any, old: bool) -> tuple[h.Condition, ...] | None:
    entries = f.optional_items(raw, "status.conditions")
    if entries is None:
        return None
    out = []
    for i, c in enumerate(entries):
        at = f"status.conditions[{i}]"
        c = f.strict_mapping(c, at)
        ctype = f.string(c.get("type", ""), f"{at}.type")
        if old:
            ctype = h.CONDITION_RENAMES_136.get(ctype, ctype)
        out.append(h.Condition(type=ctype, status=f.string(c.get("status", ""), f"{at}.status"),
                               reason=f.optional_string(c.get("reason"), f"{at}.reason"),
                               message=f.optional_string(c.get("message"), f"{at}.message"),
                               last_transition_time=f.optional_string(c.get("lastTransitionTime"),
                                                                      f"{at}.lastTransitionTime"),
                               observed_generation=f.optional_integer(c.get("observedGeneration"),
                                                                      f"{at}.observedGeneration")))
    return tuple(out)


def _workload_ref(raw: Any, at: str, template_key: str) -> h.WorkloadRef:
    raw = f.strict_mapping(raw, at)
    return h.WorkloadRef(workload_name=f.string(raw.get("workloadName"), f"{at}.workloadName"),
                         template_name=f.string(raw.get(template_key), f"{at}.{template_key}"))


def _controller_ref(raw: Any) -> h.ControllerRef | None:
    if not raw:
        return None
    at = "spec.controllerRef"
    raw = f.strict_mapping(raw, at)
    return h.ControllerRef(api_group=f.optional_string(raw.get("apiGroup"), f"{at}.apiGroup"),
                           kind=f.string(raw.get("kind"), f"{at}.kind"), name=f.string(raw.get("name"), f"{at}.name"))


def _workload(obj: dict, api_version: str) -> h.Workload:
    spec = f.mapping(obj.get("spec"), "spec")
    metadata, controller = f.metadata(obj.get("metadata")), _controller_ref(spec.get("controllerRef"))
    if api_version == V1ALPHA1:
        templates = []
        for i, g in enumerate(f.items(spec.get("podGroups"), "spec.podGroups")):
            at = f"spec.podGroups[{i}]"
            g = f.strict_mapping(g, at)
            templates.append(h.PodGroupTemplate(name=f.string(g.get("name"), f"{at}.name"),
                                                policy=_policy(g.get("policy"), f"{at}.policy")))
        return h.Workload(metadata=metadata, controller_ref=controller, pod_group_templates=tuple(templates))
    old = api_version == V1ALPHA2
    groups, composites = "spec.podGroupTemplates", "spec.compositePodGroupTemplates"
    return h.Workload(
        metadata=metadata,
        controller_ref=controller,
        pod_group_templates=tuple(_pg_template(t, old, f"{groups}[{i}]")
                                  for i, t in enumerate(f.items(spec.get("podGroupTemplates"), groups))),
        composite_templates=tuple(_cpg_template(t, f"{composites}[{i}]")
                                  for i, t in enumerate(f.items(spec.get("compositePodGroupTemplates"), composites))),
    )


def _podgroup(obj: dict, api_version: str) -> h.PodGroup:
    spec = f.mapping(obj.get("spec"), "spec")
    status = f.mapping(obj.get("status"), "status")
    old = api_version == V1ALPHA2
    if old:
        ref = f.mapping(spec.get("podGroupTemplateRef"), "spec.podGroupTemplateRef").get("workload")
        wref = _workload_ref(ref, "spec.podGroupTemplateRef.workload", "podGroupTemplateName") if ref else None
    else:
        ref = spec.get("workloadRef")
        wref = _workload_ref(ref, "spec.workloadRef", "templateName") if ref else None
    statuses = f.optional_items(status.get("resourceClaimStatuses"), "status.resourceClaimStatuses")
    return h.PodGroup(
        metadata=f.metadata(obj.get("metadata")),
        workload_ref=wref,
        parent_composite=f.optional_string(spec.get("parentCompositePodGroupName"), "spec.parentCompositePodGroupName"),
        resource_claims=_claims(spec.get("resourceClaims"), "spec.resourceClaims"),
        conditions=_conditions(status.get("conditions"), old),
        resource_claim_statuses=None if statuses is None else _claim_statuses(statuses),
        **_settings(spec, old, "spec"),
    )


def _claim_statuses(entries: list) -> tuple[h.ResourceClaimStatus, ...]:
    out = []
    for i, r in enumerate(entries):
        at = f"status.resourceClaimStatuses[{i}]"
        r = f.strict_mapping(r, at)
        out.append(h.ResourceClaimStatus(name=f.string(r.get("name"), f"{at}.name"),
                                         resource_claim_name=f.optional_string(r.get("resourceClaimName"),
                                                                               f"{at}.resourceClaimName")))
    return tuple(out)


def _composite(obj: dict) -> h.CompositePodGroup:
    spec = f.mapping(obj.get("spec"), "spec")
    at = "spec.workloadRef"
    ref = f.mapping(spec.get("workloadRef"), at)
    return h.CompositePodGroup(
        metadata=f.metadata(obj.get("metadata")),
        workload_ref=h.WorkloadRef(workload_name=f.string(ref.get("workloadName", ""), f"{at}.workloadName"),
                                   template_name=f.string(ref.get("templateName", ""), f"{at}.templateName")),
        parent_composite=f.optional_string(spec.get("parentCompositePodGroupName"), "spec.parentCompositePodGroupName"),
        conditions=_conditions(f.mapping(obj.get("status"), "status").get("conditions"), False),
        **_settings(spec, False, "spec"),
    )


def to_hub(obj: dict) -> h.HubObject:
    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    if api_version not in KNOWN_VERSIONS:
        raise ValueError(f"not a workload-aware scheduling version: {api_version}")
    if kind == "Workload":
        return _workload(obj, api_version)
    if kind == "PodGroup" and api_version != V1ALPHA1:
        return _podgroup(obj, api_version)
    if kind == "CompositePodGroup" and api_version in (V1ALPHA3, V1BETA1):  # v1beta1 from 1.38
        return _composite(obj)
    raise ValueError(f"{api_version} has no kind {kind}")


# ----------------------------------------------------------------------------------------- writing


class _Writer:
    """Collects losses while writing, so every problem of an object is reported at once."""

    def __init__(self, api_version: str, allow_lossy: bool):
        self.api_version = api_version
        self.old = api_version == V1ALPHA2
        self.allow_lossy = allow_lossy
        self.losses: list[Loss] = []

    def lose(self, path: tuple, message: str, droppable: bool) -> None:
        self.losses.append(Loss(path, message, droppable))

    def policy(self, p: h.SchedulingPolicy) -> dict:
        if p.kind is h.PolicyKind.BASIC:
            return {"basic": {}}
        gang: dict = {}
        if p.min_count is not None:
            gang["minCount"] = p.min_count
        if p.min_group_count is not None:
            gang["minGroupCount"] = p.min_group_count
        return {"gang": gang}

    def mode(self, m: h.DisruptionMode) -> Any:
        if self.old:
            return _MODE_HUB_TO_136[m]
        return {m.value: {}}

    def settings(self, s: h.GroupSettings, path: tuple, out: dict) -> None:
        out["schedulingPolicy"] = self.policy(s.policy)
        if s.topology_keys:
            out["schedulingConstraints"] = {"topology": [{"key": k} for k in s.topology_keys]}
        if s.disruption_mode is not None:
            out["disruptionMode"] = self.mode(s.disruption_mode)
        if s.priority_class_name is not None:
            out["priorityClassName"] = s.priority_class_name
        if s.priority is not None:
            out["priority"] = s.priority
        if s.preemption_policy is not None:
            if not self.old:
                out["preemptionPolicy"] = s.preemption_policy.value
            elif s.preemption_policy is h.PreemptionPolicy.NEVER:
                self.lose(path + ("preemptionPolicy",),
                          "preemptionPolicy: Never cannot be expressed in v1alpha2 (1.36 has no group preemption policy)",
                          droppable=False)
            else:
                self.lose(path + ("preemptionPolicy",),
                          "preemptionPolicy: PreemptLowerPriority does not exist in v1alpha2; it is the default there",
                          droppable=True)

    def claims(self, claims: tuple[h.ResourceClaim, ...]) -> list[dict]:
        out = []
        for c in claims:
            item = {"name": c.name}
            if c.resource_claim_name is not None:
                item["resourceClaimName"] = c.resource_claim_name
            if c.resource_claim_template_name is not None:
                item["resourceClaimTemplateName"] = c.resource_claim_template_name
            out.append(item)
        return out

    def pg_template(self, t: h.PodGroupTemplate, path: tuple) -> dict:
        out: dict = {"name": t.name}
        self.settings(t, path, out)
        if t.resource_claims:
            out["resourceClaims"] = self.claims(t.resource_claims)
        return out

    def cpg_template(self, t: h.CompositePodGroupTemplate, path: tuple) -> dict:
        out: dict = {"name": t.name}
        self.settings(t, path, out)
        if t.pod_group_templates:
            out["podGroupTemplates"] = [self.pg_template(c, path + ("podGroupTemplates", i))
                                        for i, c in enumerate(t.pod_group_templates)]
        if t.composite_templates:
            out["compositePodGroupTemplates"] = [self.cpg_template(c, path + ("compositePodGroupTemplates", i))
                                                 for i, c in enumerate(t.composite_templates)]
        return out

    def conditions(self, conds: tuple[h.Condition, ...]) -> list[dict]:
        back = {v: k for k, v in h.CONDITION_RENAMES_136.items()} if self.old else {}
        out = []
        for c in conds:
            item: dict = {"type": back.get(c.type, c.type), "status": c.status}
            for key, value in (("reason", c.reason), ("message", c.message),
                               ("lastTransitionTime", c.last_transition_time),
                               ("observedGeneration", c.observed_generation)):
                if value is not None:
                    item[key] = value
            out.append(item)
        return out


def _head(api_version: str, kind: str, metadata: dict) -> dict:
    out: dict = {"apiVersion": api_version, "kind": kind}
    if metadata:
        out["metadata"] = metadata
    return out


def _write_workload(w: _Writer, obj: h.Workload) -> dict:
    out = _head(w.api_version, "Workload", obj.metadata)
    spec: dict = {}
    if obj.controller_ref is not None:
        ref: dict = {}
        if obj.controller_ref.api_group is not None:
            ref["apiGroup"] = obj.controller_ref.api_group
        ref["kind"] = obj.controller_ref.kind
        ref["name"] = obj.controller_ref.name
        spec["controllerRef"] = ref
    if obj.composite_templates and w.old:
        w.lose(("spec", "compositePodGroupTemplates"),
               "compositePodGroupTemplates (CompositePodGroup trees) do not exist in v1alpha2", droppable=False)
    if obj.pod_group_templates or w.old:
        spec["podGroupTemplates"] = [w.pg_template(t, ("spec", "podGroupTemplates", i))
                                     for i, t in enumerate(obj.pod_group_templates)]
    if obj.composite_templates and not w.old:
        spec["compositePodGroupTemplates"] = [w.cpg_template(t, ("spec", "compositePodGroupTemplates", i))
                                              for i, t in enumerate(obj.composite_templates)]
    out["spec"] = spec
    return out


def _write_podgroup(w: _Writer, obj: h.PodGroup, keep_status: bool) -> dict:
    out = _head(w.api_version, "PodGroup", obj.metadata)
    spec: dict = {}
    if obj.workload_ref is not None:
        if w.old:
            spec["podGroupTemplateRef"] = {"workload": {"workloadName": obj.workload_ref.workload_name,
                                                        "podGroupTemplateName": obj.workload_ref.template_name}}
        else:
            spec["workloadRef"] = {"workloadName": obj.workload_ref.workload_name,
                                   "templateName": obj.workload_ref.template_name}
    if obj.parent_composite is not None:
        if w.old:
            w.lose(("spec", "parentCompositePodGroupName"),
                   "parentCompositePodGroupName (CompositePodGroup trees) does not exist in v1alpha2", droppable=False)
        else:
            spec["parentCompositePodGroupName"] = obj.parent_composite
    w.settings(obj, ("spec",), spec)
    if obj.resource_claims:
        spec["resourceClaims"] = w.claims(obj.resource_claims)
    out["spec"] = spec
    if keep_status and (obj.conditions is not None or obj.resource_claim_statuses is not None):
        status: dict = {}
        if obj.conditions is not None:
            status["conditions"] = w.conditions(obj.conditions)
        if obj.resource_claim_statuses is not None:
            status["resourceClaimStatuses"] = [
                {"name": r.name, **({"resourceClaimName": r.resource_claim_name} if r.resource_claim_name else {})}
                for r in obj.resource_claim_statuses]
        out["status"] = status
    return out


def _write_composite(w: _Writer, obj: h.CompositePodGroup, keep_status: bool) -> dict:
    if w.old:  # v1alpha3 from 1.37, v1beta1 from 1.38 (whether the release serves it is the target's business)
        w.lose((), f"CompositePodGroup does not exist in {w.api_version}", droppable=False)
    out = _head(w.api_version, "CompositePodGroup", obj.metadata)
    spec: dict = {}
    if obj.parent_composite is not None:
        spec["parentCompositePodGroupName"] = obj.parent_composite
    w.settings(obj, ("spec",), spec)
    spec["workloadRef"] = {"workloadName": obj.workload_ref.workload_name,
                           "templateName": obj.workload_ref.template_name}
    out["spec"] = spec
    if keep_status and obj.conditions is not None:
        out["status"] = {"conditions": w.conditions(obj.conditions)}
    return out


def from_hub(obj: h.HubObject, api_version: str, *, allow_lossy: bool = False,
             keep_status: bool = False) -> tuple[dict, list[Loss]]:
    """Write `obj` as `api_version`. Returns the object and every loss; raises if a loss is not allowed."""
    if api_version not in (V1ALPHA2, V1ALPHA3, V1BETA1):
        raise ValueError(f"cannot write {api_version}")
    w = _Writer(api_version, allow_lossy)
    if isinstance(obj, h.Workload):
        out = _write_workload(w, obj)
    elif isinstance(obj, h.PodGroup):
        out = _write_podgroup(w, obj, keep_status)
    else:
        out = _write_composite(w, obj, keep_status)
    refused = [loss for loss in w.losses if not (loss.droppable and allow_lossy)]
    if refused:
        raise ConversionError(w.losses)
    return out, w.losses


def convert(obj: dict, api_version: str, **kwargs: Any) -> tuple[dict, list[Loss]]:
    return from_hub(to_hub(obj), api_version, **kwargs)
