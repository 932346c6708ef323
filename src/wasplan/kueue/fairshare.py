"""Fair sharing's dominant resource share (DRS) and the scheduler's fair-sharing tournament.

Used only when Kueue's Configuration enables fair sharing (`config.py`); otherwise the classical ordering of
cycle.py stays, untouched.

Upstream: KDIR/pkg/cache/scheduler/fair_sharing.go (`dominantResourceShare`: for a node with a parent, what it
uses above its subtree quota, per resource summed over flavors, over what its parent's tree could lend it of that
resource, `calculateLendable` = `potentialAvailable` of the parent summed per resource over the root's flavor
resources, times 1000; the largest ratio is the share, ties to the smaller resource name; a root node has share 0;
`PreciseWeightedShare` divides by the weight, a zero weight with a share is infinite and `CompareDRS` orders such
nodes after every other, among themselves by the unweighted ratio; `parseFairWeight`, default 1), clusterqueue.go
and cohort.go (`spec.fairSharing.weight` of a ClusterQueue and of a Cohort; an implicit Cohort weighs 1), and
KDIR/pkg/scheduler/fair_sharing_iterator.go (`fairSharingIterator`: each pop recomputes, for every entry of one root
cohort's tree, the DRS of its ClusterQueue with the entry's usage added and of each ancestor below the root, keyed
by the parent cohort at which they are compared; `runTournament` picks, bottom-up, one winner per cohort by
`entryComparer.less`: with FairSharingPrioritizeNonBorrowing (beta, on in v0.17.0) not borrowing on the requested
flavor-resources first, then the lower DRS, then (PrioritySortingWithinCohort, on) the higher priority, then the
older). Each pop sees the usage the cycle has reserved so far, which is why the order is computed lazily.

Kueue takes an arbitrary ClusterQueue of the remaining entries to pick the root cohort of the next tournament (Go
map order); trees share no quota, so that order changes nothing but which tree goes first. Here the remaining entry
first in the classical order picks it, deterministically.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator

from wasplan.api.quantity import QuantityError, parse_quantity

from .model import FR
from .quota import Node, add_all, potential_available, remove_all

DEFAULT_WEIGHT = 1.0


def parse_weight(raw: object) -> float:
    """`parseFairWeight`: the quantity as a float, 1 when not given (validation reports a bad one)."""
    if raw is None:
        return DEFAULT_WEIGHT
    try:
        return float(Fraction(parse_quantity(raw).amount))
    except QuantityError:
        return DEFAULT_WEIGHT


@dataclass(frozen=True, slots=True)
class DRS:
    weight: float = DEFAULT_WEIGHT
    ratio: float = 0.0  # unweighted, per mille of what the tree could lend
    resource: str = ""
    borrowed: frozenset = frozenset()  # the (flavor, resource) pairs used above the subtree quota

    @property
    def borrowing(self) -> bool:
        return bool(self.borrowed)

    def borrowing_on(self, requested: dict[FR, int]) -> bool:
        return any(requested.get(fr, 0) > 0 for fr in self.borrowed)

    def share(self) -> float:
        """PreciseWeightedShare."""
        if self.ratio == 0:
            return 0.0
        if self.weight == 0:
            return math.inf
        return self.ratio / self.weight

    def status_share(self) -> int:
        """What the ClusterQueue controller writes to status.fairSharing.weightedShare
        (KDIR/pkg/controller/core/helpers.go WeightedShare: rounded up, the int64 maximum for an infinite one)."""
        share = self.share()
        return 2**63 - 1 if share == math.inf else math.ceil(share)

    def _zero_weight_borrows(self) -> bool:
        return self.weight == 0 and self.ratio != 0


NEGATIVE = DRS(DEFAULT_WEIGHT, -1.0)


def _cmp(a: float, b: float) -> int:
    return (a > b) - (a < b)


def compare(a: DRS, b: DRS) -> int:
    """CompareDRS: -1, 0 or 1."""
    za, zb = a._zero_weight_borrows(), b._zero_weight_borrows()
    if za and zb:
        return _cmp(a.ratio, b.ratio)
    if za:
        return 1
    if zb:
        return -1
    return _cmp(a.share(), b.share())


class FairShares:
    """The weights of the tree's nodes and their DRS on the tree's current usage."""

    def __init__(self, tree, cluster_queues: dict, cohorts: dict) -> None:
        self.weights: dict[Node, float] = {}
        for name, node in tree.cqs.items():
            self.weights[node] = parse_weight(cluster_queues[name].fair_sharing_weight)
        for name, node in tree.cohorts.items():
            spec = cohorts.get(name)
            self.weights[node] = parse_weight(spec.fair_sharing_weight if spec is not None else None)

    def drs(self, node: Node) -> DRS:
        """dominantResourceShare(node, nil) on the current usage."""
        weight = self.weights.get(node, DEFAULT_WEIGHT)
        if node.parent is None:
            return DRS(weight)
        borrowing: dict[str, int] = {}
        borrowed = []
        for fr, quota in node.subtree.items():
            over = node.usage.get(fr, 0) - quota
            if over > 0:
                borrowing[fr[1]] = borrowing.get(fr[1], 0) + over
                borrowed.append(fr)
        if not borrowing:
            return DRS(weight)
        lendable = self._lendable(node.parent)
        ratio, dominant = 0.0, ""
        for res in sorted(borrowing):
            if lendable.get(res, 0) > 0:
                r = borrowing[res] * 1000.0 / lendable[res]
                if r > ratio:
                    ratio, dominant = r, res
        return DRS(weight, ratio, dominant, frozenset(borrowed))

    @staticmethod
    def _lendable(parent: Node) -> dict[str, int]:
        out: dict[str, int] = {}
        for fr in parent.root().subtree:
            out[fr[1]] = out.get(fr[1], 0) + potential_available(parent, fr)
        return out


def tournament_order(shares: FairShares, entries: list) -> Iterator:
    """The fair-sharing iterator over the cycle's entries (already in the classical order): each step runs the
    tournament of one root cohort's tree on the usage at that moment and yields its winner."""
    left = list(entries)
    while left:
        first = left[0]
        if first.cq.parent is None:
            left.pop(0)
            yield first
            continue
        root = first.cq.parent.root()
        by_cq = {id(e.cq): e for e in left if e.cq.parent is not None and e.cq.parent.root() is root}
        values, requested = _tournament_shares(shares, by_cq)
        winner = _run(root, by_cq, values, requested)
        left.remove(winner)
        yield winner


def _tournament_shares(shares: FairShares, by_cq: dict) -> tuple[dict, dict]:
    """computeDRS: per (parent cohort, entry), the share it competes with at that cohort."""
    values: dict[tuple[int, int], DRS] = {}
    requested: dict[int, dict[FR, int]] = {}
    for e in by_cq.values():
        usage = e.assignment.usage
        add_all(e.cq, usage)
        requested[id(e)] = usage
        share = shares.drs(e.cq)
        for ancestor in e.cq.ancestors():
            values[(id(ancestor), id(e))] = share
            share = shares.drs(ancestor)
        remove_all(e.cq, usage)
    return values, requested


def _run(cohort: Node, by_cq: dict, values: dict, requested: dict):
    candidates = []
    for child in cohort.child_cohorts:
        won = _run(child, by_cq, values, requested)
        if won is not None:
            candidates.append(won)
    for child in cohort.child_cqs:
        if id(child) in by_cq:
            candidates.append(by_cq[id(child)])
    if not candidates:
        return None
    best = candidates[0]
    for current in candidates[1:]:
        if _less(current, best, cohort, values, requested):
            best = current
    return best


def _less(a, b, cohort: Node, values: dict, requested: dict) -> bool:
    """entryComparer.less at one cohort."""
    da, db = values[(id(cohort), id(a))], values[(id(cohort), id(b))]
    ba, bb = da.borrowing_on(requested[id(a)]), db.borrowing_on(requested[id(b)])
    if ba != bb:
        return not ba
    c = compare(da, db)
    if c:
        return c < 0
    if a.wl.priority != b.wl.priority:
        return a.wl.priority > b.wl.priority
    return a.wl.created < b.wl.created
