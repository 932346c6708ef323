"""The part of `wasplan lint --cluster` that needs the snapshot's devices (WAS428, WAS429), and what lint reads
from the snapshot at all (node labels, DRA objects, namespaces).

The checks ask the engine's own matcher (`engine.dra.matchreport`, the allocator's CEL selection), so they live
above the engine, here, and not in `validate/` (which sits below `cluster/` and `engine/`). For each `exactly`
request and `firstAvailable` subrequest of the input's ResourceClaims and ResourceClaimTemplates:

* WAS428: the class's and the request's selectors together match no device of the snapshot; the message names the
  selector after which none remain and the values the devices reaching it have, closest to the expression's
  literals first (`productName == "NVIDIA H100"` against devices' `"NVIDIA H100 80GB HBM3"`);
* WAS429: an `ExactCount` request asks for more devices than any node can reach among the matching ones
  (node-local pools of the node plus network-attached pools whose slices select it).

A `firstAvailable` request is reported only when none of its subrequests can be satisfied (a fallback that never
matches is harmless while another one does). A snapshot without ResourceSlices says nothing about devices, so
nothing is reported then. Requests whose DeviceClass is unknown are WAS422's business.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from wasplan.api.releases import GateSet, capabilities
from wasplan.cluster.devices import EXACT_COUNT, DeviceClass, RequestSpec, ResourceClaim, ResourceClaimTemplate, \
    ResourceSlice
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Node
from wasplan.cluster.parse_dra import is_dra_kind, parse_dra_record
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.documents.reader import ReadResult, read_paths
from wasplan.engine.dra import Allocator, Features, SelectorCache
from wasplan.engine.dra.matchreport import DeviceRef, MatchReport, Stage, cluster_devices, match_request, per_node
from wasplan.validate.claim_lint import ClusterFacts
from wasplan.validate.claimrefs import CLAIM, CLASS, CLUSTER_SCOPED, TEMPLATE
from wasplan.validate.rules.common import make
from wasplan.validate.walk import mapping, value_at

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


def read_snapshot(cluster_paths: Sequence[str], gates: GateSet) -> tuple[Snapshot, ReadResult]:
    from wasplan.cluster.snapshot import build_inputs

    read = read_paths(cluster_paths)
    inputs, _ = build_inputs(read, ReadResult(), gates)
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
        elif isinstance(r, (ResourceClaim, ResourceClaimTemplate)):
            snap.facts.refs.add(CLAIM if isinstance(r, ResourceClaim) else TEMPLATE, r.namespace, r.name)
    for doc in read.documents:
        if doc.api_version == "v1" and doc.kind == "Namespace":
            labels = doc.metadata.get("labels")
            snap.facts.namespaces[doc.name] = labels if isinstance(labels, dict) else {}
    return snap, read


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
    records, classes = _claims_of(docs)
    classes = {**{c.name: c for c in snap.classes}, **classes}
    features = Features.from_gates(gates.enabled, capabilities(gates.release.version).dra_allocator_137)
    checker = _Checker(cluster_devices(snap.slices), Allocator(snap.slices, classes.values(), features=features),
                       SelectorCache(features.consumable_capacity, features.cel_error_on_device), snap.node_records,
                       classes)
    out: list[Diagnostic] = []
    for doc, record in records:
        kind = CLAIM if isinstance(record, ResourceClaim) else TEMPLATE
        for i, request in enumerate(record.spec.requests):
            base = _BASES[kind] + (i,)
            if request.exactly is not None:
                out += checker.findings(doc, [(base + ("exactly",), request.exactly)])
            else:
                out += checker.findings(doc, [(base + ("firstAvailable", j), s)
                                              for j, s in enumerate(request.first_available)])
    return out


@dataclass(slots=True)
class _Checker:
    """Verdicts per request, cached per (class, selectors): templates stamped out per run share one analysis."""

    devices: list[DeviceRef]
    allocator: Allocator
    cel: SelectorCache
    nodes: list[Node]
    classes: dict[str, DeviceClass]
    _cache: dict[tuple, tuple[MatchReport, list[int]]] = field(default_factory=dict)

    def findings(self, doc: Document, specs: list[tuple[FieldPath, RequestSpec]]) -> list[Diagnostic]:
        """Findings for one request (its `exactly`, or all its subrequests): none if any of them can be met."""
        out = []
        for path, spec in specs:
            if spec.device_class_name not in self.classes:
                return []
            found = self._verdict(doc, path, spec)
            if found is None:
                return []
            out.append(found)
        return out

    def _verdict(self, doc: Document, path: FieldPath, spec: RequestSpec) -> Diagnostic | None:
        key = (spec.device_class_name, spec.selectors)
        hit = self._cache.get(key)
        if hit is None:
            report = match_request(spec, self.classes[spec.device_class_name], self.devices, self.cel)
            reach = per_node(report.matched, self.allocator, self.nodes) if report.matched else []
            hit = self._cache[key] = (report, reach)
        report, reach = hit
        if not report.matched:
            return _no_device(doc, path, spec, report)
        if self.nodes and spec.allocation_mode == EXACT_COUNT and spec.count > max(reach):
            return _too_many(doc, path, spec, report, reach, self.nodes)
        return None


def _stage_path(path: FieldPath, stage: Stage) -> FieldPath:
    return path + ("selectors", stage.index, "cel", "expression") if stage.source == "request" else \
        path + ("deviceClassName",)


def _no_device(doc: Document, path: FieldPath, spec: RequestSpec, report: MatchReport) -> Diagnostic:
    stage = report.eliminating
    if stage is None:  # the cluster has no device at all
        return make(doc, "WAS428", f'request "{spec.name}" can match no device: the cluster snapshot has none',
                    path + ("deviceClassName",))
    owner = f'DeviceClass "{spec.device_class_name}"' if stage.source == "class" else "the request"
    seen = "; ".join(f"{f.field} there: " + ", ".join(f"{v} ({n} device(s))" for v, n in f.values)
                     for f in report.values)
    message = (f'request "{spec.name}" matches no device in the cluster snapshot: selector #{stage.index} of {owner} '
               f"`{stage.expression}` rejects all {stage.reached} device(s) that reach it"
               + (f"; {seen}" if seen else ""))
    hint = f"CEL runtime error on {stage.errors} device(s): {stage.error}" if stage.error else \
        "use a value the devices have (closest first above)" if seen else None
    return make(doc, "WAS428", message, _stage_path(path, stage), hint)


def _too_many(doc: Document, path: FieldPath, spec: RequestSpec, report: MatchReport, reach: list[int],
              nodes: list[Node]) -> Diagnostic:
    best = max(reach)
    at = path + ("count",) if "count" in mapping(value_at(doc.obj, path)) else path
    if best == 0:
        return make(doc, "WAS429", f'request "{spec.name}" asks for {spec.count} device(s), but none of the '
                    f"{len(nodes)} nodes reaches any of the {len(report.matched)} matching device(s) (their slices "
                    "name or select other nodes); the claim can never be allocated", at,
                    "add the nodes the slices name to the snapshot, or check the slices' node selection")
    where = nodes[reach.index(best)].name
    return make(doc, "WAS429", f'request "{spec.name}" asks for {spec.count} devices, but no node reaches more than '
                f"{best} of the {len(report.matched)} matching device(s) (e.g. node {where}); the claim can never be "
                "allocated", at, f"lower count to {best}, or split the request across pods")

