"""Server-side rules the JSON Schema cannot express, one module per kind.

`check(doc, gates)` runs the rules of the version the document declares. The schema check runs before and
independently; nothing here repeats what it enforces (unknown fields, types, required fields, enums, minimum,
maxItems and unions of scheduling.k8s.io kinds, name formats).
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Callable

from wasplan.api.releases import RELEASE_OF_VERSION, GateSet
from wasplan.diagnostics import Diagnostic
from wasplan.documents import Document
from wasplan.validate.rules import group_priority, meta

RESOURCE_GROUP = "resource.k8s.io"
KUEUE_GROUP = "kueue.x-k8s.io"  # kueue.GROUP
KUEUE_CONFIG_GROUP = "config.kueue.x-k8s.io"  # kueue_config.GROUP
Rule = Callable[[Document, GateSet], list[Diagnostic]]

# (group, kind) -> its rules as `module.function` of this package, loaded with the first document of that kind:
# inputs without DRA or Kueue objects load neither those rules nor, with the DRA ones, CEL's checker.
# scheduling.k8s.io versions are told apart inside each module.
_RULES: dict[tuple[str, str], str] = {
    ("scheduling.k8s.io", "Workload"): "workload.check",
    ("scheduling.k8s.io", "PodGroup"): "podgroup.check",
    ("scheduling.k8s.io", "CompositePodGroup"): "composite.check",
    ("batch", "Job"): "job.check",
    ("", "Pod"): "pod.check",
    ("apps", "Deployment"): "templates.check",
    ("apps", "ReplicaSet"): "templates.check",
    ("apps", "StatefulSet"): "templates.check",
    ("jobset.x-k8s.io", "JobSet"): "templates.check",
    ("leaderworkerset.x-k8s.io", "LeaderWorkerSet"): "templates.check",
    (RESOURCE_GROUP, "DeviceClass"): "dra.check_class",
    (RESOURCE_GROUP, "ResourceClaim"): "dra.check_claim",
    (RESOURCE_GROUP, "ResourceClaimTemplate"): "dra.check_template",
    (RESOURCE_GROUP, "ResourceSlice"): "dra_slice.check_slice",
}
# resource.k8s.io versions whose shape the DRA rules know.
_DRA_VERSIONS = ("v1", "v1beta2")
# v1beta1 classes and claims differ from v1 only by requests without `exactly` (v1beta1 slices nest devices in `basic`)
_DRA_CLAIM_VERSIONS = {kind: ("v1beta1",) for kind in ("DeviceClass", "ResourceClaim", "ResourceClaimTemplate")}


def check(doc: Document, gates: GateSet) -> list[Diagnostic]:
    """All server-side rule findings for one document; [] for kinds and versions wasplan has no rules for."""
    if doc.group == KUEUE_CONFIG_GROUP:  # a file Kueue's manager reads, not an API object: no metadata rules
        return rule("kueue_config.check")(doc, gates)
    return meta.check(doc) + _kind_rules(doc, gates)


@cache
def rule(name: str) -> Rule:
    """`module.function` of this package (a `_RULES` value), its module imported on first use."""
    module, _, function = name.partition(".")
    return getattr(importlib.import_module(f"{__name__}.{module}"), function)


def _kind_rules(doc: Document, gates: GateSet) -> list[Diagnostic]:
    group = doc.group
    if group == KUEUE_GROUP:
        return rule("kueue.check")(doc, gates)
    if group == "scheduling.k8s.io" and doc.version not in RELEASE_OF_VERSION:
        return []
    if group in ("", "batch", "apps") and doc.version != "v1":
        return []
    if group == RESOURCE_GROUP and doc.version not in _DRA_VERSIONS + _DRA_CLAIM_VERSIONS.get(doc.kind, ()):
        return []
    name = _RULES.get((group, doc.kind))
    out = rule(name)(doc, gates) if name else []
    if group == "scheduling.k8s.io":
        out += group_priority.check(doc, gates)
    return out
