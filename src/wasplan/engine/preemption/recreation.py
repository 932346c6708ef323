"""The rest of an eviction's story: pods a preemption deletes come back when a controller owns them.

Preemption deletes the victims (pkg/scheduler/framework/preemption/preemption.go, prepareCandidate). A pod
whose controller is a Job, ReplicaSet or StatefulSet is then replaced: the Job controller creates a new pod for a
deleted one it still needs (pkg/controller/job/job_controller.go, manageJob: active < parallelism), the
ReplicaSet controller tops its replicas up (pkg/controller/replicaset/replica_set.go, manageReplicas), the
StatefulSet controller recreates the missing ordinal under the same name (pkg/controller/statefulset/
stateful_set_control.go). Deployments, JobSets and LeaderWorkerSets act through those three. A pod without a
controller, or one whose controller wasplan does not know, is not replaced here.

The plan does not schedule the replacements (they are not input pods, and the story would go on: they may
preempt in turn). What it says about them is measured on the cluster the plan leaves: the replacements, one
copy of each victim without its node, are placed in turn by the scheduler's own filters and scores with every
reservation undone afterwards (as explain's trial does), and a gang counts only if its minCount fits. If none
fits and no placed pod has a lower priority than theirs, they would stay pending: nothing can make room.
"""

from __future__ import annotations

import copy
from collections import defaultdict

from wasplan.engine.cache.world import PodState, SimStatus, World
from wasplan.plan import OwnerRef, Recreation

RECREATING = frozenset({"Job", "ReplicaSet", "StatefulSet"})  # direct controllers that replace a deleted pod


def recreations(world: World, state, evaluator_for) -> tuple[Recreation, ...]:
    """One entry per controller whose pods the plan evicted, in the order of their first victim."""
    owned: dict[tuple, list[PodState]] = defaultdict(list)
    for ps in sorted(world.pods.values(), key=lambda p: p.seq):
        owner = ps.pod.owner
        if ps.status == SimStatus.PREEMPTED and owner is not None and owner.controller.kind in RECREATING:
            owned[(ps.pod.namespace, owner.kind, owner.name, owner.controller.kind, owner.controller.name)].append(ps)
    if not owned:
        return ()
    lowest = min((p.priority for p in world.pods.values() if p.placed), default=None)
    return tuple(_entry(key, victims, world, state, evaluator_for, lowest) for key, victims in owned.items())


def _entry(key: tuple, victims: list[PodState], world: World, state, evaluator_for, lowest: int | None) -> Recreation:
    namespace, kind, name, ctl_kind, ctl_name = key
    fit = _would_fit(victims, world, state, evaluator_for)
    lower = lowest is not None and lowest < max(v.priority for v in victims)  # a placed pod they could preempt
    owner = OwnerRef(kind, name, () if (ctl_kind, ctl_name) == (kind, name) else (OwnerRef(ctl_kind, ctl_name),))
    return Recreation(namespace, owner, tuple(v.key for v in victims), fit, lower,
                      _message(namespace, owner, len(victims), fit, lower))


def _would_fit(victims: list[PodState], world: World, state, evaluator_for) -> int:
    """How many replacements the cluster the plan leaves takes, placed in turn and then undone."""
    mark = state.mark()
    placed: dict[str | None, int] = defaultdict(int)
    try:
        for ps in sorted(victims, key=lambda p: (-p.priority, p.seq)):
            ev = evaluator_for(ps)
            replacement = _replacement(ps)
            decision = ev.find_node(replacement) if ev is not None else None
            if decision is not None and decision.node is not None:
                state.reserve(replacement, decision.node)
                placed[World.group_key(ps)] += 1
    finally:
        state.rollback(mark)
    total = 0
    for group_key, count in placed.items():
        group = world.groups.get(group_key) if group_key else None
        total += count if group is None or not group.is_gang or count >= group.min_count else 0
    return total


def _replacement(ps: PodState):
    pod = copy.copy(ps.pod)
    pod.node_name = pod.nominated_node_name = None
    return pod


def _message(namespace: str, owner: OwnerRef, evicted: int, fit: int, lower: bool) -> str:
    ctl = owner.chain[-1] if owner.chain else owner
    who = f"the {ctl.kind}" if not owner.chain else f"its {ctl.kind} {ctl.name}"
    pods = f"{evicted} pod{'s' if evicted != 1 else ''}"
    head = f"{pods} of {owner.kind.lower()} {namespace}/{owner.name} evicted; {who} recreates {_them(evicted)}"
    if fit == evicted:
        return f"{head}; {_they(evicted)} would fit again on the cluster the plan leaves"
    left = evicted - fit
    unless = f" unless {_they(left)} {'preempt' if left != 1 else 'preempts'} lower-priority pods in turn" \
        if lower else ""
    if fit:
        return f"{head}; {fit} would fit again on the cluster the plan leaves, {left} would stay pending{unless}"
    if not lower:
        return (f"{head}; {_they(evicted)} would stay pending: no node has room, and no lower-priority pod runs "
                f"that could be preempted for {_them(evicted)}")
    return f"{head}; no node has room for {_them(evicted)}: {_they(evicted)} would stay pending{unless}"


def _them(n: int) -> str:
    return "them" if n != 1 else "it"


def _they(n: int) -> str:
    return "they" if n != 1 else "it"
