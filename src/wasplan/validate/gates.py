"""Feature gates: kinds the API server does not serve and fields it silently drops when a gate is off.

On create, kube-apiserver drops a feature-gated field whose gate is off (the registry's PrepareForCreate) and
refuses kinds whose gate is off (api-reference §0.1, §2). The manifest then "applies" but does something
else than its author meant, which is why a dropped field is a warning and an unserved kind an error.

Everything is driven by two tables below: which gates a kind needs, and which field at which place needs
which gate, per release. A row never mentions an apiVersion: each release's table applies to the
scheduling.k8s.io versions that release serves, and to core/batch v1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from wasplan.codes import lookup
from wasplan.diagnostics import Diagnostic, FieldPath, format_path
from wasplan.documents import Document
from wasplan.api.releases import SCHEDULING_GROUP, GateSet
from wasplan.validate.dra_gates import (
    ATTRIBUTE, CLASS, CONSTRAINT, DEVICE, DRA_ROWS, DRA_VERSIONS, REQUEST, SLICE, dra_scopes,
)
from wasplan.validate.walk import COMPOSITE, iter_templates, mapping

RESOURCE_GROUP = "resource.k8s.io"
DRA_SCOPES = frozenset({SLICE, DEVICE, ATTRIBUTE, REQUEST, CONSTRAINT, CLASS})

# Where a gated field sits.
SPEC = "spec"  # the object's spec (Pod spec for Pods)
STATUS = "status"
TEMPLATE = "podGroupTemplate"  # any PodGroupTemplate of a Workload, at any depth
COMPOSITE_TEMPLATE = "compositePodGroupTemplate"  # any CompositePodGroupTemplate of a Workload
POD_TEMPLATE = "podTemplate"  # spec.template.spec of a Job


@dataclass(frozen=True, slots=True)
class GatedField:
    """A field a feature gate guards in one release, kind and scope."""

    release: str
    kind: str
    scope: str
    field: str
    gate: str


def _rows(release: str, places: list[tuple[str, str]], fields: tuple[str, ...], gate: str) -> list[GatedField]:
    return [GatedField(release, kind, scope, f, gate) for kind, scope in places for f in fields]


_GROUP_136 = [("Workload", TEMPLATE), ("PodGroup", SPEC)]
_GROUP_137 = [("Workload", TEMPLATE), ("PodGroup", SPEC)]
_ANY_GROUP_137 = _GROUP_137 + [("Workload", COMPOSITE_TEMPLATE), ("CompositePodGroup", SPEC)]
_PODS = [("Pod", SPEC), ("Job", POD_TEMPLATE)]

# api-reference §2 and the Gate column of §3.1, §3.2, §4.1-4.4, §6.1, §6.3.
GATED_FIELDS: list[GatedField] = [
    # 1.36 (v1alpha2)
    *_rows("1.36", _GROUP_136, ("disruptionMode", "priority", "priorityClassName"), "WorkloadAwarePreemption"),
    *_rows("1.36", _GROUP_136, ("schedulingConstraints",), "TopologyAwareWorkloadScheduling"),
    *_rows("1.36", _GROUP_136, ("resourceClaims",), "DRAWorkloadResourceClaims"),
    *_rows("1.36", [("PodGroup", STATUS)], ("resourceClaimStatuses",), "DRAWorkloadResourceClaims"),
    *_rows("1.36", _PODS, ("schedulingGroup",), "GenericWorkload"),
    # 1.37 (v1alpha3, v1beta1): disruptionMode and priorities moved under GenericWorkload, the kinds' gate
    *_rows("1.37", _ANY_GROUP_137, ("preemptionPolicy",), "PodGroupPreemptionPolicy"),
    # 1.37 and 1.38 alike (1.38 removed PodGroupPreemptionPolicy: preemptionPolicy is never dropped)
    *(row for release in ("1.37", "1.38") for row in (
        *_rows(release, _ANY_GROUP_137, ("schedulingConstraints",), "TopologyAwareWorkloadScheduling"),
        *_rows(release, _GROUP_137, ("resourceClaims",), "DRAWorkloadResourceClaims"),
        *_rows(release, [("PodGroup", STATUS)], ("resourceClaimStatuses",), "DRAWorkloadResourceClaims"),
        *_rows(release, [("Workload", SPEC)], ("compositePodGroupTemplates",), "CompositePodGroup"),
        *_rows(release, [("PodGroup", SPEC)], ("parentCompositePodGroupName",), "CompositePodGroup"),
        *_rows(release, [("Job", SPEC)], ("scheduling",), "WorkloadWithJob"),
        *_rows(release, _PODS, ("schedulingGroup",), "GenericWorkload"),
    )),
]

GATED_FIELDS += [GatedField(release, "*", scope, f, gate)
                 for releases, scope, fields, gate in DRA_ROWS for release in releases for f in fields]

# (release, kind) -> gates the API server needs to serve the kind at all (api-reference §1, §2).
KIND_GATES: dict[tuple[str, str], tuple[str, ...]] = {
    ("1.36", "Workload"): ("GenericWorkload",),
    ("1.36", "PodGroup"): ("GenericWorkload",),
    ("1.37", "Workload"): ("GenericWorkload",),
    ("1.37", "PodGroup"): ("GenericWorkload",),
    ("1.37", "CompositePodGroup"): ("GenericWorkload", "CompositePodGroup"),
    ("1.38", "Workload"): ("GenericWorkload",),
    ("1.38", "PodGroup"): ("GenericWorkload",),
    ("1.38", "CompositePodGroup"): ("GenericWorkload", "CompositePodGroup"),
    ("1.36", "DeviceTaintRule"): ("DRADeviceTaintRules",),
    ("1.37", "DeviceTaintRule"): ("DRADeviceTaintRules",),
    ("1.38", "DeviceTaintRule"): ("DRADeviceTaintRules",),
}

_INDEX: dict[tuple[str, str, str], list[GatedField]] = {}
for _row in GATED_FIELDS:
    _INDEX.setdefault((_row.release, _row.kind, _row.scope), []).append(_row)


def check_gates(doc: Document, gates: GateSet) -> list[Diagnostic]:
    """WAS302 if the document's kind is not served under `gates`, else WAS301 for each dropped field."""
    if not _applies(doc, gates):
        return []
    release = gates.release.version
    off = [g for g in KIND_GATES.get((release, doc.kind), ()) if not gates.enabled(g)]
    if off:
        return [_kind_off(doc, off)]
    out: list[Diagnostic] = []
    dropped: list[FieldPath] = []
    off_rows: dict[str, list[GatedField]] = {}  # per scope, the rows whose gate is off: the only ones that can fire
    for scope, path, obj in _scopes(doc):
        if any(path[: len(p)] == p for p in dropped):
            continue  # inside a field already reported as dropped: it goes with its parent
        rows = off_rows.get(scope)
        if rows is None:
            every = _INDEX.get((release, "*" if scope in DRA_SCOPES else doc.kind, scope), ())
            rows = off_rows[scope] = [r for r in every if not gates.enabled(r.gate)]
        for row in rows:
            if _is_set(obj.get(row.field)):
                dropped.append(path + (row.field,))
                out.append(_field_off(doc, path + (row.field,), row.gate, release))
    return out + _emptied_workload(doc, dropped)


def _emptied_workload(doc: Document, dropped: list[FieldPath]) -> list[Diagnostic]:
    """A 1.37 Workload of composite templates only is left with no templates once CompositePodGroup is off: the
    server drops the list on create and then rejects the Workload (exactly one of the two lists must be set;
    pkg/registry/scheduling/workload/strategy.go dropDisabledWorkloadSpecFields, found by the oracle)."""
    if doc.kind != "Workload" or ("spec", "compositePodGroupTemplates") not in dropped:
        return []
    if _is_set(mapping(doc.obj.get("spec")).get("podGroupTemplates")):
        return []
    message = ("spec has only compositePodGroupTemplates, which the API server drops while CompositePodGroup is "
               "off: the Workload is then left with neither podGroupTemplates nor compositePodGroupTemplates")
    return [Diagnostic("WAS108", lookup("WAS108").severity, message, doc.location(("spec",)),
                       "enable with --feature-gates=CompositePodGroup=true")]


def _applies(doc: Document, gates: GateSet) -> bool:
    """Rows speak for the versions a release serves; other versions are WAS109's business, not ours."""
    if doc.group == SCHEDULING_GROUP:
        return gates.release.serves(doc.api_version, doc.kind)
    if doc.group == RESOURCE_GROUP:
        return doc.version in DRA_VERSIONS
    return doc.api_version in ("v1", "batch/v1") and doc.kind in ("Pod", "Job")


def _is_set(value: object) -> bool:
    """Declarative validation counts null, "" and empty lists/maps as absent (api-reference §0.1)."""
    return value is not None and value != "" and value != [] and value != {}


def _scopes(doc: Document) -> Iterator[tuple[str, FieldPath, dict]]:
    """(scope, path, mapping) for every place of `doc` that the table can name, in document order."""
    if doc.group == RESOURCE_GROUP:
        yield from dra_scopes(doc)
        return
    spec = mapping(doc.obj.get("spec"))
    yield SPEC, ("spec",), spec
    if doc.kind == "Workload":
        for node in iter_templates(spec, doc.version):
            yield (COMPOSITE_TEMPLATE if node.kind == COMPOSITE else TEMPLATE), node.path, node.obj
    elif doc.kind == "Job":
        yield POD_TEMPLATE, ("spec", "template", "spec"), mapping(mapping(spec.get("template")).get("spec"))
    yield STATUS, ("status",), mapping(doc.obj.get("status"))


def _kind_off(doc: Document, off: list[str]) -> Diagnostic:
    names = " and ".join(off)
    flags = ",".join(f"{g}=true" for g in off)
    message = (f"{doc.kind} needs feature gate{'s' if len(off) > 1 else ''} {names}, which "
               f"{'are' if len(off) > 1 else 'is'} off: the API server does not serve {doc.kind} objects")
    hint = f"enable with --feature-gates={flags} (kube-apiserver, kube-scheduler, kube-controller-manager)"
    return Diagnostic("WAS302", lookup("WAS302").severity, message, doc.location(("kind",)), hint,
                      {"gates": off})


def _field_off(doc: Document, path: FieldPath, gate: str, release: str) -> Diagnostic:
    message = (f"{format_path(path)} needs feature gate {gate}, which is off in Kubernetes {release}: "
               "the API server silently drops it on create")
    hint = f"enable with --feature-gates={gate}=true, or remove the field if the cluster runs without it"
    return Diagnostic("WAS301", lookup("WAS301").severity, message, doc.location(path), hint, {"gate": gate})
