"""The part of `wasplan lint --cluster` that needs the snapshot's devices (WAS428, WAS429), and what lint reads
from the snapshot at all (node labels, DRA objects, namespaces).

The device checks need the engine, so they live here, above it, and not in `validate/` (which sits below
`cluster/` and `engine/`); the verdicts themselves are `pipeline.device_verdicts`. For each `exactly` request and
`firstAvailable` subrequest of the input's ResourceClaims and ResourceClaimTemplates:

* WAS428: no device of the snapshot passes every check; the message names the check after which none remain and
  the values the devices reaching it have, closest to the expression's literal first (`productName == "NVIDIA
  H100"` against devices' `"NVIDIA H100 80GB HBM3"`);
* WAS429: an `ExactCount` request asks for more devices than any node can reach among the matching ones
  (node-local pools of the node plus network-attached pools whose slices select it).

A `firstAvailable` request is reported only when none of its subrequests can be satisfied (a fallback that never
matches is harmless while another one does). A snapshot without ResourceSlices says nothing about devices, so
nothing is reported then. Requests whose DeviceClass is unknown are WAS422's business.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from wasplan.api.releases import GateSet
from wasplan.cluster.claimrefs import CLAIM, CLASS, CLUSTER_SCOPED, TEMPLATE
from wasplan.cluster.devices import ClaimSpec, DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice
from wasplan.cluster.dra_v1beta1 import document_path
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Node, PriorityClass
from wasplan.cluster.dra_gate import is_dra_kind
from wasplan.cluster.parse_dra import parse_dra_record
from wasplan.diagnostics import Diagnostic
from wasplan.documents import Document
from wasplan.documents.reader import ReadResult, read_paths
from wasplan.validate.claim_lint import ClusterFacts

_BASES = {CLAIM: ("spec", "devices", "requests"), TEMPLATE: ("spec", "spec", "devices", "requests")}


@dataclass(slots=True)
class Snapshot:
    """What lint takes from `--cluster`: nodes (with labels, for WAS408), facts for the DRA reference checks,
    and the records the device checks match against."""

    nodes: list[dict] = field(default_factory=list)
    facts: ClusterFacts = field(default_factory=ClusterFacts)
    node_records: list[Node] = field(default_factory=list)
    classes: list[DeviceClass] = field(default_factory=list)
    slices: list[ResourceSlice] = field(default_factory=list)


def read_snapshot(cluster_paths: Sequence[str], gates: GateSet) -> tuple[Snapshot, ReadResult, list[Diagnostic]]:
    """The snapshot's records for lint, its read, and what building them found (the plan reports the same)."""
    from wasplan.cluster.snapshot import build_inputs

    read = read_paths(cluster_paths)
    inputs, found = build_inputs(read, ReadResult(), gates)
    snap = Snapshot()
    for r in inputs.existing:
        if isinstance(r, Node):
            snap.node_records.append(r)
            snap.nodes.append({"metadata": {"name": r.name, "labels": r.labels}})
        elif isinstance(r, DeviceClass):
            snap.classes.append(r)
            snap.facts.refs.add(CLASS, CLUSTER_SCOPED, r.name)
        elif isinstance(r, ResourceSlice):
            snap.slices.append(r)
        elif isinstance(r, PriorityClass):
            snap.facts.priority_classes.add(r.name)
        elif isinstance(r, (ResourceClaim, ResourceClaimTemplate)):
            kind = CLAIM if isinstance(r, ResourceClaim) else TEMPLATE
            snap.facts.refs.add(kind, r.namespace, r.name)
            snap.facts.requests[(kind, r.namespace, r.name)] = _request_names(r.spec)
    for doc in read.documents:
        if doc.api_version == "v1" and doc.kind == "Namespace":
            labels = doc.metadata.get("labels")
            snap.facts.namespaces[doc.name] = labels if isinstance(labels, dict) else {}
    return snap, read, found


def _request_names(spec: ClaimSpec) -> list[str]:
    """What a container's `resources.claims[].request` may name: a request, or `request/subrequest`."""
    return [name for q in spec.requests for name in (q.name, *(f"{q.name}/{s.name}" for s in q.first_available))]


def _claims_of(docs: list[Document]) -> tuple[list, dict[str, DeviceClass]]:
    """The input's claims and templates as records (parse findings are validate's business) and its classes."""
    records, classes = [], {}
    for doc in docs:
        if not is_dra_kind(doc.api_version, doc.kind) or doc.kind not in (CLAIM, TEMPLATE, CLASS):
            continue
        record = parse_dra_record(doc.obj, Ctx(doc, []))
        if isinstance(record, DeviceClass):
            classes[record.name] = record
        elif record is not None:
            records.append((doc, record))
    return records, classes


def lint_devices(docs: list[Document], snap: Snapshot, gates: GateSet) -> list[Diagnostic]:
    if not snap.slices:
        return []
    from wasplan.engine.dra import Allocator, Features  # the allocator, CEL and explain's checks load only for
    from wasplan.pipeline.device_verdicts import Checker  # snapshots with devices

    records, classes = _claims_of(docs)
    classes = {**{c.name: c for c in snap.classes}, **classes}
    features = Features.from_gates(gates.on, gates.release.caps)
    allocator = Allocator(snap.slices, classes.values(), features=features)
    checker = Checker(allocator, snap.node_records,
                      [((s.driver, s.pool, d.name), d) for s in allocator.index.all for d in s.devices])
    out: list[Diagnostic] = []
    for doc, record in records:
        kind = CLAIM if isinstance(record, ResourceClaim) else TEMPLATE
        claim = record if isinstance(record, ResourceClaim) else ResourceClaim(record.namespace, record.name,
                                                                               record.spec)
        for i, request in enumerate(record.spec.requests):
            base = _BASES[kind] + (i,)
            if request.exactly is not None:
                out += checker.findings(doc, claim, [(document_path(doc, base + ("exactly",)), request.exactly)])
            else:
                out += checker.findings(doc, claim, [(base + ("firstAvailable", j), s)
                                                     for j, s in enumerate(request.first_available)])
    return out
