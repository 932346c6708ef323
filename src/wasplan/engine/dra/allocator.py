"""The structured allocator for a whole plan: `Allocator.allocate(node, claims)` as upstream's `Allocate`.

One `Allocator` lives for the plan: slices are indexed by node once (`SliceIndex`), pools are gathered per node
once, CEL results are cached per (expression, device) (`SelectorCache`), and the devices in use come from the
`InUseLedger` that the engine updates from Reserve / Unreserve. Counter availability per pool is derived from the
ledger and cached until the ledger changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence

from wasplan.cluster.devices import FIRST_AVAILABLE_MAX, Allocation, DeviceClass, ResourceClaim, ResourceSlice
from wasplan.engine.dra.celcache import SelectorCache
from wasplan.engine.dra.errors import NodeUnschedulable
from wasplan.engine.dra.features import Features
from wasplan.engine.dra.ledger import InUseLedger
from wasplan.engine.dra.pools import NodeLike, Pool, SliceIndex
from wasplan.engine.dra.prepare import prepare_claims
from wasplan.engine.dra.results import build_allocations
from wasplan.engine.dra.search import Search

INVALID_POOLS = "invalid resource pools were encountered"


@dataclass(frozen=True, slots=True)
class NodeAllocation:
    """What `allocate` found for one node: one `Allocation` per claim (in the order given) and, per claim, the
    index of the subrequest each `firstAvailable` request used (request name -> index), for Score."""

    allocations: tuple[Allocation, ...]
    subrequests: tuple[tuple[tuple[str, int], ...], ...]

    @property
    def score(self) -> int:
        """DynamicResources Score before normalisation: sum over firstAvailable requests of 8 - index."""
        return sum(FIRST_AVAILABLE_MAX - i for per_claim in self.subrequests for _, i in per_claim)


class Allocator:
    def __init__(self, slices: Iterable[ResourceSlice], classes: Iterable[DeviceClass],
                 ledger: InUseLedger | None = None, features: Features = Features(),
                 cel: SelectorCache | None = None) -> None:
        self.features = features
        self.index = SliceIndex(list(slices), features)
        self.classes = {c.name: c for c in classes}
        self.ledger = ledger if ledger is not None else InUseLedger()
        self.cel = cel if cel is not None else SelectorCache(features.consumable_capacity, features.cel_error_on_device)
        self._counters: dict[int, tuple[int, Pool, dict[str, dict[str, Fraction]]]] = {}
        self.calls = 0  # allocateOne invocations, for benchmarks

    def allocate(self, node: NodeLike, claims: Sequence[ResourceClaim]) -> NodeAllocation | None:
        """Devices for every claim on `node`, or None when they cannot all be allocated there.

        Raises `AllocationError` when the attempt must stop (Filter Error) and `NodeUnschedulable` when only this
        node fails for a reason worth its own message (invalid pools)."""
        pools = self.index.pools(node)
        search = Search(self, node, claims, pools)
        prepare_claims(search)
        done = search.run()
        self.calls += search.calls
        if not done:
            if any(p.invalid for p in pools):
                raise NodeUnschedulable(INVALID_POOLS)
            return None
        subs = tuple(tuple((claim.spec.requests[ri].name, search.selected_sub.get((ci, ri), 0))
                           for ri in range(len(claim.spec.requests)) if claim.spec.requests[ri].first_available)
                     for ci, claim in enumerate(claims))
        return NodeAllocation(tuple(build_allocations(search)), subs)

    def counter_cache(self, pool: Pool) -> dict[str, dict[str, Fraction]] | None:
        hit = self._counters.get(id(pool))
        if hit is None or hit[0] != self.ledger.version:
            return None
        return {name: dict(values) for name, values in hit[2].items()}

    def store_counters(self, pool: Pool, counters: dict[str, dict[str, Fraction]]) -> None:
        self._counters[id(pool)] = (self.ledger.version, pool, {n: dict(v) for n, v in counters.items()})
