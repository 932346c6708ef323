"""1.38's preemption-cost node ranking inside workload-aware preemption (DefaultPreemption.RankNodes and Reserve,
pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go; CompareVictimSets in
framework/preemption/util.go; findNodesThatPassFilters and prioritizeNodes in algorithm.go / schedule_one.go of
v1.38.0-beta.0).

While the group's algorithm runs with every potential victim removed, each member goes only to the feasible nodes
of the lowest rank: rank 0 holds the nodes with no surviving victim (free, or whose victims an earlier member of
the cycle already condemned); the others are ordered by the victims still on them, compared as upstream's
CompareVictimSets does (PDB violations, then priority by priority from the most important victim the number of
pods, then all pods, then victim types and sizes, then how many). Scoring happens among those nodes only. A
member placed on a node condemns every victim there (Reserve), including a whole group spread over other nodes;
wasplan derives the condemned set from where the cycle's members are reserved, so a rolled-back trial undoes it
as Unreserve does.

What is modelled: Filter without the DynamicResources late filter decides which nodes count as feasible for
the ranking (the chosen node still passes every filter; when the lowest-rank nodes all fail the late filter the
member is placed as without the ranking).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cmp_to_key

import numpy as np


@dataclass(frozen=True, slots=True)
class VictimCost:
    """What CompareVictimSets reads of one victim unit."""

    priority: int
    type_rank: int  # CompositePodGroup 3, PodGroup 2, Pod 1 (victimRank)
    pods: int
    pdb_violations: int  # the unit's pods that break a budget (ViolateCount)


def _cmp(a, b) -> int:
    return (a > b) - (a < b)


def compare_victim_sets(one: list[VictimCost], two: list[VictimCost]) -> int:
    """CompareVictimSets: < 0 when `one` (most important victim first) is the cheaper set to evict."""
    if not one or not two:
        return _cmp(len(one), len(two))
    if c := _cmp(sum(v.pdb_violations for v in one), sum(v.pdb_violations for v in two)):
        return c
    i = j = 0
    while i < len(one) and j < len(two):
        p1, p2 = one[i].priority, two[j].priority
        if c := _cmp(p1, p2):
            return c
        n1 = n2 = 0
        while i < len(one) and one[i].priority == p1:
            n1, i = n1 + one[i].pods, i + 1
        while j < len(two) and two[j].priority == p2:
            n2, j = n2 + two[j].pods, j + 1
        if c := _cmp(n1, n2):
            return c
    if c := _cmp(sum(v.pods for v in one), sum(v.pods for v in two)):
        return c
    for v1, v2 in zip(one, two):
        if c := _cmp(v1.type_rank, v2.type_rank) or _cmp(v1.pods, v2.pods):
            return c
    return _cmp(len(one), len(two))


class NodeRanker:
    """The ranking for one workload-aware preemption: `costs[i]` is unit i's VictimCost, `by_row` the units with
    a pod on each node (most important first), `unit_rows[i]` the nodes unit i runs on, `members` the group's
    pods of this cycle."""

    def __init__(self, state, costs: list[VictimCost], by_row: dict[int, list[int]],
                 unit_rows: list[set[int]], members: list):
        self.state, self.costs, self.by_row, self.unit_rows = state, costs, by_row, unit_rows
        self.members = members

    def _condemned(self) -> set[int]:
        placed = self.state.placed
        used = {placed[m.key].node for m in self.members if m.key in placed}
        return {i for i, rows in enumerate(self.unit_rows) if rows & used}

    def _surviving(self, row: int, condemned: set[int]) -> list[VictimCost]:
        return [self.costs[i] for i in self.by_row.get(row, ()) if i not in condemned]

    def lowest_rank(self, feasible: np.ndarray) -> np.ndarray:
        """The feasible nodes of the lowest rank, as a mask."""
        rows = np.flatnonzero(feasible)
        condemned = self._condemned()
        sets = {int(r): self._surviving(int(r), condemned) for r in rows}
        best = min(sets.values(), key=cmp_to_key(compare_victim_sets))
        out = np.zeros_like(feasible)
        out[[r for r, s in sets.items() if compare_victim_sets(s, best) == 0]] = True
        return out

    def find_node(self, ev, pod, mask):
        """The member's node: the best scored among the feasible nodes of the lowest rank."""
        decision = ev.find_node(pod, mask)
        if decision.node is None:
            return decision
        feasible, _ = ev.filter_pass(pod, mask)
        if not feasible.any():
            return decision
        allowed = self.lowest_rank(feasible)
        if ev.nominator is not None and ev.nominator.entries:
            ranked = ev.find_node(pod, allowed if mask is None else allowed & mask)
        else:
            ranked = ev.find_node_plain(pod, mask, blocked=~allowed)
        return ranked if ranked.node is not None else decision
