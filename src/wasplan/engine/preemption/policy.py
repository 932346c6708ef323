"""Who may preempt whom: effective priorities, preemption policies and eligibility messages.

Upstream reads `spec.priority`, which admission fills from `priorityClassName` (or the global default class,
else 0); the world resolves that once per pod and group. A PodGroup preempts with its own priority, which in
1.36 overrides its pods' (podgrouppreemption_test "Priority divergence in PodGroups"); see effective_priority
for how victims are judged. 1.37 rejects groups whose pods disagree with the group.
"""

from __future__ import annotations

import contextlib

from datetime import datetime

from wasplan.api import hub
from wasplan.api.priority import admit
from wasplan.engine.profile.options import EngineOptions
from wasplan.engine.cache.world import GroupState, PodState, World

NEVER = "Never"
NOT_ELIGIBLE_NEVER = "not eligible due to preemptionPolicy=Never."
NOT_ELIGIBLE_TERMINATING = "not eligible due to a terminating pod on the nominated node."


def group_priorities_on(options: EngineOptions) -> bool:
    """Whether PodGroups carry a priority of their own (the fields are gated in 1.36)."""
    if not options.groups_on:
        return False
    return options.caps.group_priority or options.gates.on.workload_aware_preemption


def wap_on(options: EngineOptions) -> bool:
    """Workload-aware preemption: 1.36 WorkloadAwarePreemption (with GangScheduling), 1.37 GenericWorkload."""
    return group_priorities_on(options)


def effective_priority(ps: PodState, world: World, options: EngineOptions, for_wap: bool = False) -> int:
    """The priority a pod is judged by as a victim (and a pod without a group as preemptor).

    1.37: a grouped pod counts with its PodGroup's priority everywhere (preemption.go NewPodVictim /
    GetPodPriority). 1.36: only workload-aware preemption looks at groups, and only for a group evicted as a
    whole (disruptionMode PodGroup, priority from the group); single pods keep their own priority, and
    DefaultPreemption reads pod priorities only (the 1.36 podgroup preemption evaluator,
    newDomainForWorkloadPreemption)."""
    group = world.group_of(ps) if ps.pod.pod_group and group_priorities_on(options) else None
    if group is None:
        return ps.priority
    if options.caps.group_priority:
        return group.priority
    return group.priority if for_wap and disrupts_whole_group(group) else ps.priority


def pod_policy(ps: PodState, world: World) -> str:
    """spec.preemptionPolicy, else what Priority admission writes: the PriorityClass's, the global default
    class's for a pod naming none, else PreemptLowerPriority (api/priority.py admit)."""
    if ps.pod.preemption_policy:
        return ps.pod.preemption_policy
    return admit(ps.pod.priority_class_name, None, None, world.classes).preemption_policy


def group_policy(group: GroupState, members: list[PodState], world: World, options: EngineOptions) -> str:
    """The group preemptor's policy (resolvePreemptionPolicy): with 1.37's PodGroupPreemptionPolicy gate the
    PodGroup's own spec.preemptionPolicy (its class's when admission left it unset); otherwise — 1.36, or the
    gate off — Never as soon as one member says Never."""
    if not options.gates.on.pod_group_preemption_policy:  # a 1.37 gate: off in 1.36
        return NEVER if any(pod_policy(m, world) == NEVER for m in members) else "PreemptLowerPriority"
    pg = group.pg
    if pg.preemption_policy is not None:
        return pg.preemption_policy.value
    pc = world.classes.get(pg.priority_class_name or "")
    return pc.preemption_policy if pc is not None else "PreemptLowerPriority"


def disrupts_whole_group(group: GroupState | None) -> bool:
    """disruptionMode PodGroup (1.36) / all (1.37): the group is evicted, and reprieved, as one unit."""
    return group is not None and group.pg.disruption_mode == hub.DisruptionMode.ALL


_LATER = 4 * 10**17  # after every real timestamp in the ordinal below


def _started(key: int) -> int | None:
    """The start second of a start_key ordinal, None for a pod without a start time."""
    return None if key >= _LATER else key // 10**7


def more_important_136(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """pkg/scheduler/util/utils.go MoreImportantPod on (priority, start_key) pairs: higher priority, then the
    earlier start. GetPodStartTime reads "now" for a pod without a start time, once per call and the first
    argument first, so of two such pods the first always counts as the earlier: the comparison is not an
    order, and what sort.Slice makes of it is what the victim order is."""
    if a[0] != b[0]:
        return a[0] > b[0]
    sa, sb = _started(a[1]), _started(b[1])
    if sa is None:
        return sb is None
    return sb is None or sa < sb


def reprieve_order_136(pods: list, key) -> list:
    """1.36 SelectVictimsOnNode's victim order (pkg/scheduler/framework/plugins/defaultpreemption/
    default_preemption.go): the node's lower-priority pods in NodeInfo order, sorted by sort.Slice with
    more_important_136. Go sorts up to 12 elements by insertion, each element moving left while it compares
    as more important than its neighbour, which this repeats: pods of one priority without a start time come
    out in reverse NodeInfo order, after those of that priority that started. (Longer lists go through Go's
    pattern-defeating quicksort, whose result for this comparison is not reproduced: the same insertion order
    stands in for it.)"""
    out = list(pods)
    keys = [key(p) for p in out]
    for i in range(1, len(out)):
        j = i
        while j > 0 and more_important_136(keys[j], keys[j - 1]):
            out[j - 1], out[j] = out[j], out[j - 1]
            keys[j - 1], keys[j] = keys[j], keys[j - 1]
            j -= 1
    return out


def start_key(ps: PodState) -> int:
    """An ordinal of the pod's start time, smaller = earlier: pods by `status.startTime`, then pods without one
    (placed by the plan, or written without a status) in creation order, after everything started. Upstream
    reads the same field and takes "now" for a pod without it (pkg/scheduler/util/utils.go GetPodStartTime,
    used by preemption's victim order and its node tie-break); the creation time plays no part."""
    ts = ps.pod.start_time
    if ts:
        with contextlib.suppress(ValueError):  # an unparseable timestamp sorts as the latest start
            seconds = int(datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp())
            return seconds * 10**7 + ps.seq
    return _LATER + ps.seq
