"""Topology-aware scheduling of one PodGroup (engine-semantics §1.9; upstream `schedule_one_podgroup.go`
podGroupSchedulingPlacementAlgorithm, `topologyaware/topology_placement.go`, `podgrouppodscount`,
`noderesources/placement_bin_packing.go`).

With the TopologyAwareWorkloadScheduling gate on, a group with a topology key is tried in every domain of
that key (its candidate placements): the group algorithm runs with a node mask, every trial is rolled back
through the state's journal, and the feasible placements are scored by PodGroupPodsCount (members scheduled
plus members placed, normalised to the best placement) plus the bin-packing score of the placement's summed
resources. The winner's reservations are re-made. A group without a key gets one placement (its parent's
nodes), so its result is exactly the plain group algorithm's.

Deliberate difference: upstream breaks a score tie at random; wasplan takes the domain whose value sorts first.
Speed without changing the answer: domains are visited best-bound first; a domain that cannot hold enough
members is never tried, and once a placement that places as many members as any domain could is found, the
search stops at the first domain whose score bound cannot beat it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wasplan.engine import groupcycle
from wasplan.engine.domains import Bounds, Domain, PlacementError, bin_packing_score, generate
from wasplan.engine.groupcycle import GroupAttempt

TAS_GATE = "TopologyAwareWorkloadScheduling"
POD_COUNT_WEIGHT = 1  # PodGroupPodsCount
BIN_PACKING_WEIGHT = 1  # PlacementBinPacking (NodeResourcesFit placement score in 1.36)
NO_PREEMPTION_MSG = "workload aware preemption is not supported for pod groups with scheduling constraints"


def topology_key(obj) -> str | None:
    """The (single) topology key of a PodGroup or CompositePodGroup, if it has one."""
    keys = getattr(obj, "topology_keys", ())
    return keys[0] if keys else None


def tas_on(options) -> bool:
    return options.gates.enabled(TAS_GATE)


def preemption_refusal(group, options) -> str | None:
    """For the preemption engine: 1.36 offers a topology-constrained group no preemption at all (neither pod by
    pod nor workload-aware); this returns upstream's status text for that case, else None."""
    if options.v137 or not tas_on(options) or topology_key(group.pg) is None:
        return None
    return NO_PREEMPTION_MSG


@dataclass(slots=True)
class Trial:
    domain: Domain
    attempt: GroupAttempt
    raw: int = 0  # PodGroupPodsCount before normalisation
    bin_packing: int = 0

    def total(self, max_raw: int) -> int:
        return POD_COUNT_WEIGHT * (self.raw * 100 // max_raw) + BIN_PACKING_WEIGHT * self.bin_packing


@dataclass(slots=True)
class Job:
    """One group's trial: what the group algorithm needs, plus how to count already-scheduled members."""

    ev: object
    group: object
    members: list
    scheduled: int
    v137: bool

    def evaluate(self, domain: Domain) -> Trial:
        state = self.ev.state
        mark = state.mark()
        attempt = groupcycle.run(self.ev, self.group, self.members, self.scheduled, self.v137,
                                 domain.mask(len(state.nodes)))
        trial = Trial(domain, attempt)
        if attempt.success:
            trial.raw = self.scheduled + len(attempt.placements)
            trial.bin_packing = bin_packing_score(state, domain.rows)
        state.rollback(mark)
        return trial

    def apply(self, attempt: GroupAttempt) -> None:
        by_key = {m.key: m for m in self.members}
        for key, row in attempt.placements.items():
            self.ev.state.reserve(by_key[key].pod, row)


def bound_rows(state, live) -> list[tuple[str, int]]:
    """(pod key, node row) of the group's members already on nodes: they pin the group's domain."""
    return [(ps.key, state.index[ps.node]) for ps in live if ps.placed and ps.node in state.index]


def run_group(ev, group, members, scheduled: int, bound: list[tuple[str, int]], options,
              parent: np.ndarray | None = None) -> GroupAttempt:
    """The PodGroup cycle's algorithm: the placement search when TAS applies, else the group algorithm once.
    `bound` = (pod key, node row) of members already on nodes; on success the chosen reservations are in place."""
    key = topology_key(group.pg) if tas_on(options) else None
    if key is None:
        return groupcycle.run(ev, group, members, scheduled, options.v137, parent)
    try:
        domains = generate(ev.state, key, parent, bound)
    except PlacementError as exc:
        return GroupAttempt(False, str(exc), error=True)
    job = Job(ev, group, members, scheduled, options.v137)
    return search(job, domains, key)


def search(job: Job, domains: list[Domain], key: str) -> GroupAttempt:
    if not domains:
        return GroupAttempt(False, f'0/0 placements are available: no node has the label "{key}"')
    best, trials = _best_trial(job, domains)
    if best is None:
        first = trials.get(domains[0].name) or job.evaluate(domains[0])
        msg = f"0/{len(domains)} placements are available, first placement status: {first.attempt.message}"
        # the members are told what happened to them in the first placement, under the placements message
        return GroupAttempt(False, msg, first.attempt.placements, first.attempt.failures, first.attempt.v137)
    job.apply(best.attempt)
    best.attempt.placement = (key, best.domain.name)
    return best.attempt


def _best_trial(job: Job, domains: list[Domain]) -> tuple[Trial | None, dict[str, Trial]]:
    """Visit domains best score bound first; stop once no unvisited domain can beat the best feasible one."""
    state = job.ev.state
    vectors = [state.vectors(m.pod) for m in job.members]
    bounds = Bounds(state, domains, [v[0] for v in vectors], [v[1] for v in vectors])
    need = job.group.min_count - job.scheduled if job.group.is_gang else 1
    most = {d.name: min(len(job.members), bounds.fit_at_most(d)) for d in domains}
    candidates = [d for d in domains if most[d.name] >= max(need, 1)]
    if not candidates:
        return None, {}
    top_raw = job.scheduled + max(most[d.name] for d in candidates)
    bound = {d.name: POD_COUNT_WEIGHT * ((job.scheduled + most[d.name]) * 100 // top_raw)
             + BIN_PACKING_WEIGHT * bounds.best_bin_packing(d) for d in candidates}
    candidates.sort(key=lambda d: (-bound[d.name], d.name))
    trials: dict[str, Trial] = {}
    best: Trial | None = None
    reached = False  # a feasible trial placed as many members as any domain could: the normaliser is known
    for d in candidates:
        if reached:
            score = best.total(top_raw)
            if bound[d.name] < score or (bound[d.name] == score and d.name > best.domain.name):
                break
        trial = trials[d.name] = job.evaluate(d)
        if trial.attempt.success:
            best, reached = _better(best, trial, top_raw), reached or trial.raw == top_raw
    feasible = [t for t in trials.values() if t.attempt.success]
    if feasible and not reached:  # the normaliser is the best raw actually reached
        max_raw = max(t.raw for t in feasible)
        best = min(feasible, key=lambda t: (-t.total(max_raw), t.domain.name))
    return best, trials


def _better(best: Trial | None, trial: Trial, top_raw: int) -> Trial:
    if best is None:
        return trial
    a, b = trial.total(top_raw), best.total(top_raw)
    return trial if a > b or (a == b and trial.domain.name < best.domain.name) else best
