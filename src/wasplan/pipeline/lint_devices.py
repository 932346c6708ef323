"""The part of `wasplan lint --cluster` that needs the snapshot's devices (WAS428, WAS429), and what lint reads
from the snapshot at all (node labels, DRA objects, namespaces).

Devices are judged by the same staged analysis `wasplan explain` shows (`explain.device_checks.Checks`: the
allocator's per-device checks in its order - class selectors, each request selector, capacity requests,
untolerated taints - through the plan's `SelectorCache`, `capacity.fits` and `taint_blocks`; and
`explain.device_values` for the values devices have), so lint and explain never disagree and no second matcher
exists. They need the engine, so they live here, above it, and not in `validate/` (which sits below `cluster/` and
`engine/`). For each `exactly` request and `firstAvailable` subrequest of the input's ResourceClaims and
ResourceClaimTemplates:

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

from wasplan.api.releases import GateSet, capabilities
from wasplan.cluster.devices import EXACT_COUNT, Device, DeviceClass, RequestSpec, ResourceClaim, \
    ResourceClaimTemplate, ResourceSlice
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Node
from wasplan.cluster.parse_dra import is_dra_kind, parse_dra_record
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.documents.reader import ReadResult, read_paths
from wasplan.engine.dra import Allocator, Features
from wasplan.engine.dra.pools import node_matches
from wasplan.explain import device_values
from wasplan.explain.device_checks import Checks
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
    allocator = Allocator(snap.slices, classes.values(), features=features)
    checker = _Checker(allocator, snap.node_records,
                       [((s.driver, s.pool, d.name), d) for s in allocator.index.all for d in s.devices])
    out: list[Diagnostic] = []
    for doc, record in records:
        kind = CLAIM if isinstance(record, ResourceClaim) else TEMPLATE
        claim = record if isinstance(record, ResourceClaim) else ResourceClaim(record.namespace, record.name,
                                                                               record.spec)
        for i, request in enumerate(record.spec.requests):
            base = _BASES[kind] + (i,)
            if request.exactly is not None:
                out += checker.findings(doc, claim, [(base + ("exactly",), request.exactly)])
            else:
                out += checker.findings(doc, claim, [(base + ("firstAvailable", j), s)
                                                     for j, s in enumerate(request.first_available)])
    return out


@dataclass(frozen=True, slots=True)
class _Item:
    """What `explain.device_checks.Checks` reads of a request: its spec and its claim (for CEL error owners)."""

    claim: ResourceClaim
    spec: RequestSpec


@dataclass(frozen=True, slots=True)
class Analysis:
    """One request against every device of the snapshot, through explain's staged checks."""

    labels: tuple[str, ...]  # the checks in the allocator's order (`Checks.labels`)
    class_selectors: tuple[str, ...]
    matched: int  # devices passing every check
    stop: int | None  # index of the check that no device passes (None: some device matches)
    reached: tuple[tuple[tuple, Device], ...]  # the devices that got as far as `stop`
    errors: tuple[str, ...]  # CEL runtime errors met on the way
    reach: tuple[int, ...]  # matching devices each node reaches


@dataclass(slots=True)
class _Checker:
    """Verdicts per request, cached per (class, selectors, capacity, tolerations): the templates of many runs
    that ask for the same devices share one analysis."""

    allocator: Allocator
    nodes: list[Node]
    devices: list[tuple[tuple, Device]]  # every device of the snapshot, by id
    _cache: dict[tuple, Analysis] = field(default_factory=dict)

    def findings(self, doc: Document, claim: ResourceClaim,
                 specs: list[tuple[FieldPath, RequestSpec]]) -> list[Diagnostic]:
        """Findings for one request (its `exactly`, or all its subrequests): none if any of them can be met."""
        out = []
        for path, spec in specs:
            if spec.device_class_name not in self.allocator.classes:
                return []  # WAS422's business
            found = self._verdict(doc, path, spec, self._analysis(claim, spec))
            if found is None:
                return []
            out.append(found)
        return out

    def _analysis(self, claim: ResourceClaim, spec: RequestSpec) -> Analysis:
        key = (spec.device_class_name, spec.selectors, spec.capacity, spec.tolerations)
        hit = self._cache.get(key)
        if hit is None:
            checks = Checks(self.allocator, _Item(claim, spec))
            depth = [(did, device, checks.passed(did, device)) for did, device in self.devices]
            full = len(checks.labels)
            matched = {did for did, _, k in depth if k == full}
            stop = None if matched or not depth else max(k for _, _, k in depth)
            reached = tuple((did, d) for did, d, k in depth if k == stop)
            hit = self._cache[key] = Analysis(tuple(checks.labels), checks.cls.selectors, len(matched), stop, reached,
                                              tuple(checks.errors), tuple(self._reach(matched)))
        return hit

    def _reach(self, matched: set) -> list[int]:
        """Per node, the matching devices its usable pools offer (node-local, and network-attached ones whose
        slices select it), as the allocator gathers them (`SliceIndex.pools`)."""
        out = []
        for node in self.nodes:
            out.append(sum(1 for pool in self.allocator.index.pools(node) if pool.usable for s in pool.slices
                           for d in s.devices if (s.driver, s.pool, d.name) in matched
                           and (not s.per_device_node_selection or node_matches(node, d.node))))
        return out

    def _verdict(self, doc: Document, path: FieldPath, spec: RequestSpec, a: Analysis) -> Diagnostic | None:
        if a.stop is not None or not a.matched:
            return _no_device(doc, path, spec, a)
        if self.nodes and spec.allocation_mode == EXACT_COUNT and spec.count > max(a.reach):
            return _too_many(doc, path, spec, a, self.nodes)
        return None


def _stage(spec: RequestSpec, a: Analysis, path: FieldPath) -> tuple[str, FieldPath, str]:
    """(what stopped the devices, the field to point at, the values the devices have there)."""
    label, k = a.labels[a.stop or 0], a.stop or 0
    devices = list(a.reached)
    if k == 0:
        cls = f'DeviceClass "{spec.device_class_name}"'
        shown = [_selector_text(e, devices) for e in a.class_selectors]
        return cls, path + ("deviceClassName",), "; ".join(t for t in shown if t)
    if k <= len(spec.selectors):
        expression = spec.selectors[k - 1]
        return (f"selector #{k - 1} of the request `{expression}`", path + ("selectors", k - 1, "cel", "expression"),
                _selector_text(expression, devices))
    if label.startswith("capacity"):
        shown = [f"the devices' {name}: " + _listed(device_values.capacity_values(devices, name))
                 for name, _ in spec.capacity or ()]
        return f"the {label} requested", path + ("capacity",), "; ".join(shown)
    return ("the taint check (taints the request does not tolerate)", path,
            "their taints: " + _listed(device_values.taint_values(devices)))


def _selector_text(expression: str, devices: list) -> str:
    attribute, _, values = device_values.selector_values(expression, devices)
    return f"the devices' {attribute}: {_listed(values)}" if values else ""


def _listed(values) -> str:
    return ", ".join(f'"{v.value}" ({v.devices} device(s))' for v in values)


def _no_device(doc: Document, path: FieldPath, spec: RequestSpec, a: Analysis) -> Diagnostic:
    if a.stop is None:  # the snapshot's slices hold no device at all
        return make(doc, "WAS428", f'request "{spec.name}" can match no device: the cluster snapshot has none',
                    path + ("deviceClassName",))
    what, at, seen = _stage(spec, a, path)
    message = (f'request "{spec.name}" matches no device in the cluster snapshot: {what} leaves none of the '
               f"{len(a.reached)} device(s) that reach it" + (f"; {seen}" if seen else ""))
    hint = f"CEL runtime error: {a.errors[0]}" if a.errors else \
        "use a value the devices have (closest first above)" if seen else None
    return make(doc, "WAS428", message, at, hint)


def _too_many(doc: Document, path: FieldPath, spec: RequestSpec, a: Analysis, nodes: list[Node]) -> Diagnostic:
    best = max(a.reach)
    at = path + ("count",) if "count" in mapping(value_at(doc.obj, path)) else path
    if best == 0:
        return make(doc, "WAS429", f'request "{spec.name}" asks for {spec.count} device(s), but none of the '
                    f"{len(nodes)} nodes reaches any of the {a.matched} matching device(s) (their slices "
                    "name or select other nodes); the claim can never be allocated", at,
                    "add the nodes the slices name to the snapshot, or check the slices' node selection")
    where = nodes[a.reach.index(best)].name
    return make(doc, "WAS429", f'request "{spec.name}" asks for {spec.count} devices, but no node reaches more than '
                f"{best} of the {a.matched} matching device(s) (e.g. node {where}); the claim can never be "
                "allocated", at, f"lower count to {best}, or split the request across pods")
