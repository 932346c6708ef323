"""Topology-aware scheduling of one PodGroup (engine-semantics §1.9; upstream `schedule_one_podgroup.go`
podGroupSchedulingPlacementAlgorithm, `topologyaware/topology_placement.go`, `podgrouppodscount`,
`noderesources/placement_bin_packing.go`).

With the TopologyAwareWorkloadScheduling gate on, a group with a topology key is tried in every domain of
that key (its candidate placements): the group algorithm runs with a node mask, every trial is rolled back
through the state's journal, and the feasible placements are scored by PodGroupPodsCount (members scheduled
plus members placed, normalised to the best placement) plus the bin-packing score of the placement's summed
resources. The winner's reservations are re-made. A group without a key gets one placement (its parent's
nodes), so its result is exactly the plain group algorithm's; only a failure reads as that placement's
(`0/1 placements are available, first placement status: ...`), as upstream runs every group through the
placement algorithm once the gate is on. The preemption engine should call `run_group` too when it re-runs a
group's algorithm (upstream's WAP calls podGroupSchedulingAlgorithm, i.e. this search when TAS is on).

Deliberate difference: upstream breaks a score tie at random; wasplan takes the domain whose value sorts first.
Which feasible placement wins, and how the search avoids trying every domain, is search.py's job. Asked for
`ties` (workload-aware preemption), the attempt also carries every placement that scored as the winner
(`GroupAttempt.tied`), so the caller can say what each of upstream's possible draws would evict.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wasplan.engine.cycle import groupcycle
from wasplan.engine.cycle import search as search_mod
from wasplan.engine.cycle.domains import Domain, DomainList, PlacementError, bin_packing_score, generate
from wasplan.engine.cycle.groupcycle import GroupAttempt
from wasplan.engine.cycle.search import Need, Trial

NO_PREEMPTION_MSG = "workload aware preemption is not supported for pod groups with scheduling constraints"


def topology_key(obj) -> str | None:
    """The (single) topology key of a PodGroup or CompositePodGroup, if it has one."""
    keys = getattr(obj, "topology_keys", ())
    return keys[0] if keys else None


def tas_on(options) -> bool:
    return options.gates.on.topology_aware_workload_scheduling


def preemption_refusal(group, options) -> str | None:
    """For the preemption engine: upstream's status when workload-aware preemption refuses a PodGroup with a
    topology constraint (TAS on), else None. 1.36.5 refuses it (runWorkloadAwarePreemption in
    schedule_one_podgroup.go), and 1.36 also runs no pod-by-pod preemption for such a group (tas_test "... does
    not use pod by pod preemption"). v1.37.2 has no such check: its PodGroupPostFilter runs for every group and
    re-runs the placement search with the potential victims removed (capability constrained_group_preemption)."""
    if options.caps.constrained_group_preemption or not tas_on(options) or topology_key(group.pg) is None:
        return None
    return NO_PREEMPTION_MSG


@dataclass(slots=True)
class Job:
    """One group's trial: what the group algorithm needs, plus how to count already-scheduled members."""

    ev: object
    group: object
    members: list
    scheduled: int
    entity_cycle: bool
    post_filter: object = None  # 1.36: what DefaultPreemption's PostFilter tells a member (it never places one)

    def evaluate(self, domain: Domain) -> Trial:
        state = self.ev.state
        mark = state.mark()
        attempt = groupcycle.run(self.ev, self.group, self.members, self.scheduled, self.entity_cycle,
                                 domain.mask(len(state.nodes)), self.post_filter)
        trial = Trial(domain, attempt, attempt.success)
        if attempt.success:
            trial.raw = self.scheduled + len(attempt.placements)
            trial.bin_packing = bin_packing_score(state, domain.rows)
        state.rollback(mark)
        return trial

    def need(self) -> Need:
        fewest = max(self.group.min_count - self.scheduled, 1) if self.group.is_gang else 1  # ≥ 1 new pod
        return Need([self.ev.state.vectors(m.pod) for m in self.members], self.scheduled, fewest)

    def apply(self, attempt: GroupAttempt) -> None:
        by_key = {m.key: m for m in self.members}
        for key, row in attempt.placements.items():
            self.ev.state.reserve(by_key[key].pod, row)


def placements_to_find(domains) -> int:
    """1.38's adaptive placement sampling (algorithm_podgroup.go numFeasiblePlacementsToFind with
    percentageOfPlacementsToScore unset): stop after max(1, N·pct/100) feasible placements, pct = max(5,
    100 - nodes·9/500) over the placements' summed node counts. wasplan evaluates every placement, as
    percentageOfPlacementsToScore: 100 makes upstream do; the plan says where that can differ (WAS730)."""
    nodes = sum(len(d.rows) for d in domains)
    return max(1, len(domains) * max(5, 100 - nodes * 9 // 500) // 100)


def sampling(options, domains) -> tuple[int, int] | None:
    """(placements, placements upstream stops after) when the release samples and would stop before the end."""
    if not options.caps.placement_sampling or not domains:
        return None
    found = placements_to_find(domains)
    return (len(domains), found) if found < len(domains) else None


def placements_msg(count: int, first: str) -> str:
    """Upstream's status when no candidate placement is feasible (a group without a key has one)."""
    return f"0/{count} placements are available, first placement status: {first}"


def _no_placement(attempt: GroupAttempt, count: int, first: GroupAttempt, nothing_new: bool = False) -> GroupAttempt:
    """`attempt` failed in every one of `count` placements; `first` is the first placement's outcome. 1.36 reads
    `0/N placements are available, first placement status: <first>`; v1.37.2 builds that status with
    errPodGroupUnschedulable (so it leads with `pod group is unschedulable, `) and quotes a first status that
    carries the error as the error alone. In 1.37 a placement where the gang rule held but nothing new was placed
    is a feasible placement upstream, and the root then turns it into plain `pod group is unschedulable`; 1.38
    (a `parent` on the attempt: podGroupFitError) quotes the first placement's reason as it is, and a root that
    placed nothing new reads `no pods were schedulable`."""
    if first.parent is not None:
        attempt.parent = first.parent
        if nothing_new or first.nothing_new:
            attempt.message, attempt.nothing_new = groupcycle.NO_POD_SCHEDULABLE, True
        else:
            attempt.message = placements_msg(count, first.message)
    elif not first.entity_cycle:
        attempt.message = placements_msg(count, first.message)
    elif nothing_new or first.nothing_new:
        attempt.message, attempt.wrapped, attempt.nothing_new = groupcycle.unschedulable(), True, True
    else:
        attempt.message = groupcycle.unschedulable(placements_msg(count, first.first_placement_status()))
        attempt.wrapped = True
    return attempt


def no_domain_msg(key: str) -> str:
    """wasplan's wording when no node carries the key: upstream has no placement to report on (and its 1.36/1.37
    code would dereference a missing first result), so the plan says what is wrong instead."""
    return f'0/0 placements are available: no node has the label "{key}"'


def bound_rows(state, live) -> list[tuple[str, int]]:
    """(pod key, node row) of the group's members already on nodes: they pin the group's domain."""
    return [(ps.key, state.index[ps.node]) for ps in live if ps.placed and ps.node in state.index]


def run_group(ev, group, members, scheduled: int, bound: list[tuple[str, int]], options,
              parent: np.ndarray | None = None, post_filter=None, ties: bool = False,
              standalone: bool = False) -> GroupAttempt:
    """The PodGroup cycle's algorithm: the placement search when TAS applies, else the group algorithm once.
    `bound` = (pod key, node row) of members already on nodes; on success the chosen reservations are in place.
    `post_filter`: the members' PostFilter in 1.36 (pod-by-pod preemption for a group without a topology key;
    for a constrained group only DefaultPreemption's refusal text, as upstream). `standalone`: the group is its
    own queue entity (not a CompositePodGroup's child), where 1.38 tries a nominated placement first."""
    if not tas_on(options):
        return groupcycle.run(ev, group, members, scheduled, options.caps.group_entity_cycle, parent, post_filter)
    key = topology_key(group.pg)
    if key is None:  # one placement, the parent's nodes: same result, but a failure reads as a placement's
        attempt = groupcycle.run(ev, group, members, scheduled, options.caps.group_entity_cycle, parent, post_filter)
        if not attempt.success and not attempt.error:  # an Error is returned as it is, not as a placement's
            _no_placement(attempt, 1, attempt)
            if attempt.nothing_new and standalone and options.caps.nominated_placement_first and \
                    _nominated_inside(ev.state, parent, members):  # the one placement was the nominated one
                attempt.message = placements_msg(1, NOMINATED_NOTHING_NEW)
        return attempt
    try:
        domains = generate(ev.state, key, parent, bound, options.caps.empty_domain_excluded)
    except PlacementError as exc:
        return GroupAttempt(False, str(exc), error=True)
    job = Job(ev, group, members, scheduled, options.caps.group_entity_cycle, post_filter)
    group.sampled = sampling(options, domains) or group.sampled
    nominated = nominated_domain(ev.state, domains, members) if standalone and options.caps.nominated_placement_first \
        else None
    if nominated is not None:
        return search_nominated_first(job, domains, nominated, key, ties)
    return search(job, domains, key, ties)


NOMINATED_NOTHING_NEW = "nominated placement is feasible but no pending pod was scheduled"


def _nominated_rows(state, members) -> set[int]:
    """The rows of the known nodes the queued members are nominated to."""
    return {state.index[n] for n in {m.pod.nominated_node_name for m in members} - {None, ""} if n in state.index}


def nominated_domain(state, domains: list[Domain], members) -> Domain | None:
    """1.38 nominatedPlacement (algorithm_podgroup.go): the one placement holding a node some queued member is
    nominated to; None when no member is nominated, no placement holds such a node, or several do."""
    rows = _nominated_rows(state, members)
    if not rows:
        return None
    matched = [d for d in domains if not rows.isdisjoint(d.rows)]
    return matched[0] if len(matched) == 1 else None


def _nominated_inside(state, parent: np.ndarray | None, members) -> bool:
    """Whether a member is nominated to a node of the one placement a group without a key has (`parent`'s
    nodes, every node without one)."""
    rows = _nominated_rows(state, members)
    return bool(rows) and (parent is None or any(parent[row] for row in rows))


def search_nominated_first(job: Job, domains: list[Domain], nominated: Domain, key: str,
                           ties: bool = False) -> GroupAttempt:
    """1.38 podGroupSchedulingPlacementAlgorithm's fast path: the nominated placement is evaluated first and,
    when it places at least one new member, taken without scoring the others (the NNN usually comes from an
    earlier preemption). Otherwise the rest are searched as usual; when none is feasible the status reported
    is the nominated placement's (`nominated placement is feasible but no pending pod was scheduled` when it
    held but placed nothing new), over all the placements."""
    trial = job.evaluate(nominated)
    if trial.outcome.error:
        return trial.outcome
    if trial.outcome.success:
        job.apply(trial.outcome)
        trial.outcome.placement = (key, nominated.name)
        return trial.outcome
    rest = DomainList(d for d in domains if d is not nominated)
    winner, trials = search_mod.best(job.ev.state, rest, job.need(), job.evaluate, ties) if rest else (None, {})
    if winner is not None:
        return _take(job, winner, trials, key, ties)
    first = trial.outcome
    out = GroupAttempt(False, "", first.placements, first.failures, first.entity_cycle)
    if any(t.outcome.nothing_new for t in trials.values() if t is not None):  # held elsewhere, nothing new
        return _no_placement(out, len(domains), first, True)
    out.parent = first.parent
    out.message = placements_msg(len(domains), NOMINATED_NOTHING_NEW if first.nothing_new else first.message)
    return out


def search(job: Job, domains: list[Domain], key: str, ties: bool = False) -> GroupAttempt:
    if not domains:
        return GroupAttempt(False, no_domain_msg(key))
    winner, trials = search_mod.best(job.ev.state, domains, job.need(), job.evaluate, ties)
    if winner is None:
        first = trials.get(domains[0].name) or job.evaluate(domains[0])
        if first.outcome.error:  # v1.37.2 returns a placement's Error at once, unwrapped
            return first.outcome
        # the members are told what happened to them in the first placement, under the placements message
        out = GroupAttempt(False, "", first.outcome.placements, first.outcome.failures, first.outcome.entity_cycle)
        return _no_placement(out, len(domains), first.outcome,
                             any(t.outcome.nothing_new for t in trials.values() if t is not None))
    return _take(job, winner, trials, key, ties)


def _take(job: Job, winner: Trial, trials: dict, key: str, ties: bool) -> GroupAttempt:
    """Re-make the winning placement's reservations; asked for `ties`, name every placement scoring as it."""
    job.apply(winner.outcome)
    winner.outcome.placement = (key, winner.domain.name)
    if ties:
        tied = search_mod.tied_with(winner, trials)
        winner.outcome.tied = tuple((t.domain.name, t.outcome.placements) for t in tied) if len(tied) > 1 else ()
    return winner.outcome


def settle_bound_domains(state, world, options) -> None:
    """Groups placed before the plan never ran a search here; report their key's domain when every placed
    member sits in the same one, so the plan shows where each constrained group lives."""
    if not tas_on(options):
        return
    for gs in world.groups.values():
        key = topology_key(gs.pg)
        if key is None or gs.placement is not None:
            continue
        values = {state.nodes[row].labels.get(key) for _, row in bound_rows(state, world.live_members(gs))}
        if len(values) == 1 and None not in values:
            gs.placement = (key, values.pop())
