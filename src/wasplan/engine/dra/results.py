"""From the search's picks to `Allocation` records (the result part of upstream's `Allocate` and `createNodeSelector`,
`structured/internal/incubating/allocator_incubating.go` v0.36.0).

Config: the class configs of each allocated (sub)request's class (once per class, later requests of the same class
appended to its `requests`), then the claim's configs that apply (no requests named, or naming the request, or the
chosen `req/sub`): 1.36 adds a config once per request it names, 1.37 (`claim_config_once`) once, and clears the
request list of any config that names every request of the claim. Node selector: any node-local device (`nodeName`,
per-device `nodeName`, or `bindsToNode`) pins the claim to this node by `metadata.name`; otherwise the single terms
of the network-attached slices' (or devices') selectors are ANDed; only `allNodes` devices leave it unset (every
node).
"""

from __future__ import annotations

from wasplan.cluster.devices import (
    Allocation, AllocationConfig, DeviceResult, ResourceClaim,
)
from wasplan.cluster.model import NodeSelectorTerm, Requirement
from wasplan.engine.dra.errors import AllocationError
from wasplan.engine.dra.records import Picked


def _result(p: Picked, binding: bool) -> DeviceResult:
    driver, pool, device = p.cand.id
    return DeviceResult(
        request=f"{p.parent}/{p.request}" if p.parent else p.request, driver=driver, pool=pool, device=device,
        admin_access=True if p.spec.admin_access else None, tolerations=p.spec.tolerations,
        binding_conditions=p.cand.device.binding_conditions if binding else (),
        binding_failure_conditions=p.cand.device.binding_failure_conditions if binding else (),
        share_id=p.share_id, consumed_capacity=tuple(sorted((p.consumed or {}).items())) if p.consumed else ())


def _configs(search, ci: int, claim: ResourceClaim) -> tuple[AllocationConfig, ...]:
    out: list[AllocationConfig] = []
    by_class: dict[str, list[int]] = {}
    for ri, request in enumerate(claim.spec.requests):
        si = search.selected_sub.get((ci, ri), 0)
        rd = search.reqs[(ci, ri, si)]
        if rd.cls.name in by_class:
            for i in by_class[rd.cls.name]:
                out[i] = AllocationConfig(out[i].source, out[i].requests + (rd.full_name,), out[i].opaque)
            continue
        by_class[rd.cls.name] = list(range(len(out), len(out) + len(rd.cls.config)))
        out.extend(AllocationConfig("FromClass", (rd.full_name,), c) for c in rd.cls.config)
    names = _request_names(search, ci, claim)
    for config in claim.spec.config:
        for_claim = AllocationConfig("FromClaim", config.requests, config.opaque)
        if not config.requests:
            out.append(for_claim)
            continue
        hits = sum(1 for pair in names if _named(config.requests, pair))
        out.extend([for_claim] * (min(hits, 1) if search.features.claim_config_once else hits))
    if search.features.claim_config_once:  # 1.37: a config naming every request applies to the whole claim
        out = [AllocationConfig(c.source, (), c.opaque) if c.requests and all(_named(c.requests, p) for p in names)
               else c for c in out]
    return tuple(out)


def _request_names(search, ci: int, claim: ResourceClaim) -> list[tuple[str, str | None]]:
    """Per request, its name and, for firstAvailable, the chosen `req/sub`: a config applies if it names either."""
    out: list[tuple[str, str | None]] = []
    for ri, request in enumerate(claim.spec.requests):
        sub = None
        if request.first_available:
            sub = f"{request.name}/{request.first_available[search.selected_sub.get((ci, ri), 0)].name}"
        out.append((request.name, sub))
    return out


def _named(requests: tuple[str, ...], pair: tuple[str, str | None]) -> bool:
    return pair[0] in requests or (pair[1] is not None and pair[1] in requests)


def node_selector(picks: list[Picked], node_name: str) -> tuple[NodeSelectorTerm, ...] | None:
    fields: list[Requirement] = []
    expressions: list[Requirement] = []
    for p in picks:
        selection = p.cand.device.node if p.cand.slice.per_device_node_selection else p.cand.slice.node
        if selection.node_name is not None or p.cand.device.binds_to_node:
            return (NodeSelectorTerm(match_fields=(Requirement("metadata.name", "In", (node_name,)),)),)
        terms = selection.node_selector
        if terms is None or not terms:
            continue
        if len(terms) > 1:
            raise AllocationError(f"unsupported ResourceSlice.NodeSelector with {len(terms)} terms")
        _merge(terms[0].match_fields, fields)
        _merge(terms[0].match_expressions, expressions)
    if fields or expressions:
        return (NodeSelectorTerm(tuple(expressions), tuple(fields)),)
    return None


def _merge(source: tuple[Requirement, ...], into: list[Requirement]) -> None:
    for req in source:
        if not any(r.key == req.key and r.operator == req.operator and set(r.values) == set(req.values) for r in into):
            into.append(req)


def build_allocations(search) -> list[Allocation]:
    binding = search.features.binding_conditions
    out = []
    for ci, claim in enumerate(search.claims):
        picks = search.results[ci]
        try:
            selector = node_selector(picks, search.node.name)
        except AllocationError as exc:
            raise AllocationError(f"create NodeSelector for claim {claim.name}: {exc}") from None
        out.append(Allocation(tuple(_result(p, binding) for p in picks), _configs(search, ci, claim), selector))
    return out
