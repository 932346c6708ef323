"""Why a pod shape finds no devices: per claim and request, the devices that survive each of the allocator's
checks, which check (or claim constraint) left none, and what values the devices really have.

Nothing here re-implements matching: devices come from the allocator's own per-node pools
(`engine/dra/pools.py` `SliceIndex.pools`), selectors run through its `SelectorCache` (the plan's CEL results,
shared), capacity through `engine/dra/capacity.fits`, taints through `taint_blocks`, constraint attributes
through `constraints.lookup_attribute`, and "in use" is the plan's `InUseLedger`. The order of the stages is
the allocator's per-device order (`structured/internal/incubating/allocator_incubating.go`, v0.36.0): class
selectors, request selectors, capacity, taints; then free or allocated.

The greedy-order check is explain/device_order.py.

`device_evidence(ctx, subj, failure, before, needed)` -> `DeviceEvidence | None` (None: the pod has no claim
to allocate and none allocated elsewhere). The values devices have are engine/dra/devicevalues.py, the staged
checks engine/dra/stages.py. The API is what explain/suggest_devices.py and the report read;
`request_items` exposes where each request comes from so suggestions can edit a copy of that template or claim.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from wasplan.cluster.devices import ALL, Device, RequestSpec, ResourceClaim
from wasplan.cluster.dra_objects import quantity_text
from wasplan.engine.facade import (DRA, ValueCount, allocation_node, devicevalues as device_values, node_matches,
                                   resources_fit, stages as device_checks)
from wasplan.explain import device_order, probe
from wasplan.explain.devices_model import (ConstraintDevices, DeviceEvidence, DomainDevices, Eliminator,
                                           RequestDevices, Stage)
from wasplan.words import plural

MAX_VALUES = device_values.MAX_VALUES
MAX_DOMAINS = 8


@dataclass(frozen=True, slots=True)
class RequestItem:
    """One request (or firstAvailable subrequest) of a claim the pod still needs allocated."""

    claim: ResourceClaim
    request: int  # index in claim.spec.requests
    sub: int | None  # index in first_available, None for `exactly`
    spec: RequestSpec
    shared: bool  # one claim for all the pods (a named claim or a PodGroup claim)
    entry: str = ""  # the pod's spec.resourceClaims[].name
    template: str | None = None  # the ResourceClaimTemplate it was generated from (namespace/name)

    @property
    def origin(self) -> str:
        return f"ResourceClaimTemplate {self.template}" if self.template else f"ResourceClaim {self.claim.key}"

    @property
    def label(self) -> str:
        name = self.claim.spec.requests[self.request].name
        return name if self.sub is None else f"{name}/{self.spec.name}"


def plugin(ctx):
    return ctx.sim.state.plugins.get(DRA)


def request_items(ctx, pod) -> list[RequestItem]:
    dra = plugin(ctx)
    if dra is None:
        return []
    refs = {f"{pod.namespace}/{r.name}": r for r in dra.refs.get(pod.key, ())}
    out = []
    for state in dra.to_allocate(pod):
        claim, ref = state.claim, refs.get(state.claim.key)
        if ref is None:
            continue  # the scheduler's own claim for DRA-backed extended resources
        how = (ref.group or ref.template is None, ref.entry.name,
               f"{pod.namespace}/{ref.template}" if ref.template else None)
        for ri, request in enumerate(claim.spec.requests):
            if request.exactly is not None:
                out.append(RequestItem(claim, ri, None, request.exactly, *how))
            for si, sub in enumerate(request.first_available):
                out.append(RequestItem(claim, ri, si, sub, *how))
    return out


def other_filters(f: probe.Failure, resources: bool = True) -> np.ndarray:
    """Nodes every enabled filter but DynamicResources accepts, each on its own; NodeResourcesFit too unless
    `resources` is false (a node shape to copy, whose free room does not matter)."""
    v = f.verdicts
    ok = np.ones(len(v.nodes), dtype=bool) if f.mask is None else f.mask.copy()
    for name, arr in v.single.items():
        if name in v.enabled and name != DRA:
            ok &= arr == 0
    if resources and resources_fit.NAME in v.enabled and v.fit_lacking.size:
        ok &= ~v.fit_lacking.any(axis=1)
    return ok


@dataclass
class _Reach:
    """Devices by node: every device of the cluster, and per eligible node the devices its usable pools offer."""

    cluster: dict[tuple, Device]
    per_node: dict[int, list[tuple[tuple, Device]]]


def _reach(allocator, nodes, rows: list[int]) -> _Reach:
    cluster = {(s.driver, s.pool, d.name): d for s in allocator.index.all for d in s.devices}
    per_node = {}
    for row in rows:
        node, found = nodes[row], []
        for pool in allocator.index.pools(node):
            if not pool.usable:
                continue
            for s in pool.slices:
                found += [((s.driver, s.pool, d.name), d) for d in s.devices
                          if not s.per_device_node_selection or node_matches(node, d.node)]
        per_node[row] = found
    return _Reach(cluster, per_node)


def _class_eliminator(checks: device_checks.Checks, spec: RequestSpec, devices: list) -> Eliminator:
    """The DeviceClass leaves no device; its first selector that reads a name none of them publishes, named."""
    if checks.cls is None:
        return Eliminator("class", f"DeviceClass {spec.device_class_name} does not exist")
    found = next(((e, m) for e in checks.cls.selectors if (m := device_values.unpublished(e, devices))), ("", ()))
    return Eliminator("class", f"no device on the nodes it may use matches DeviceClass {spec.device_class_name}",
                      unpublished=found[1], expression=found[0])


def _eliminator(checks: device_checks.Checks, stages: list[Stage], eligible: dict, survivors_free: int,
                most: tuple[int, str], spec: RequestSpec, needed: int, sub: bool) -> Eliminator | None:
    for k, stage in enumerate(stages):
        if stage.eligible:
            continue
        if k == 0:
            return _class_eliminator(checks, spec, list(eligible.items()))
        if k <= len(spec.selectors):
            expr = spec.selectors[k - 1]
            before = [(did, d) for did, d in eligible.items() if checks.passed(did, d) >= k]
            attr, lit, values = device_values.selector_values(expr, before)
            missing = () if values else device_values.unpublished(expr, before)
            return Eliminator("selector", expr, attr, lit, values, missing, expr)
        before = [(did, d) for did, d in eligible.items() if checks.passed(did, d) >= k]
        if stage.label == "tolerated taints":
            return Eliminator("taints", "every matching device has a taint the request does not tolerate", "", "",
                              device_values.taint_values(before))
        name, amount = spec.capacity[0]
        return Eliminator("capacity", f"{stage.label}: no matching device has room", name, quantity_text(amount),
                          device_values.capacity_values(before, name))
    if spec.allocation_mode == ALL:
        return None
    if survivors_free == 0 and stages and stages[-1].eligible:
        return Eliminator("allocated", f"all {plural(stages[-1].eligible, 'matching device')} {'is' if stages[-1].eligible == 1 else 'are'} allocated")
    if most[0] < spec.count:
        where = f" ({most[1]})" if most[1] else ""
        return Eliminator("count", f"count {spec.count}: at most {plural(most[0], 'free matching device')} on one "
                                   f"node{where}")
    if survivors_free < needed and not sub:  # a firstAvailable alternative's shortage another may make up
        return Eliminator("short", f"the pods still needed ask for {needed}, {survivors_free} free on the nodes "
                                   "they may use")
    return None


def _most(free_by_row: dict[int, list], nodes) -> tuple[int, str]:
    """The most free devices one node offers, and the first such node by name."""
    most = (0, "")
    for row in sorted(free_by_row, key=lambda r: nodes[r].name):
        if len(free_by_row[row]) > most[0]:
            most = (len(free_by_row[row]), nodes[row].name)
    return most


@dataclass
class _Measured:
    """A request measured on the eligible nodes: the record, and the free surviving devices per node row."""

    record: RequestDevices
    free_by_row: dict[int, list[tuple]]


def _measure(allocator, reach: _Reach, nodes, item: RequestItem, pods: int) -> _Measured:
    checks = device_checks.Checks(allocator, item)
    full = len(checks.labels)
    eligible = {did: d for found in reach.per_node.values() for did, d in found}
    in_cluster = Counter(checks.passed(did, d) for did, d in reach.cluster.items())
    on_eligible = Counter(checks.passed(did, d) for did, d in eligible.items())
    stages = [Stage(label, sum(n for depth, n in in_cluster.items() if depth > k),
                    sum(n for depth, n in on_eligible.items() if depth > k)) for k, label in enumerate(checks.labels)]
    ledger = allocator.ledger
    survivors = [did for did, d in eligible.items() if checks.passed(did, d) == full]
    allocated = sum(1 for did in survivors if ledger.in_use(did))
    free_by_row = {row: [did for did, d in found if checks.passed(did, d) == full and not ledger.in_use(did)]
                   for row, found in reach.per_node.items()}
    most = _most(free_by_row, nodes)
    spec = item.spec
    count = spec.count if spec.allocation_mode != ALL else 0
    needed = count * (1 if item.shared else pods)
    elim = _eliminator(checks, stages, eligible, len(survivors) - allocated, most, spec, needed,
                       item.sub is not None)
    if checks.errors and (elim is None or (elim.kind == "selector" and not elim.values)):
        kept = elim if elim is not None and elim.kind == "selector" else Eliminator("selector", "")
        # a CEL error: the plan's attempt stopped there too
        elim = Eliminator("selector", checks.errors[0], unpublished=kept.unpublished, expression=kept.expression)
    record = RequestDevices(item.claim.key, item.entry, item.origin, item.label, spec.device_class_name, count,
                            needed, tuple(stages), allocated,
                            len(survivors) - allocated, most[0], most[1] if most[0] else "", elim)
    return _Measured(record, free_by_row)


def _constraint(claim: ResourceClaim, index: int, measured: list[_Measured], items: list[RequestItem],
                reach: _Reach, nodes) -> ConstraintDevices | None:
    """The constraint when no eligible node's free matching devices can satisfy it together, while some node
    has enough of them otherwise (so the constraint, not the count, is what stops the claim)."""
    c = claim.spec.constraints[index]
    covered = [m for m, it in zip(measured, items) if it.claim is claim and it.sub is None
               and (not c.requests or claim.spec.requests[it.request].name in c.requests)]
    if not covered:
        return None
    needed = sum(m.record.count for m in covered)
    attribute = c.match_attribute or c.distinct_attribute or ""
    best, enough = (-1, "", Counter()), False
    for row in sorted(reach.per_node, key=lambda r: nodes[r].name):
        dids = list(dict.fromkeys(did for m in covered for did in m.free_by_row.get(row, ())))
        values = device_values.attribute_values([(did, reach.cluster[did]) for did in dids], attribute)
        enough |= len(dids) >= needed
        score = max(values.values(), default=0) if c.match_attribute else len(values)
        if score > best[0]:
            best = (score, nodes[row].name, values)
    if not enough or best[0] >= needed:
        return None
    kind = "matchAttribute" if c.match_attribute else "distinctAttribute"
    values = sorted(best[2].items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_VALUES]
    return ConstraintDevices(claim.key, index, kind, attribute, needed, best[0], best[1],
                             tuple(ValueCount(v, n) for v, n in values))


def _domains(subj, measured: list[_Measured], nodes) -> tuple[DomainDevices, ...]:
    """For a PodGroup with a topology constraint: per candidate domain, each request's devices needed by the
    group against the free matching ones in the domain."""
    topo = subj.topology
    if subj.group is None or topo is None or not topo.domains:
        return ()
    out = []
    for d in topo.domains[:MAX_DOMAINS]:
        for m in measured:
            free = {did for row, dids in m.free_by_row.items() if nodes[row].labels.get(topo.key) == d.domain
                    for did in dids}
            out.append(DomainDevices(d.domain, m.record.request, m.record.needed, len(free)))
    return tuple(out)


def _pinned(dra, pod) -> tuple[str, ...]:
    """The pod's claims allocated before it is placed, which only some nodes can use (their devices are
    node-local or behind a node selector): Filter's "resourceclaim not available on the node"."""
    entries = {f"{pod.namespace}/{r.name}": r.entry.name for r in dra.refs.get(pod.key, ())}
    out = []
    for state in dra.claims_of(pod):
        allocation = state.claim.allocation
        if allocation is None or allocation.node_selector is None:
            continue
        where = allocation_node(allocation)
        devices = ", ".join("/".join(r.device_id) for r in allocation.results)
        out.append(f"claim {entries.get(state.claim.key, state.claim.name)} is already allocated ({devices}): the "
                   f"pod can only go to {where or 'the nodes its allocation selects'}")
    return tuple(out)


def _takes_all(measured: list[_Measured], items: list[RequestItem], nodes) -> tuple[str, ...]:
    """A request with `allocationMode: All` is given every matching device of the node it is allocated on
    (structured allocator, allocator.go: all devices of the request's pool selection, or nothing), so another
    request of the same pod that needs some of those devices finds none left there. Named when, on every
    eligible node where the other request has free devices, all of them are the All request's too."""
    out = []
    for whole, w in zip(measured, items):
        if w.spec.allocation_mode != ALL:
            continue
        for other, o in zip(measured, items):
            if o.spec.allocation_mode == ALL or other.record.count <= 0:
                continue
            rows = [r for r, dids in other.free_by_row.items() if dids]
            if not rows or any(not set(other.free_by_row[r]) <= set(whole.free_by_row.get(r, ())) for r in rows):
                continue
            most = min(rows, key=lambda r: (-len(whole.free_by_row[r]), nodes[r].name))
            out.append(f"claim {w.entry or w.claim.name} ({w.origin}), request {whole.record.request}, has "
                       f"allocationMode: All: it takes every matching device of the node it is allocated on "
                       f"({len(whole.free_by_row[most])} on {nodes[most].name}), including every one that claim "
                       f"{o.entry or o.claim.name}, request {other.record.request}, needs, so none is left for it "
                       "on that node")
    return tuple(dict.fromkeys(out))


def device_evidence(ctx, subj, f: probe.Failure, before: probe.Failure, needed: int) -> DeviceEvidence | None:
    """The devices story of one failing pod shape (`f`), measured on the cluster the plan leaves (`before`, the
    recorder's verdicts now); `needed` pods of the shape are still to place."""
    dra = plugin(ctx)
    items = request_items(ctx, f.pod)
    pinned = _pinned(dra, f.pod) if dra is not None else ()
    if dra is None or not (items or pinned):
        return None
    allocator, nodes = dra.store.allocator, ctx.sim.state.nodes
    rows = np.flatnonzero(other_filters(before)).tolist()
    reach = _reach(allocator, nodes, rows)
    measured = [_measure(allocator, reach, nodes, it, needed) for it in items]
    constraints = [c for claim in device_order.unique(it.claim for it in items)
                   for i in range(len(claim.spec.constraints))
                   if (c := _constraint(claim, i, measured, items, reach, nodes)) is not None]
    notes = pinned + (() if rows else ("no node passes the pod's other filters, so no device is reachable",))
    notes += _takes_all(measured, items, nodes)
    if subj.mask is not None and subj.group is not None:  # the domains: every node, not only the best domain's
        everywhere = np.flatnonzero(other_filters(probe.now(ctx.evaluator(f.pod), f.pod))).tolist()
        whole = _reach(allocator, nodes, everywhere)
        domains = _domains(subj, [_measure(allocator, whole, nodes, it, needed) for it in items], nodes)
    else:
        domains = _domains(subj, measured, nodes)
    return DeviceEvidence(tuple(f.pods), len(rows), tuple(m.record for m in measured), tuple(constraints),
                          domains, device_order.order(ctx, subj, before, rows, needed), notes)
