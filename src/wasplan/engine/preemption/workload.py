"""Workload-aware preemption (engine-semantics §1.12; KEP-5710; upstream podgroup preemption evaluator and
test/integration/scheduler/preemption/podgrouppreemption_test.go).

The whole PodGroup is one preemptor with the group's priority. Potential victims are every placed pod in the
cluster whose effective priority is lower; they come in units (the whole group for disruptionMode
PodGroup/`all`, else one pod). All potential victims are removed and the group algorithm runs once; if the group
still does not fit, nothing is evicted. Otherwise units are reprieved in importance order (higher priority;
1.37: a PodGroup unit before a single pod; larger units first; earlier start first), PDB-violating units first:

* 1.36: a unit is added back and the group algorithm re-run; it stays if the group is still schedulable (a
  basic group: one member placed). A unit on nodes the current assignment does not use, carrying no
  inter-pod terms, cannot change the answer for members without constraints of their own, so it is kept
  without the re-run (a speed shortcut);
* 1.37: the assignment of the all-removed run is fixed and a unit stays if it still fits next to it (checked as
  resource capacity on those of the unit's nodes that hold a preemptor pod; units on other nodes always fit).

When a topology-aware group's search (1.37) finds equally scored placements, each one is evaluated as if chosen:
its assignment is reserved next to the removals and the same in-place reprieve gives its victims
(`WapResult.alternatives`, ties.py decides whether the difference is worth reporting).

Every removal and re-add goes through the state journal. A failed search is rolled back; a successful 1.36
search leaves the cluster as decided (kept units back, victims gone) and the ledger commits it, which saves
undoing and redoing every removal on large clusters; 1.37 rolls back and the ledger evicts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from wasplan.engine.cycle import placement

from wasplan.engine.profile import registry
from wasplan.engine.preemption import candidates as cand
from wasplan.engine.preemption import ranknodes, ties
from wasplan.engine.preemption.policy import NEVER, NOT_ELIGIBLE_NEVER, NOT_ELIGIBLE_TERMINATING, group_policy

NOT_HELPFUL_GROUP = "the pod group does not fit even with every lower-priority pod removed"
NO_VICTIMS_GROUP = "No preemption victims found for incoming preemptor"  # both releases' podgrouppreemption.go


@dataclass(slots=True)
class WapResult:
    victims: list = field(default_factory=list)
    placements: dict[str, int] = field(default_factory=dict)  # member key -> row, from the all-removed run
    message: str = ""  # why it failed ("" on success)
    nodes: dict[str, int] = field(default_factory=dict)  # victim key -> row it ran on
    removed: bool = False  # the victims are already off their nodes (journalled, not yet committed)
    alternatives: tuple = ()  # plan.Alternative per tied placement, when their victims differ (ties.py)
    tied: int = 0  # how many placements tied (alternatives lists at most ties.MAX_LISTED)

    @property
    def success(self) -> bool:
        return bool(self.victims)


def preempt(ctx, ev, group, members: list, scheduled: int, bound: list) -> WapResult:
    if group_policy(group, members, ctx.world, ctx.options) == NEVER:
        return WapResult(message=NOT_ELIGIBLE_NEVER)
    if any(ctx.terminating_on_nominated(m, group.priority, wap=True) for m in members if m.pod.nominated_node_name):
        return WapResult(message=NOT_ELIGIBLE_TERMINATING)
    units = ctx.wap_units(group)
    if not units:  # nothing of lower priority runs (or nothing at all)
        return WapResult(message=NO_VICTIMS_GROUP)
    state = ctx.state
    home = {ps.key: state.placed[ps.key].node for unit, _ in units for ps in unit}
    mark = state.mark()
    moves = Moves(state, bulk=bulk_removal(state, members))
    moves.take_off([ps for unit, _ in units for ps in unit])
    result = _search(ctx, ev, group, (members, scheduled, bound), units, home, moves)
    if not result.removed:
        state.rollback(mark)
    return result


def bulk_removal(state, members: list) -> bool:
    """Whether resources alone decide where the members go (no dynamic plugin such as NodePorts,
    PodTopologySpread or InterPodAffinity runs for any of them, no stateful plugin): then the potential victims
    leave the resource arrays as per-node sums in one subtraction instead of one removal each."""
    return not state.stateful and not any(registry.needs_cycle_work(m.pod, state) for m in members)


class Moves:
    """Taking units off their nodes and putting them back: as per-node sums (`ClusterState.shift`) when
    `bulk`, else pod by pod through reserve/remove. Both are journalled; `mark` is where the removals began."""

    def __init__(self, state, bulk: bool):
        self.state, self.bulk, self.mark = state, bulk, state.mark()

    def take_off(self, victims: list) -> None:
        if self.bulk:
            self.state.shift([ps.pod for ps in victims], -1)
        else:
            for ps in victims:
                self.state.remove(ps.pod)

    def put_back(self, unit: list, home: dict) -> None:
        if self.bulk:
            self.state.shift([ps.pod for ps in unit], 1)
        else:
            for ps in unit:
                self.state.reserve(ps.pod, home[ps.key])

    def after_removals(self, victims: int) -> int:
        """The journal position right after the removals of `victims` (> 0) pods (the group run's reservations
        come after it)."""
        return self.mark + (1 if self.bulk else victims)

    def settle(self, victims: list) -> None:
        """Leave the cluster as decided for real: kept units on their nodes, `victims` removed pod by pod."""
        if self.bulk:
            self.state.rollback(self.mark)
            for ps in victims:
                self.state.remove(ps.pod)


def _search(ctx, ev, group, job: tuple, units, home, moves: Moves) -> WapResult:
    """With every potential victim removed: run the group, then reprieve. 1.36 leaves the cluster as decided
    (kept units back, victims gone) so the caller need not undo and redo thousands of removals. `job` is
    (members, scheduled, bound) for the group's algorithm: placement.run_group, the placement search when TAS
    applies, as upstream's scheduling function is the whole root algorithm. When the group does not fit even
    so, the verdict is that run's status, as both releases return it."""
    in_place = ctx.options.caps.group_entity_cycle
    ev.ranker = _ranker(ctx, units, home, job[0]) if ctx.options.caps.wap_rank_nodes else None
    try:
        attempt = _run(ctx, ev, group, job, with_ties=in_place)
    finally:
        ev.ranker = None
    if not attempt.success:
        return WapResult(message=attempt.message)
    placements = dict(attempt.placements)
    if in_place:
        kept = _reprieve_in_place(ctx.state, units, home, placements, moves)
    else:
        kept = _reprieve_rerun(ctx, ev, group, job, units, home, placements, moves)
    victims = _victims(units, kept)
    if not victims:
        return WapResult(message=NOT_HELPFUL_GROUP)
    if not in_place:
        moves.settle(victims)
    alternatives = _alternatives(ctx.state, attempt, job[0], units, home, moves, victims) if attempt.tied else ()
    return WapResult(victims, placements, nodes={ps.key: home[ps.key] for ps in victims}, removed=not in_place,
                     alternatives=alternatives, tied=len(attempt.tied) if alternatives else 0)


def _ranker(ctx, units, home, members: list) -> ranknodes.NodeRanker:
    """1.38's RankNodes over these potential victims: each unit's cost, and per node the units on it, most
    important first (NewPodGroupPreemptionState sorts each node's victims with MoreImportantVictim)."""
    costs = [ranknodes.VictimCost(ctx.wap_prio(unit[0]), 1 + ctx.type_rank(unit), len(unit), violating)
             for unit, violating in units]
    unit_rows = [{home[ps.key] for ps in unit} for unit, _ in units]
    by_row: dict[int, list[int]] = {}
    for i, rows in enumerate(unit_rows):
        for row in rows:
            by_row.setdefault(row, []).append(i)
    order = {i: (*ctx.wap_importance(unit), unit[0].key) for i, (unit, _) in enumerate(units)}
    for row_units in by_row.values():
        row_units.sort(key=order.__getitem__)
    return ranknodes.NodeRanker(ctx.state, costs, by_row, unit_rows, members)


def _victims(units, kept: set[int]) -> list:
    return [ps for i, (unit, _) in enumerate(units) if i not in kept for ps in unit]


def _alternatives(state, attempt, members: list, units, home, moves: Moves, victims: list) -> tuple:
    """1.37 only (the in-place reprieve; the caller rolls everything back): the victims of each tied placement
    listed (ties.listed: the winner and the first others by name), with that placement's assignment reserved in
    place of the winner's."""
    by_key = {m.key: m.pod for m in members}
    after = moves.after_removals(sum(len(unit) for unit, _ in units))
    key = attempt.placement[0]
    choices = []
    names = [domain for domain, _ in attempt.tied]
    keep = ties.listed(np.array(names), names.index(attempt.placement[1]))
    for domain, assigned in (attempt.tied[i] for i in keep):
        if domain == attempt.placement[1]:
            chosen, found = len(choices), victims
        else:
            state.rollback(after)
            for pod_key, row in assigned.items():
                state.reserve(by_key[pod_key], row)
            found = _victims(units, _reprieve_in_place(state, units, home, dict(assigned), moves))
        choices.append((f"{key}={domain}", tuple(state.nodes[r].name for r in assigned.values()), found))
    return ties.consequential(choices, chosen)


def _run(ctx, ev, group, job: tuple, with_ties: bool = False):
    members, scheduled, bound = job
    return placement.run_group(ev, group, members, scheduled, bound, ctx.options, ties=with_ties, standalone=True)


def _rows(unit, home) -> set[int]:
    return {home[ps.key] for ps in unit}


def _reprieve_in_place(state, units, home, placements, moves: Moves) -> set[int]:
    """1.37: the preemptor stays where the all-removed run put it; a unit returns if the nodes of the preemptor's
    pods among its nodes still have room. Only those are checked (v1.37.2 podgrouppreemption.go reprieveVictim
    runs the Filter plugins for each proposed assignment on its own node): a unit spread over several nodes
    returns even when another of its nodes, holding no preemptor pod, is overcommitted."""
    used = set(placements.values())
    kept = set()
    for i, (unit, _) in enumerate(units):
        shared = _rows(unit, home) & used
        if not shared:
            kept.add(i)  # its nodes hold no preemptor pod: it fits as it did before
            continue
        back = state.mark()
        moves.put_back(unit, home)
        idx = sorted(shared)
        if (state.requested[idx] <= state.alloc[idx]).all():
            kept.add(i)
        else:
            state.rollback(back)
    return kept


def _reprieve_rerun(ctx, ev, group, job: tuple, units, home, placements, moves: Moves) -> set[int]:
    """1.36: add a unit back, re-run the group algorithm, keep the unit if the group is still schedulable."""
    state = ctx.state
    shortcut = not any(cand.own_constraints(m.pod) for m in job[0])
    used = set(placements.values())
    state.rollback(moves.after_removals(sum(len(unit) for unit, _ in units)))
    kept = set()
    for i, (unit, _) in enumerate(units):
        base = state.mark()
        moves.put_back(unit, home)
        if shortcut and _rows(unit, home).isdisjoint(used) and not any(cand.carries_terms(ps.pod) for ps in unit):
            kept.add(i)
            continue
        trial = state.mark()
        attempt = _run(ctx, ev, group, job)
        state.rollback(trial)
        if attempt.success:
            kept.add(i)
            used = set(attempt.placements.values())
        else:
            state.rollback(base)
    return kept
