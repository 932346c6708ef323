"""Lint's verdicts on one device request against a snapshot's devices (WAS428, WAS429), for `lint_devices`.

Devices are judged by the same staged analysis `wasplan explain` shows (`engine.dra.stages.Checks`: the
allocator's per-device checks in its order - class selectors, each request selector, capacity requests,
untolerated taints - through the plan's `SelectorCache`, `capacity.fits` and `taint_blocks`; and
`engine.dra.devicevalues` for the values devices have, closest to the expression's literal first), so lint and
explain never disagree and no second matcher exists. Reach per node is the allocator's own gathering of a node's
usable pools (`engine/dra/pools.py` `SliceIndex.pools`, per-device node selection included).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wasplan.cluster.devices import EXACT_COUNT, Device, RequestSpec, ResourceClaim
from wasplan.cluster.model import Node
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.engine.dra import Allocator
from wasplan.engine.dra import devicevalues as device_values
from wasplan.engine.dra.pools import node_matches
from wasplan.engine.dra.stages import Checks
from wasplan.validate.rules.common import make
from wasplan.validate.walk import mapping, value_at
from wasplan.words import plural


@dataclass(frozen=True, slots=True)
class _Item:
    """What `engine.dra.stages.Checks` reads of a request: its spec and its claim (for CEL error owners)."""

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
    errors: tuple[str, ...]  # CEL errors met on the way, without the claim's name (the analysis is shared)
    reach: tuple[int, ...]  # matching devices each node reaches


@dataclass(slots=True)
class Checker:
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
                                              tuple(map(_shared, checks.errors)), tuple(self._reach(matched)))
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


def _shared(error: str) -> str:
    """An allocator error without the claim it was met on (`claim ns/name: selector #0: ...` reads `request
    selector #0: ...`): the analysis serves every claim with the same request."""
    return "request " + error.split(": ", 1)[1] if error.startswith("claim ") and ": " in error else error


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
    """The values the devices have for the attribute the selector reads; when they publish none of the names it
    reads, that, with the closest name they do publish."""
    attribute, _, values = device_values.selector_values(expression, devices)
    if values:
        return f"the devices' {attribute}: {_listed(values)}"
    return "; ".join(m.text() for m in device_values.unpublished(expression, devices))


def _listed(values) -> str:
    return ", ".join(f'"{v.value}" ({plural(v.devices, "device")})' for v in values)


def _no_device(doc: Document, path: FieldPath, spec: RequestSpec, a: Analysis) -> Diagnostic:
    if a.stop is None:  # the snapshot's slices hold no device at all
        return make(doc, "WAS428", f'request "{spec.name}" can match no device: the cluster snapshot has none',
                    path + ("deviceClassName",))
    what, at, seen = _stage(spec, a, path)
    message = (f'request "{spec.name}" matches no device in the cluster snapshot: {what} leaves none of the '
               f"{plural(len(a.reached), 'device')} that {'reaches' if len(a.reached) == 1 else 'reach'} it" + (f"; {seen}" if seen else ""))
    hint = ("write the name the devices publish, named above; " if "did you mean" in seen else "") + \
        f"the allocator stops on a CEL error: {a.errors[0]}" if a.errors else \
        "use a value the devices have (closest first above)" if seen else None
    return make(doc, "WAS428", message, at, hint)


def _too_many(doc: Document, path: FieldPath, spec: RequestSpec, a: Analysis, nodes: list[Node]) -> Diagnostic:
    best = max(a.reach)
    at = path + ("count",) if "count" in mapping(value_at(doc.obj, path)) else path
    if best == 0:
        return make(doc, "WAS429", f'request "{spec.name}" asks for {plural(spec.count, "device")}, but none of the '
                    f"{plural(len(nodes), 'node')} reaches any of the {plural(a.matched, 'matching device')} (their slices "
                    "name or select other nodes); the claim can never be allocated", at,
                    "add the nodes the slices name to the snapshot, or check the slices' node selection")
    where = nodes[a.reach.index(best)].name
    return make(doc, "WAS429", f'request "{spec.name}" asks for {plural(spec.count, "device")}, but no node reaches more than '
                f"{best} of the {plural(a.matched, 'matching device')} (e.g. node {where}); the claim can never be "
                "allocated", at, f"lower count to {best}, or split the request across pods")
