"""Checks and per-request data before the search (the set-up part of upstream's `Allocate` and
`validateDeviceRequest`, `structured/internal/incubating/allocator_incubating.go` v0.36.0). Each failure is an
`AllocationError` with upstream's message: subrequests without DRAPrioritizedList, capacity requests without
DRAConsumableCapacity, admin access without DRAAdminAccess, an unknown class, `All` on an incomplete or invalid
pool, more than 32 devices for one claim (checked request by request, v1.36.5 and v1.37.2), `distinctAttribute`
in the stable allocator.
"""

from __future__ import annotations

from wasplan.cluster.devices import ALL, ALLOCATION_RESULTS_MAX, DeviceRequest, RequestSpec
from wasplan.engine.dra.constraints import ConstraintState
from wasplan.engine.dra.errors import AllocationError
from wasplan.engine.dra.records import Candidate, Key, RequestData


def _check_features(search, ci: int, request: DeviceRequest) -> None:
    name, features = search.claim_name(ci), search.features
    if request.first_available and not features.prioritized_list:
        raise AllocationError(f"claim {name}, request {request.name}: has subrequests, but the DRAPrioritizedList "
                              "feature is disabled")
    if features.consumable_capacity:
        return
    if request.exactly is not None and request.exactly.capacity is not None:
        raise AllocationError(f"claim {name}, request {request.name}: has capacity requests, but the "
                              "DRAConsumableCapacity feature is disabled")
    for sub in request.first_available:
        if sub.capacity is not None:
            raise AllocationError(f"claim {name}, subrequest {sub.name}: has capacity requests, but the "
                                  "DRAConsumableCapacity feature is disabled")


def _all_devices(search, key: Key, rd: RequestData) -> list[Candidate]:
    name, out = search.claim_name(key[0]), []
    for pool in search.pools:
        if pool.incomplete:
            raise AllocationError(f"claim {name}, request {rd.spec.name}: asks for all devices, but resource pool "
                                  f"{pool.pool_id} is currently being updated")
        if pool.invalid:
            raise AllocationError(f"claim {name}, request {rd.spec.name}: asks for all devices, but resource pool "
                                  f"{pool.pool_id} is currently invalid")
        for slice_ in pool.slices:
            for device in slice_.devices:
                did = (slice_.driver, slice_.pool, device.name)
                if not search.selectable(key, rd, slice_, device, did):
                    continue
                if search.features.consumable_capacity and not search.capacity_fits(rd.spec, did, device):
                    continue
                out.append(Candidate(did, device, slice_, pool))
    return out


def _request_data(search, key: Key, spec: RequestSpec, parent: str | None) -> RequestData:
    name = search.claim_name(key[0])
    if spec.admin_access is not None and not search.features.admin_access:
        raise AllocationError(f"claim {name}, request {spec.name}: admin access is requested, but the feature is "
                              "disabled")
    cls = search.owner.classes.get(spec.device_class_name)
    if cls is None:
        missing = spec.device_class_name
        raise AllocationError(f"claim {name}, request {spec.name}: could not retrieve device class {missing}: "
                              f"deviceclass.resource.k8s.io \"{missing}\" not found")
    rd = RequestData(spec, parent, cls, spec.count)
    if spec.allocation_mode == ALL:
        rd.all_devices = _all_devices(search, key, rd)
        rd.num = len(rd.all_devices)
    return rd


def _claim_requests(search, ci: int) -> None:
    """Each request's data; the claim's lower bound of devices is checked against the limit request by request,
    before a request's count is added (so a later request is not looked at once the limit is passed), as
    v1.36.5 and v1.37.2 do (`Allocate`: `adding %d devices exceeds the claim limit`; v1.36.3 checked the
    claim's total after all its requests, with another message)."""
    minimum = 0
    for ri, request in enumerate(search.claims[ci].spec.requests):
        _check_features(search, ci, request)
        if request.first_available:
            counts = []
            for si, sub in enumerate(request.first_available):
                search.reqs[(ci, ri, si)] = _request_data(search, (ci, ri, si), sub, request.name)
                counts.append(search.reqs[(ci, ri, si)].num)
            needed = min(counts)
        else:
            assert request.exactly is not None
            search.reqs[(ci, ri, 0)] = _request_data(search, (ci, ri, 0), request.exactly, None)
            needed = search.reqs[(ci, ri, 0)].num
        if needed > ALLOCATION_RESULTS_MAX - minimum:
            raise AllocationError(f"claim {search.claim_name(ci)}, request {request.name}: adding {needed} devices "
                                  f"exceeds the claim limit of {ALLOCATION_RESULTS_MAX}, with {minimum} already "
                                  "accounted for")
        minimum += needed


def prepare_claims(search) -> None:
    for ci, claim in enumerate(search.claims):
        _claim_requests(search, ci)
        states = []
        for i, spec in enumerate(claim.spec.constraints):
            if spec.distinct_attribute is not None and not search.features.incubating:
                raise AllocationError(f"claim {claim.key}, constraint #{i}: empty constraint "
                                      "(unsupported constraint type?)")
            states.append(ConstraintState(spec))
        search.constraints.append(states)
