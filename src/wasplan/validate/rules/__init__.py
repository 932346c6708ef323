"""Server-side rules the JSON Schema cannot express, one module per kind.

`check(doc, gates)` runs the rules of the version the document declares. The schema check runs before and
independently; nothing here repeats what it enforces (unknown fields, types, required fields, enums, minimum,
maxItems and unions of scheduling.k8s.io kinds, name formats).
"""

from __future__ import annotations

from typing import Callable

from wasplan.api.releases import RELEASE_OF_VERSION, GateSet
from wasplan.diagnostics import Diagnostic
from wasplan.documents import Document
from wasplan.validate.rules import (
    composite, dra, dra_slice, group_priority, job, kueue, kueue_config, meta, pod, podgroup, templates, workload)

RESOURCE_GROUP = "resource.k8s.io"
Rule = Callable[[Document, GateSet], list[Diagnostic]]

# (group, kind) -> rules; scheduling.k8s.io versions are told apart inside each module.
_RULES: dict[tuple[str, str], Rule] = {
    ("scheduling.k8s.io", "Workload"): workload.check,
    ("scheduling.k8s.io", "PodGroup"): podgroup.check,
    ("scheduling.k8s.io", "CompositePodGroup"): composite.check,
    ("batch", "Job"): job.check,
    ("", "Pod"): pod.check,
    ("apps", "Deployment"): templates.check,
    ("apps", "ReplicaSet"): templates.check,
    ("apps", "StatefulSet"): templates.check,
    ("jobset.x-k8s.io", "JobSet"): templates.check,
    ("leaderworkerset.x-k8s.io", "LeaderWorkerSet"): templates.check,
    (RESOURCE_GROUP, "DeviceClass"): dra.check_class,
    (RESOURCE_GROUP, "ResourceClaim"): dra.check_claim,
    (RESOURCE_GROUP, "ResourceClaimTemplate"): dra.check_template,
    (RESOURCE_GROUP, "ResourceSlice"): dra_slice.check_slice,
}
# resource.k8s.io versions whose shape the DRA rules know.
_DRA_VERSIONS = ("v1", "v1beta2")
# v1beta1 classes and claims differ from v1 only by requests without `exactly` (v1beta1 slices nest devices in `basic`)
_DRA_CLAIM_VERSIONS = {kind: ("v1beta1",) for kind in ("DeviceClass", "ResourceClaim", "ResourceClaimTemplate")}


def check(doc: Document, gates: GateSet) -> list[Diagnostic]:
    """All server-side rule findings for one document; [] for kinds and versions wasplan has no rules for."""
    if doc.group == kueue_config.GROUP:  # a file Kueue's manager reads, not an API object: no metadata rules
        return kueue_config.check(doc, gates)
    return meta.check(doc) + _kind_rules(doc, gates)


def _kind_rules(doc: Document, gates: GateSet) -> list[Diagnostic]:
    group = doc.group
    if group == kueue.GROUP:
        return kueue.check(doc, gates)
    if group == "scheduling.k8s.io" and doc.version not in RELEASE_OF_VERSION:
        return []
    if group in ("", "batch", "apps") and doc.version != "v1":
        return []
    if group == RESOURCE_GROUP and doc.version not in _DRA_VERSIONS + _DRA_CLAIM_VERSIONS.get(doc.kind, ()):
        return []
    rule = _RULES.get((group, doc.kind))
    out = rule(doc, gates) if rule else []
    if group == "scheduling.k8s.io":
        out += group_priority.check(doc, gates)
    return out
