"""One `Allocate(node, claims)` call: the depth-first search with backtracking of upstream's incubating allocator.

Follows `structured/internal/incubating/allocator_incubating.go` (k8s.io/dynamic-resource-allocation v0.36.0,
commit c44687d1) step by step, so the first solution found is the one kube-scheduler finds:

* claims in the order given, requests in claim order, a request's devices one after another; a `firstAvailable`
  request tries its subrequests in order and keeps the first for which the *rest of the search* succeeds;
* devices are walked pool by pool (pool order from `pools.py`), slice by slice, device by device; the next device
  of the same request starts after the previous one (combinations, not permutations);
* per candidate: in use (the cluster's ledger or this search; admin access only skips devices already picked for
  the same claim), selectors (class, then request; cached), per-device node selection, consumable capacity, then
  in `allocate_device`: counters, taints, constraints;
* `All` fixes the selectable devices up front; each must then be allocatable or the request fails, and a
  constraint it breaks is an error; incomplete or invalid pools are an error for `All`;
* more than 32 devices for a claim fails the claim (the size check happens before and during the search).

Upstream quirks kept on purpose: counters added by `check_counters` are not given back when a taint or constraint
then rejects the device, nor on backtracking over a device that allows multiple allocations.
"""

from __future__ import annotations

import uuid
from typing import Callable, Sequence

from wasplan.cluster.devices import (
    ALL, ALLOCATION_RESULTS_MAX, Device, DeviceID, ResourceClaim, ResourceSlice, RequestSpec,
)
from wasplan.engine.dra import capacity as cap
from wasplan.engine.dra.constraints import ConstraintState
from wasplan.engine.dra.errors import AllocationError
from wasplan.engine.dra.pools import NodeLike, Pool, node_matches
from wasplan.engine.dra.records import START, Candidate, Key, MaxSizeExceeded, Picked, RequestData
from wasplan.engine.dra.take import take_device
from wasplan.engine.dra.taints import taint_blocks

class Search:
    """State of one allocation attempt for one node; `Allocator.allocate` builds one per call."""

    def __init__(self, owner, node: NodeLike, claims: Sequence[ResourceClaim], pools: list[Pool]) -> None:
        self.owner, self.node, self.claims, self.pools = owner, node, claims, pools
        self.features = owner.features
        self.reqs: dict[Key, RequestData] = {}
        self.selected_sub: dict[tuple[int, int], int] = {}
        self.constraints: list[list[ConstraintState]] = []
        self.allocating: dict[DeviceID, set[int]] = {}
        self.allocating_capacity: dict[DeviceID, cap.Amounts] = {}
        self.consumed_counters: dict[str, dict[str, dict[str, object]]] = {}
        self.results: list[list[Picked]] = [[] for _ in claims]
        self.match_cache: dict[tuple[int, Key], bool] = {}
        self.calls = 0

    def claim_name(self, ci: int) -> str:
        return self.claims[ci].key

    # --- the search --------------------------------------------------------------------------------

    def run(self) -> bool:
        try:
            return self.one(0, 0, 0, 0, False, START)
        except MaxSizeExceeded:
            raise AllocationError("allocation max size exceeded") from None

    def one(self, ci: int, ri: int, si: int, di: int, in_sub: bool, start: tuple[int, int, int]) -> bool:
        self.calls += 1
        if ci >= len(self.claims):
            return True
        if ri >= len(self.claims[ci].spec.requests):
            try:
                return self.one(ci + 1, 0, 0, 0, False, START)
            except MaxSizeExceeded:
                return False
        rd = self.reqs[(ci, ri, si)]
        if not in_sub and rd.parent is not None:
            return self.subrequests(ci, ri, di)
        if rd.spec.allocation_mode == ALL and not rd.all_devices:
            return False
        if di >= rd.num:
            return self.one(ci, ri + 1, 0, 0, False, START)
        if len(self.results[ci]) + rd.num - di > ALLOCATION_RESULTS_MAX:
            raise MaxSizeExceeded
        if rd.spec.allocation_mode == ALL:
            return self.next_of_all(ci, ri, si, di, in_sub, rd)
        return self.walk(ci, ri, si, di, in_sub, start, rd)

    def subrequests(self, ci: int, ri: int, di: int) -> bool:
        all_exceeded, j = True, 0
        while (ci, ri, j) in self.reqs:
            try:
                ok = self.one(ci, ri, j, di, True, START)
            except MaxSizeExceeded:
                j += 1
                continue
            all_exceeded = False
            if ok:
                self.selected_sub[(ci, ri)] = j
                return True
            j += 1
        if all_exceeded:
            raise MaxSizeExceeded
        return False

    def next_of_all(self, ci: int, ri: int, si: int, di: int, in_sub: bool, rd: RequestData) -> bool:
        assert rd.all_devices is not None
        undo = self.allocate_device((ci, ri, si), rd, rd.all_devices[di], must=True)
        if undo is None:
            return False
        return self.descend(undo, ci, ri, si, di + 1, in_sub, START)

    def descend(self, undo: Callable[[], None], *where) -> bool:
        """Continue the search after taking a device; give the device back unless it led to a solution (also when
        the rest of the search raises, as upstream deallocates before returning an error)."""
        done = False
        try:
            done = self.one(*where)
        finally:
            if not done:
                undo()
        return done

    def walk(self, ci: int, ri: int, si: int, di: int, in_sub: bool, start: tuple[int, int, int],
             rd: RequestData) -> bool:
        key, admin = (ci, ri, si), bool(rd.spec.admin_access)
        for pi in range(start[0], len(self.pools)):
            pool = self.pools[pi]
            if not pool.usable:
                continue
            for sj in range(start[1] if pi == start[0] else 0, len(pool.slices)):
                slice_ = pool.slices[sj]
                first = start[2] if (pi, sj) == start[:2] else 0
                for dk in range(first, len(slice_.devices)):
                    device = slice_.devices[dk]
                    did = (pool.driver, pool.name, device.name)
                    if (ci in self.allocating.get(did, ())) if admin else self.in_use(did):
                        continue
                    if not self.selectable(key, rd, slice_, device, did):
                        continue
                    if self.features.consumable_capacity and not self.capacity_fits(rd.spec, did, device):
                        continue
                    undo = self.allocate_device(key, rd, Candidate(did, device, slice_, pool), must=False)
                    if undo is None:
                        continue
                    if self.descend(undo, ci, ri, si, di + 1, in_sub, (pi, sj, dk + 1)):
                        return True
        return False

    # --- per device ----------------------------------------------------------------------------------

    def in_use(self, did: DeviceID) -> bool:
        return self.owner.ledger.in_use(did) or bool(self.allocating.get(did))

    def selectable(self, key: Key, rd: RequestData, slice_: ResourceSlice, device: Device, did: DeviceID) -> bool:
        if not self.features.binding_conditions and device.binding_conditions:
            return False
        mk = (id(device), key)
        hit = self.match_cache.get(mk)
        if hit is None:
            hit = self._selectable(key, rd, slice_, device, did)
            self.match_cache[mk] = hit
        return hit

    def _selectable(self, key: Key, rd: RequestData, slice_: ResourceSlice, device: Device, did: DeviceID) -> bool:
        cel = self.owner.cel
        if not cel.matches(f"class {rd.cls.name}", rd.cls.selectors, did, device):
            return False
        if not cel.matches(f"claim {self.claim_name(key[0])}", rd.spec.selectors, did, device):
            return False
        return not slice_.per_device_node_selection or node_matches(self.node, device.node)

    def capacity_fits(self, spec: RequestSpec, did: DeviceID, device: Device) -> bool:
        return cap.fits(spec.capacity, device, self.owner.ledger.consumed(did), self.allocating_capacity.get(did))

    def allocate_device(self, key: Key, rd: RequestData, cand: Candidate, must: bool) -> Callable[[], None] | None:
        """Record `cand` for the request, or None when it cannot be taken; the returned function undoes it."""
        return take_device(self, key, rd, cand, must)

    def share_id(self, ci: int, request: str, did: DeviceID) -> str:
        """Upstream draws a random UID; a name-based UUID keeps plans reproducible."""
        name = f"{self.claim_name(ci)}/{request}/{'/'.join(did)}/{len(self.results[ci])}"
        return str(uuid.uuid5(uuid.NAMESPACE_OID, name))

    def taint_blocks(self, device: Device, spec: RequestSpec) -> bool:
        return self.features.device_taints and taint_blocks(device, spec.tolerations)
