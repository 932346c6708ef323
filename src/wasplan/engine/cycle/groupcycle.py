"""The PodGroup scheduling algorithm (engine-semantics §1.6 for 1.36, §1.7 for 1.37).

Members are tried one by one, in the order the caller gives, against one view of the cluster; each member that
fits is reserved so later members see it. 1.36 decides with GangScheduling's Permit (success as soon as the
group's scheduled pods — bound plus assumed — reach minCount, basic groups at once); 1.37 evaluates
PlacementFeasible after every member and stops early once `scheduled + remaining < minCount`, and also needs
at least one newly placed member (1.37 messages are upstream's statuses: one built with errPodGroupUnschedulable
leads with `pod group is unschedulable, `, see `unschedulable`). The caller keeps the reservations on success and rolls them back otherwise;
`mask` restricts the cluster to a node subset (topology placements reuse this). `post_filter` (1.36 pod-by-pod
preemption, see preemption/steps.py) may place a member that did not fit on a nominated node. Members of one
shape are placed by gangbatch.py in one vectorised pass, with the nodes find_node would give each.

In 1.37, once a member of such a batch finds no node, every later member is told the same FitError without a
find_node of its own (EngineOptions.memo): a failed member reserves nothing, so the later members meet the same
state with the same signature, and on the batch's path (resources and static verdicts decide alone) find_node
is a function of those two, as framework.py's "no node fits" memo already relies on. A pending Job of thousands
of pods re-attempts every queued member at each arrival (upstream's podGroupSchedulingDefaultAlgorithm,
pkg/scheduler/schedule_one_podgroup.go); this keeps that re-attempt to one dictionary entry per member.

A member whose attempt ends in a Filter Error (a CEL runtime error in a device selector) is not a verdict: the
podGroupSchedulingDefaultAlgorithm of v1.36.5 and v1.37.2 stops there, the group's status becomes the error wrapped as
`failed to schedule other pod from a pod group: ...`, the erring member keeps its own error, every other member
is rejected with the group's, the condition reads SchedulerError, and no PodGroupPostFilter (preemption) runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from wasplan.engine.cycle import gangbatch
from wasplan.engine.cycle.framework import Evaluator
from wasplan.engine.cache.world import GroupState, PodState

UNSCHEDULABLE_MSG = "pod group is unschedulable"
SCHEDULER_NAME_MSG = "all pods in a single pod group should have the same .spec.schedulerName set, got: {!r} and {!r}"
PERMIT_WAIT_MSG = "waiting for minCount pods from a gang to be scheduled"  # GangScheduling Permit (1.36)
NO_POD_SCHEDULABLE = "no pods were schedulable"  # 1.38 RunRootSchedulingAlgorithm: success, nothing new placed
PARENT_UNSCHEDULABLE = 'parent pod group "{}" is unschedulable'  # 1.38 podGroupFitError on the members (%q of
PARENT_ERROR = 'parent pod group "{}" encountered an error'  # a DNS name); 1.38 buildParentPodGroupErrorStatus
MEMBER_ERROR_MSG = "failed to schedule other pod from a pod group"  # a member's Filter Error ends the cycle


def scheduler_name_problem(names: list[str], profiles) -> str | None:
    """Why a group (or a composite tree) cannot enter a cycle for its pods' schedulerNames, or None: pods that
    name different schedulers (the first name that differs from the first pod's, in the caller's pod order), or
    one name no profile has (the scheduler's `frameworkForPod`: "profile not found for scheduler name")."""
    first = names[0]
    other = next((n for n in names if n != first), None)
    if other is not None:
        return SCHEDULER_NAME_MSG.format(other, first)
    if first not in profiles:
        return f"profile not found for scheduler name {first!r}"
    return None


@dataclass(slots=True)
class GroupAttempt:
    success: bool
    message: str  # the group status message ("" on success)
    placements: dict[str, int] = field(default_factory=dict)  # pod key -> node row
    failures: dict[str, str] = field(default_factory=dict)  # pod key -> FitError message
    entity_cycle: bool = True
    placement: tuple[str, str] | None = None  # (topology key, domain) chosen by the placement search
    error: bool = False  # a SchedulerError (e.g. bound members span several domains), not a verdict
    wrapped: bool = False  # 1.37: the status carries errPodGroupUnschedulable (see `unschedulable`)
    nothing_new: bool = False  # 1.37: the gang rule held but no member was newly placed
    errored: str | None = None  # the member whose attempt ended in a Filter Error (its own message in failures)
    tied: tuple = ()  # asked for ties: (domain, placements) of every placement scoring as the chosen one, by domain
    parent: str | None = None  # 1.38 (caps.group_fit_error): the group's name, which its other members quote

    def member_message(self, key: str, unreached: str | None = None) -> str:
        """What a member that did not bind is told: its own FitError; for a member that fitted in a rejected group
        "pod group is unschedulable, " + (1.36: its Permit message, 1.37: the group's status); for a member the
        cycle never reached, the group's status as it was before the PodGroupPostFilter added to it
        (`unreached`; upstream's completePodGroupAlgorithmResult copies the status before that)."""
        if key in self.failures:
            return self.failures[key]
        if self.parent is not None:  # 1.38: a member that did not fail itself names its group (schedule_one.go)
            return (PARENT_ERROR if self.error else PARENT_UNSCHEDULABLE).format(self.parent)
        if self.error:  # every other member is rejected with the group's error (submitPodGroupAlgorithmResult)
            return self.message
        if key in self.placements:
            return f"{UNSCHEDULABLE_MSG}, {self.message if self.entity_cycle else PERMIT_WAIT_MSG}"
        return self.message if unreached is None else unreached

    def first_placement_status(self) -> str:
        """How this attempt reads quoted as a placement's status (upstream formats the first placement's
        `status.AsError()`): a status carrying errPodGroupUnschedulable reads as that error alone."""
        return UNSCHEDULABLE_MSG if self.wrapped else self.message


def unschedulable(reasons: str = "") -> str:
    """The message of a status built `.WithError(errPodGroupUnschedulable)` (v1.37.2 schedule_one_podgroup.go):
    kube-scheduler's Status.Reasons() puts the error's text before the reasons, joined with ", "."""
    return f"{UNSCHEDULABLE_MSG}, {reasons}" if reasons else UNSCHEDULABLE_MSG


def run(ev: Evaluator, group: GroupState, members: list[PodState], scheduled: int, entity_cycle: bool,
        mask: np.ndarray | None = None, post_filter=None) -> GroupAttempt:
    """`scheduled` = the group's pods already bound before the cycle."""
    if entity_cycle:
        return _run_entity(ev, group, members, scheduled, mask)
    return _run_pod_led(ev, group, members, scheduled, mask, post_filter)


def _try(ev: Evaluator, ps: PodState, attempt: GroupAttempt, mask, post_filter=None, batch=None) -> bool:
    node = batch.next_node() if batch is not None and batch.active else None
    if node is not None:
        ev.state.reserve(ps.pod, node)
        batch.placed(node)
        attempt.placements[ps.key] = node
        return True
    decision = ev.find_node(ps.pod, mask) if ev.ranker is None else ev.ranker.find_node(ev, ps.pod, mask)
    node = decision.node
    if node is None and post_filter is not None and decision.error is None:
        node, message = post_filter(ps, ev, decision)
        if node is None:
            attempt.failures[ps.key] = message
            return False
    elif node is None:
        attempt.failures[ps.key] = decision.message
        if decision.error is not None:
            attempt.errored = ps.key
        return False
    ev.state.reserve(ps.pod, node)
    attempt.placements[ps.key] = node
    return True


def _run_pod_led(ev, group: GroupState, members, scheduled: int, mask, post_filter=None) -> GroupAttempt:
    attempt = GroupAttempt(False, UNSCHEDULABLE_MSG, entity_cycle=False)
    batch = gangbatch.for_members(ev, members, mask)
    for ps in members:
        if _try(ev, ps, attempt, mask, post_filter, batch):
            scheduled += 1
            if not group.is_gang or scheduled >= group.min_count:
                attempt.success, attempt.message = True, ""
        elif attempt.errored is not None:
            return _member_error(attempt, ps)
    return attempt


def _member_error(attempt: GroupAttempt, ps: PodState) -> GroupAttempt:
    """A member's Filter Error stops the group algorithm (both releases' podGroupSchedulingDefaultAlgorithm)."""
    attempt.success, attempt.error = False, True
    attempt.message = f"{MEMBER_ERROR_MSG}: {attempt.failures[ps.key]}"
    return attempt


def _run_entity(ev, group: GroupState, members, scheduled: int, mask) -> GroupAttempt:
    if ev.caps is not None and ev.caps.group_fit_error:
        return _run_threshold(ev, group, members, scheduled, mask)
    attempt = GroupAttempt(False, UNSCHEDULABLE_MSG)
    status_ok = False
    total = len(members)
    batch = gangbatch.for_members(ev, members, mask)
    gang, m = group.is_gang, group.min_count
    no_fit = None  # once a member of a batch finds no node, the FitError every later member gets
    for i, ps in enumerate(members):
        if no_fit is not None:
            attempt.failures[ps.key] = no_fit
        elif _try(ev, ps, attempt, mask, batch=batch):
            scheduled += 1
        elif attempt.errored is not None:  # an Error, not a verdict: the rest of the members are not tried
            return _member_error(attempt, ps)
        elif batch is not None and ev.memo:
            no_fit = attempt.failures[ps.key]
        remaining = total - (i + 1)
        if not gang:
            status_ok = True
            continue
        if scheduled + remaining < m:
            attempt.message = f"minCount ({m}) cannot be satisfied: {scheduled} scheduled, {remaining} remaining"
            return attempt
        status_ok = scheduled >= m
        if not status_ok:
            attempt.message = f"minCount ({m}) is not yet satisfied: {scheduled} scheduled, {remaining} remaining"
    if status_ok and attempt.placements:
        attempt.success, attempt.message = True, ""
    elif status_ok:  # runRootSchedulingAlgorithm: success without a newly placed member is Unschedulable
        attempt.message, attempt.wrapped, attempt.nothing_new = unschedulable(), True, True
    else:  # PlacementFeasible still waits after the last member: the Wait becomes Unschedulable
        attempt.message, attempt.wrapped = unschedulable(attempt.message), True
    return attempt


def threshold(need: int, scheduled: int, unschedulable: int, remaining: int, final: bool) -> str:
    """GangScheduling's PlacementFeasible reason in 1.38 (gangscheduling.go): `final` when the members left can
    no longer reach the threshold (Unschedulable), else the Wait that lets the cycle go on."""
    verdict = "cannot be satisfied" if final else "is not yet satisfied"
    return (f"scheduling policy's minimum threshold ({need}) {verdict}: {scheduled} scheduled, {unschedulable} "
            f"unschedulable, {remaining} not-evaluated")


def _run_threshold(ev, group: GroupState, members, scheduled: int, mask) -> GroupAttempt:
    """1.38's podGroupSchedulingDefaultAlgorithm (algorithm_podgroup.go): PlacementFeasible runs before the first
    member and after each one, for every policy (GenericPodGroup.GetMinCount: a basic group's threshold is 1);
    Unschedulable stops the cycle, Wait goes on and is the outcome if nothing follows. The status is the
    plugin's reason itself (podGroupFitError, no `pod group is unschedulable, ` lead); a success that placed
    nothing new is `no pods were schedulable` (RunRootSchedulingAlgorithm)."""
    attempt = GroupAttempt(False, "", parent=group.record.name)
    need = group.min_count if group.is_gang else 1
    batch = gangbatch.for_members(ev, members, mask) if ev.ranker is None else None  # ranked: member by member
    remaining, failed = len(members), 0
    if scheduled + remaining < need:
        attempt.message = threshold(need, scheduled, 0, remaining, True)
        return attempt
    no_fit = None
    for ps in members:
        if no_fit is not None:
            attempt.failures[ps.key] = no_fit
        elif _try(ev, ps, attempt, mask, batch=batch):
            scheduled += 1
        elif attempt.errored is not None:
            return _member_error(attempt, ps)
        elif batch is not None and ev.memo:
            no_fit = attempt.failures[ps.key]
        remaining -= 1
        failed += ps.key in attempt.failures
        if scheduled + remaining < need:
            attempt.message = threshold(need, scheduled, failed, remaining, True)
            return attempt
        if scheduled < need:
            attempt.message = threshold(need, scheduled, failed, remaining, False)
    if scheduled >= need and attempt.placements:
        attempt.success, attempt.message = True, ""
    elif scheduled >= need:
        attempt.message, attempt.nothing_new = NO_POD_SCHEDULABLE, True
    return attempt
