"""ResourceClaim and ResourceClaimTemplate specs, and a claim's `status` (allocation, reservedFor).

Defaults are the API server's (`k8s.io/api` `resource/v1/types.go`, v0.36.0, and `pkg/apis/resource/v1/defaults.go`):
`allocationMode` ExactCount, `count` 1 for ExactCount, toleration operator Equal. A request must name exactly one
of `exactly` / `firstAvailable` and each (sub)request a device class; a constraint exactly one of
`matchAttribute` / `distinctAttribute` and only requests the claim has (`req` or `req/sub`). A claim with such a
mistake is kept (a pod referring to it must still see it) but has the bad request or constraint dropped after a
finding, so the engine never allocates a half-understood request silently: a finding is always there to say why.
"""

from __future__ import annotations

from typing import Any

from wasplan.api import dra_rules
from wasplan.cluster import dra_fields as f
from wasplan.cluster.devices import (
    EXACT_COUNT, FIRST_AVAILABLE_MAX, Allocation, AllocationConfig, ClaimConfig, ClaimSpec,
    Constraint, Consumer, DeviceRequest, DeviceResult, RequestSpec,
)
from wasplan.cluster.issues import Ctx
from wasplan.cluster.selectors import node_selector


def _capacity_requests(raw: Any, ctx: Ctx) -> tuple | None:
    if raw is None:
        return None
    requests = f.as_map(f.as_map(raw, ctx, "capacity").get("requests"), ctx.at("requests"), "capacity.requests")
    out = []
    for name, value in requests.items():
        amount = f.quantity(value, ctx.at("requests", name), f"capacity request {name}")
        if amount is not None:
            out.append((str(name), amount))
    return tuple(out)


def _spec(raw: Any, ctx: Ctx, name: str, sub: bool) -> RequestSpec | None:
    raw = f.as_map(raw, ctx, "a request")
    cls = raw.get("deviceClassName")
    if not isinstance(cls, str) or not cls:
        ctx.report("WAS644", f"request {name!r} names no deviceClassName", ("deviceClassName",))
        return None
    problems = dra_rules.allocation(raw, name)
    for problem in problems:
        ctx.report("WAS644", problem.message, problem.path)
    if any(p.path == ("allocationMode",) for p in problems):
        return None
    mode = raw.get("allocationMode") or EXACT_COUNT
    # an ExactCount count of 0 is "not specified": the API server defaults it to 1
    count = 0 if mode != EXACT_COUNT else 1 if problems else f.integer(raw.get("count"), ctx.at("count"), "count", 1) or 1
    return RequestSpec(
        name=name, device_class_name=cls, selectors=f.selectors(raw.get("selectors"), ctx.at("selectors")),
        allocation_mode=mode, count=count,
        admin_access=None if sub else f.flag(raw.get("adminAccess"), ctx.at("adminAccess"), "adminAccess"),
        tolerations=f.tolerations(raw.get("tolerations"), ctx.at("tolerations")),
        capacity=_capacity_requests(raw.get("capacity"), ctx.at("capacity")),
    )


def _subrequests(raw: list, ctx: Ctx, name: str) -> tuple[RequestSpec, ...] | None:
    over = dra_rules.too_many(raw, FIRST_AVAILABLE_MAX, "firstAvailable subrequests")
    if over is not None:
        ctx.report("WAS644", f"request {name!r}: {over.message}")
    out = []
    for i, item in enumerate(raw):
        sub = item.get("name") if isinstance(item, dict) else None
        if not isinstance(sub, str) or not sub:
            ctx.at(i).report("WAS644", f"firstAvailable[{i}] of request {name!r} has no name", ("name",))
            return None
        spec = _spec(item, ctx.at(i), sub, sub=True)
        if spec is None:
            return None
        out.append(spec)
    return tuple(out)


def _request(raw: Any, ctx: Ctx) -> DeviceRequest | None:
    raw = f.as_map(raw, ctx, "a request")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        ctx.report("WAS644", "a device request has no name", ("name",))
        return None
    union = dra_rules.request_union(raw, name)
    if union is not None:
        ctx.report("WAS644", union.message, union.path)
        return None
    exactly, first = raw.get("exactly"), raw.get("firstAvailable")
    if exactly is not None:
        spec = _spec(exactly, ctx.at("exactly"), name, sub=False)
        return None if spec is None else DeviceRequest(name, exactly=spec)
    subs = _subrequests(f.as_items(first, ctx.at("firstAvailable"), "firstAvailable"), ctx.at("firstAvailable"), name)
    return None if subs is None else DeviceRequest(name, first_available=subs)


def _request_names(requests: tuple[DeviceRequest, ...]) -> set[str]:
    names = {r.name for r in requests}
    names.update(f"{r.name}/{s.name}" for r in requests for s in r.first_available)
    return names


def _constraint(raw: Any, ctx: Ctx, known: set[str]) -> Constraint | None:
    raw = f.as_map(raw, ctx, "a constraint")
    problems = dra_rules.constraint(raw, known)
    for problem in problems:
        ctx.report("WAS645", problem.message, problem.path)
    if problems:
        return None
    requests = f.strings(raw.get("requests"), ctx.at("requests"), "requests")
    return Constraint(requests, raw.get("matchAttribute"), raw.get("distinctAttribute"))


def _configs(raw: Any, ctx: Ctx) -> tuple[ClaimConfig, ...]:
    out = []
    for i, item in enumerate(f.as_items(raw, ctx, "config")):
        opaque = f.opaque(item, ctx.at(i))
        if opaque is not None:
            requests = f.strings(item.get("requests"), ctx.at(i, "requests"), "requests")
            out.append(ClaimConfig(requests, opaque))
    return tuple(out)


def claim_spec(raw: Any, ctx: Ctx) -> ClaimSpec:
    """`ResourceClaimSpec` (`{devices: {requests, constraints, config}}`); `ctx` points at the spec."""
    devices = f.as_map(f.as_map(raw, ctx, "spec").get("devices"), ctx.at("devices"), "spec.devices")
    dctx = ctx.at("devices")
    items = f.as_items(devices.get("requests"), dctx.at("requests"), "requests")
    requests = tuple(r for r in (_request(x, dctx.at("requests", i)) for i, x in enumerate(items)) if r is not None)
    for _, name, _ in dra_rules.duplicates([r.name for r in requests]):
        dctx.report("WAS644", f"request name {name!r} is used twice", ("requests",))
    known = _request_names(requests)
    constraints = (_constraint(c, dctx.at("constraints", i), known)
                   for i, c in enumerate(f.as_items(devices.get("constraints"), dctx.at("constraints"), "constraints")))
    return ClaimSpec(requests, tuple(c for c in constraints if c is not None),
                     _configs(devices.get("config"), dctx.at("config")))


def _result(raw: Any, ctx: Ctx) -> DeviceResult | None:
    raw = f.as_map(raw, ctx, "a result")
    keys = ("request", "driver", "pool", "device")
    if not all(isinstance(raw.get(k), str) and raw.get(k) for k in keys):
        ctx.report("WAS647", "an allocation result needs request, driver, pool and device", ())
        return None
    consumed = []
    for name, value in f.as_map(raw.get("consumedCapacity"), ctx.at("consumedCapacity"), "consumedCapacity").items():
        amount = f.quantity(value, ctx.at("consumedCapacity", name), f"consumedCapacity {name}")
        if amount is not None:
            consumed.append((str(name), amount))
    return DeviceResult(
        *(raw[k] for k in keys), admin_access=f.flag(raw.get("adminAccess"), ctx.at("adminAccess"), "adminAccess"),
        tolerations=f.tolerations(raw.get("tolerations"), ctx.at("tolerations")),
        binding_conditions=f.strings(raw.get("bindingConditions"), ctx.at("bindingConditions"), "bindingConditions"),
        binding_failure_conditions=f.strings(raw.get("bindingFailureConditions"),
                                             ctx.at("bindingFailureConditions"), "bindingFailureConditions"),
        share_id=raw.get("shareID") if isinstance(raw.get("shareID"), str) else None,
        consumed_capacity=tuple(consumed))


def allocation(raw: Any, ctx: Ctx) -> Allocation | None:
    """`status.allocation`, or None (unallocated) when absent or unreadable."""
    if raw is None:
        return None
    raw = f.as_map(raw, ctx, "status.allocation")
    devices = f.as_map(raw.get("devices"), ctx.at("devices"), "allocation.devices")
    items = f.as_items(devices.get("results"), ctx.at("devices", "results"), "results")
    results = [_result(r, ctx.at("devices", "results", i)) for i, r in enumerate(items)]
    if any(r is None for r in results):
        ctx.report("WAS647", "status.allocation has unreadable results; the claim is treated as unallocated", ())
        return None
    configs = []
    for i, item in enumerate(f.as_items(devices.get("config"), ctx.at("devices", "config"), "config")):
        opaque = f.opaque(item, ctx.at("devices", "config", i))
        if opaque is not None:
            configs.append(AllocationConfig(str(item.get("source") or ""),
                                            f.strings(item.get("requests"), ctx.at("devices", "config", i), "requests"),
                                            opaque))
    return Allocation(tuple(results), tuple(configs),  # type: ignore[arg-type]
                      node_selector(raw.get("nodeSelector"), ctx.at("nodeSelector")))


def reserved_for(raw: Any, ctx: Ctx) -> tuple[Consumer, ...]:
    out = []
    for i, item in enumerate(f.as_items(raw, ctx, "reservedFor")):
        if not isinstance(item, dict) or not item.get("resource") or not item.get("name"):
            ctx.at(i).report("WAS647", "a reservedFor entry needs resource and name", ())
            continue
        out.append(Consumer(str(item["resource"]), str(item["name"]), str(item.get("apiGroup") or ""),
                            str(item.get("uid") or "")))
    return tuple(out)
