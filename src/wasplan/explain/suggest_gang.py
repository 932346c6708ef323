"""Suggestions that change the gang itself or its neighbours: a smaller minCount, or the lower-priority pods
whose completion or eviction would free enough room.

Both are measured with the engine (the trial's placeable count; trial placements with the candidate victims
removed through the state's undo journal) and then verified by a full re-run on changed inputs.
"""

from __future__ import annotations

import numpy as np

from wasplan.cluster.model import Group, Pod
from wasplan.explain import manifest, probe, rerun
from wasplan.explain.evidence import Context, Subject
from wasplan.explain.model import Suggestion
from wasplan.plan import GroupPolicy
from wasplan.words import plural

MAX_VICTIM_NODES = 64  # nodes whose lower-priority pods are considered (each costs one trial placement)
MAX_TRIMS = 24  # victims tried for a reprieve, highest priority first (each costs one trial placement)


def _group_record(ctx: Context, key: str) -> Group:
    return ctx.sim.world.groups[key].record


def min_count(ctx: Context, subj: Subject) -> Suggestion | None:
    """The largest minCount the engine can satisfy now, tried downwards from what the trial placed."""
    if subj.policy != GroupPolicy.GANG or subj.group is None or subj.placeable >= subj.min_count:
        return None
    start = min(subj.placeable, subj.exist)
    for k in range(start, max(start - 3, 0), -1):
        variant = rerun.with_group(ctx.inputs, subj.unit.key, lambda g, k=k: rerun.min_count(g, k))
        if ctx.verifier.places(subj.unit, variant):
            change = manifest.min_count_change(ctx.documents, _group_record(ctx, subj.unit.key), k)
            exist = f"{plural(subj.exist, 'pod')} {'exists' if subj.exist == 1 else 'exist'}"
            why = (f"{exist} and the engine places {subj.placeable} of them now; with minCount {k} "
                   f"the gang is admitted as soon as {k} of its pods are placed")
            return Suggestion("minCount", f"lower minCount from {subj.min_count} to {k}", why, (change,))
    return None


def victims_by_node(ctx: Context, subj: Subject, pod: Pod, priority: int | None) -> dict[int, list[Pod]]:
    """Placed pods below `priority` (None: any other pod) on nodes the pod may use apart from resources (inside
    the best topology domain when the plan honours one), cheapest first per node."""
    state, world = ctx.sim.state, ctx.sim.world
    ev = ctx.evaluator(pod)
    if ev is None:  # a scheduler without a profile: evicting nothing helps
        return {}
    ok = probe.eligible(probe.now(ev, pod))
    if subj.mask is not None:
        ok &= subj.mask
    out: dict[int, list[Pod]] = {}
    for row in np.flatnonzero(ok).tolist():
        own = set(subj.group.members) if subj.group is not None else {subj.unit.key}
        low = [p for key, p in state.pods_on[row].items() if key in world.pods and key not in own
               and (priority is None or world.pods[key].priority < priority)]
        if low:
            out[row] = sorted(low, key=lambda p: (world.pods[p.key].priority, p.key))
    return out


def _enough(ctx: Context, subj: Subject, victims: list[Pod]) -> bool:
    """Whether the trial reaches minCount with `victims` taken off their nodes (undone afterwards)."""
    state = ctx.sim.state
    mark = state.mark()
    try:
        for v in victims:
            state.remove(v)
        ev = ctx.evaluator(subj.pending[0])
        if ev is None:
            return False
        t = probe.trial(ev, subj.pending, subj.mask, evidence=False)
        return subj.bound + t.placed >= subj.min_count
    finally:
        state.rollback(mark)


def choose(ctx: Context, subj: Subject, by_node: dict[int, list[Pod]]) -> list[Pod] | None:
    """Whole nodes' worth of victims, nodes with the fewest and lowest-priority victims first, until the
    trial fits; then each chosen node keeps only the victims it needs, lowest priority first."""
    world = ctx.sim.world
    rows = sorted(by_node, key=lambda r: (len(by_node[r]), max(world.pods[p.key].priority for p in by_node[r]), r))
    rows = rows[:MAX_VICTIM_NODES]
    chosen: list[int] = []
    for row in rows:
        chosen.append(row)
        if _enough(ctx, subj, [p for r in chosen for p in by_node[r]]):
            break
    else:
        return None
    victims = [p for r in chosen for p in by_node[r]]
    trims = sorted(victims, key=lambda p: (-world.pods[p.key].priority, p.key))[:MAX_TRIMS]
    for p in trims:
        rest = [v for v in victims if v is not p]
        if _enough(ctx, subj, rest):
            victims = rest
    return victims


def target_priority(ctx: Context, subj: Subject, pod: Pod) -> int:
    return subj.group.priority if subj.group is not None else ctx.sim.world.pods[pod.key].priority


def evict(ctx: Context, subj: Subject) -> Suggestion | None:
    if not subj.pending or subj.trial is None or not subj.trial.failures:
        return None
    first = next(iter(subj.trial.failures.values())).pod
    priority = target_priority(ctx, subj, first)
    by_node = victims_by_node(ctx, subj, first, priority)
    victims = choose(ctx, subj, by_node) if by_node else None
    if not victims:
        return None
    if not ctx.verifier.places(subj.unit, rerun.without_pods(ctx.inputs, {v.key for v in victims})):
        return None
    world, state = ctx.sim.world, ctx.sim.state
    nodes = sorted({state.node_of(v.key) for v in victims})
    changes = tuple(manifest.pod_deletion(ctx.documents, v) for v in victims)
    names = ", ".join(f"{v.key} (priority {world.pods[v.key].priority}"
                      + (f", PodGroup {v.pod_group}" if v.pod_group else "") + ")" for v in victims)
    why = (f"their priority is below the target's ({priority}); once they complete or are evicted, "
           f"{', '.join(nodes)} have room for the missing pods")
    return Suggestion("evict", f"free room by ending {plural(len(victims), 'lower-priority pod')}: {names}", why, changes)
