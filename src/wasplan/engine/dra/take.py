"""Taking one device for a request during the search (`allocateDevice`, `checkAvailableCounters` of
`structured/internal/incubating/allocator_incubating.go`, v0.36.0), with the function that undoes it.

Counters: a pool's available counters are its counter sets minus what the devices allocated in the cluster (the
ledger) consume; a device fits when, with the devices taken in this search, no counter goes above what is
available. Upstream keys both maps by pool *name* only (not driver); kept. From 1.37 devices allocated with a
share ID count as allocated here too (`shared_devices_consume_counters`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

from wasplan.engine.dra import capacity as cap
from wasplan.engine.dra.errors import AllocationError
from wasplan.engine.dra.records import Candidate, Key, Picked, RequestData

Counters = dict[str, dict[str, Fraction]]


def available_counters(search, cand: Candidate) -> Counters:
    cache = search.owner.counter_cache(cand.pool)
    if cache is not None:
        return cache
    pool, ledger = cand.pool, search.owner.ledger
    out = {name: dict(counters) for name, counters in pool.counter_sets.items()}
    shared_count = search.features.shared_devices_consume_counters
    for slice_ in pool.slices + pool.other_slices:
        for device in slice_.devices:
            did = (slice_.driver, slice_.pool, device.name)
            if not (ledger.in_use(did) or (shared_count and ledger.consumed(did) is not None)):
                continue
            for use in device.consumes_counters:
                target = out.get(use.name, {})
                for counter, amount in use.counters:
                    if counter in target:
                        target[counter] -= amount
    search.owner.store_counters(pool, out)
    return out


def _add_counters(search, cand: Candidate, sign: int) -> None:
    consumed = search.consumed_counters.setdefault(cand.pool.name, {})
    for use in cand.device.consumes_counters:
        into = consumed.setdefault(use.name, {})
        for counter, amount in use.counters:
            into[counter] = into.get(counter, Fraction(0)) + sign * amount


def check_counters(search, cand: Candidate) -> bool:
    available = available_counters(search, cand)
    _add_counters(search, cand, 1)
    consumed = search.consumed_counters[cand.pool.name]
    for set_name, counters in available.items():
        for counter, value in counters.items():
            if value < consumed.get(set_name, {}).get(counter, 0):
                _add_counters(search, cand, -1)
                return False
    return True


def _names(rd: RequestData) -> tuple[str, str]:
    return (rd.parent, rd.spec.name) if rd.parent else (rd.spec.name, "")


def _passes_constraints(search, ci: int, rd: RequestData, cand: Candidate, must: bool) -> bool:
    base, sub = _names(rd)
    states = search.constraints[ci]
    for i, state in enumerate(states):
        if state.add(base, sub, cand.device, cand.id[0]):
            continue
        if must:
            raise AllocationError(f"claim {search.claim_name(ci)}, request {rd.spec.name}: cannot add device "
                                  f"{'/'.join(cand.id)} because a claim constraint would not be satisfied")
        for earlier in states[:i]:
            earlier.remove(base, sub)
        return False
    return True


def _precheck(search, ci: int, rd: RequestData, cand: Candidate, multi: bool) -> bool:
    admin, did, device = bool(rd.spec.admin_access), cand.id, cand.device
    if not multi and admin and ci in search.allocating.get(did, ()):
        return False
    if not admin and search.in_use(did):
        return False
    if not search.features.partitionable_devices and device.consumes_counters:
        return False
    skip_counters = multi and (search.owner.ledger.consumed(did) is not None or did in search.allocating_capacity)
    if not skip_counters and device.consumes_counters and not check_counters(search, cand):
        return False
    return not search.taint_blocks(device, rd.spec)


def take_device(search, key: Key, rd: RequestData, cand: Candidate, must: bool) -> Callable[[], None] | None:
    ci = key[0]
    device, did = cand.device, cand.id
    multi = search.features.consumable_capacity and device.allow_multiple_allocations is True
    if not _precheck(search, ci, rd, cand, multi) or not _passes_constraints(search, ci, rd, cand, must):
        return None
    holders = search.allocating.setdefault(did, set())
    if not multi:
        holders.add(ci)
    picked = Picked(rd.spec.name, rd.parent, cand, rd.spec)
    if search.features.consumable_capacity and multi:
        picked.consumed = cap.consumed_by(rd.spec.capacity, device)
        picked.share_id = search.share_id(ci, rd.full_name, did)
        _add_capacity(search.allocating_capacity, did, picked.consumed, 1)
    search.results[ci].append(picked)

    def undo() -> None:
        base, sub = _names(rd)
        for state in search.constraints[ci]:
            state.remove(base, sub)
        holders.discard(ci)
        if multi:
            _add_capacity(search.allocating_capacity, did, picked.consumed or {}, -1)
        elif search.features.partitionable_devices and device.consumes_counters:
            _add_counters(search, cand, -1)
        search.results[ci].pop()

    return undo


def _add_capacity(into: dict, did, amounts: cap.Amounts, sign: int) -> None:
    totals = into.setdefault(did, {})
    for name, amount in amounts.items():
        totals[name] = totals.get(name, Fraction(0)) + sign * amount
    if sign < 0 and all(v == 0 for v in totals.values()):
        del into[did]
