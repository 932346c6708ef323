"""Questions for a group that does not fit: would it fit if some running pods ran on other nodes — or, fewest
first, which lower-priority pods would have to go?

Fragmentation is the usual reason: enough room in total, none of it where a pod of the group fits (four 8-GPU
nodes, each half used). The running pods of at most the group's priority that the cluster snapshot binds
(not the plan's own placements) may be re-placed; every one must still run somewhere, passing the engine's
filters on its new node. The program places the group's pods and the movable pods on node classes that also
remember what runs on each node now, and minimises the pods that leave their node: a node taking a pattern
keeps as many of its own pods as the pattern has room for; a node with no pattern gives all of them up. The
answer is replayed through the engine (kept pods back in place, moved pods on their new nodes, the group in
cycle order) and then the plan is re-run with the moved pods bound to their new nodes: only a re-run that
places the group makes the moves "verified".

The same program without the "every moved pod runs somewhere" rule gives the fewest lower-priority pods to evict
(`relocate=False`): a pod that leaves its node is then gone; verified by re-planning without them.

Groups with a topology constraint the plan honours are not asked (the movable pods may run outside the group's
domain, which the one-domain program does not express).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from wasplan.engine.facade import SimStatus
from wasplan.explain import rerun
from wasplan.explain.exact import capacity, classes, domainrules, shapes as shapes_mod, solver, witness
from wasplan.explain.exact.question import node_pods
from wasplan.explain.exact.result import Move, MovesAnswer

MOVE_LIMIT = 2000  # movable pods beyond which the question is not asked (the program grows with them)
UNREPLAYED = "the engine's filters reject the moved pods or the group on the nodes the program chose"
POOLED = "too many combinations of pods per node to count moves exactly"


def movable(ctx, subj) -> list:
    """Pods bound in the snapshot, of at most the target's priority, outside the target, in name order; not pods
    with ResourceClaims (the engine keeps a removed pod's devices allocated: only the claim controller frees them
    after a real eviction), nor DaemonSet pods (their controller runs one on each node it matches: moved or
    evicted, the pod comes back where it was)."""
    world = ctx.sim.world
    prio = subj.group.priority if subj.group is not None else world.pods[subj.unit.key].priority
    own = set(subj.group.members) if subj.group is not None else {subj.unit.key}
    return [world.pods[k].pod for k in sorted(ctx.sim.state.placed)
            if k not in own and k in world.pods and world.pods[k].status == SimStatus.ALREADY_BOUND
            and world.pods[k].priority <= prio and not world.pods[k].pod.terminating
            and not world.pods[k].pod.resource_claims and not rerun.daemonset_owned(world.pods[k].pod)]


def ask(ctx, subj, ev, seconds: float, pods: list | None = None, relocate: bool = True) -> MovesAnswer | None:
    """`pods`: the pods that may leave their nodes (default: `movable`); `relocate`: they must run elsewhere (a
    move) rather than go (an eviction). None when there are none, or too many to ask about."""
    pods = movable(ctx, subj) if pods is None else pods
    if not pods or len(pods) > MOVE_LIMIT:
        return None
    state = ev.state
    mark = state.mark()
    try:
        origin = {p.key: state.placed[p.key].node for p in pods}
        for p in pods:
            state.remove(p)
        loose = [dataclasses.replace(p, node_name=None) for p in pods]  # free to go anywhere the filters allow
        found = _solve(ev, subj, loose, origin, seconds, relocate)
    finally:
        state.rollback(mark)
    if found is None or found.status != solver.FITS:
        return found
    if relocate:
        variant = rerun.with_pods(ctx.inputs, {m.pod for m in found.moves},
                                  lambda p: dataclasses.replace(p, node_name=_target(found, p.key)))
    else:
        variant = rerun.without_pods(ctx.inputs, set(found.evicts))
    return dataclasses.replace(found, verified=verify(ctx, subj.unit, variant))


def verify(ctx, unit, variant) -> bool | None:
    """Whether the re-planned run places `unit`; None when the verification budget is spent and it did not run."""
    skipped = ctx.verifier.skipped
    placed = ctx.verifier.places(unit, variant)
    return None if ctx.verifier.skipped > skipped else placed


def _target(answer: MovesAnswer, key: str) -> str:
    return next(m.target for m in answer.moves if m.pod == key)


def _solve(ev, subj, pods, origin, seconds, relocate: bool) -> MovesAnswer | None:
    state = ev.state
    group = shapes_mod.group(subj.pending, bool(state.affecting_pods))
    moving = shapes_mod.group(pods, bool(state.affecting_pods))
    for s in group + moving:
        shapes_mod.fill(ev, s, None)
    cap = capacity.of(ev, group + moving)  # the group's shapes may split by their claims; the movable ones hold none
    every = cap.shapes
    group, moving = every[:len(every) - len(moving)], every[len(every) - len(moving):]
    content = np.zeros((len(state.nodes), len(moving)), dtype=np.int64)
    for m, s in enumerate(moving):
        for pod in s.members:
            content[origin[pod.key], m] += 1
    program = classes.build(every, cap.free, cap.requests, subj.needed, shapes_mod.conflicts(every), None, None,
                            content, cap.together, cap.totals, domainrules.domain_rules(ev, every))
    if program.pooled:
        return MovesAnswer(solver.UNKNOWN, subj.needed, note=POOLED)
    got = _program(program, len(group), subj.needed, seconds, relocate)
    if got is None or isinstance(got, str):
        return MovesAnswer(solver.NO_FIT if got == solver.NO_FIT else solver.UNKNOWN, subj.needed)
    return _materialize(ev, subj, program, (group, moving), origin, *got, {p.key: p for p in pods}, relocate)


def _program(program: classes.Program, n_group: int, needed: int, seconds: float, relocate: bool):
    """(patterns chosen, pods placed per shape), NO_FIT when no arrangement holds the group, None when undecided."""
    m = solver.new_model()
    y, x, supply = solver.placement_vars(m, program)
    z = solver.shape_vars(m, program, supply)
    for s, zs in enumerate(z):
        if s >= n_group and relocate:
            m.add(zs == program.counts[s])  # every moved pod keeps running somewhere
    m.add(sum(z[:n_group]) >= needed)
    leaving = []
    for k, c in enumerate(program.classes):
        used = [y[(k, p)] for p in range(len(c.patterns))]
        leaving.append((c.count - sum(used)) * sum(c.content))
        for p, pattern in enumerate(c.patterns):
            stays = sum(min(o, a) for o, a in zip(c.content, pattern[n_group:]))
            leaving.append(y[(k, p)] * (sum(c.content) - stays))
    m.minimize(sum(leaving))
    sol, code = solver.run(m, seconds)
    if code == solver.PROVED_NONE:
        return solver.NO_FIT
    if code not in solver.FOUND:
        return None
    return ({k: int(sol.value(v)) for k, v in y.items() if sol.value(v)}, tuple(int(sol.value(v)) for v in z))


def _plan_nodes(program, chosen) -> list[tuple[int, tuple[int, ...] | None, tuple[int, ...]]]:
    """(node row, its pattern or None, what runs there now) for every node of every class."""
    out = []
    for k, c in enumerate(program.classes):
        rows = iter(c.rows)
        for p in range(len(c.patterns)):
            for _ in range(chosen.get((k, p), 0)):
                out.append((next(rows), c.patterns[p], c.content))
        out += [(row, None, c.content) for row in rows]
    return sorted(out)


def _materialize(ev, subj, program, shapes, origin, chosen, placed, pods, relocate) -> MovesAnswer:
    """Keep each node's own pods where its pattern has room; send the rest to free slots of their shape (moves)
    or away (evictions)."""
    group, moving = shapes
    n_group = len(group)
    slots: list[list[int]] = [[] for _ in program.counts]
    on_node = {}
    for m, s in enumerate(moving):
        for pod in s.members:
            on_node.setdefault((origin[pod.key], m), []).append(pod)
    leave: list[list] = [[] for _ in moving]
    for row, pattern, _ in _plan_nodes(program, chosen):
        for s in range(len(program.counts)):
            room = pattern[s] if pattern is not None else 0
            if s < n_group:
                slots[s] += [row] * room
                continue
            own = on_node.get((row, s - n_group), [])
            leave[s - n_group] += own[room:]
            slots[s] += [row] * max(room - len(own), 0)
    if relocate:
        moves = [(pod, origin[pod.key], slots[n_group + m][i]) for m, gone in enumerate(leave)
                 for i, pod in enumerate(gone)]
        evicts: tuple[str, ...] = ()
    else:
        moves, evicts = [], tuple(sorted(pod.key for gone in leave for pod in gone))
    return _replay(ev, subj, group, slots[:n_group], placed[:n_group], moves, origin, pods, evicts)


def _replay(ev, subj, group, slots, by_shape, moves, origin, pods, evicts) -> MovesAnswer:
    state = ev.state
    names = state.nodes
    leaving = {pod.key for pod, _, _ in moves} | set(evicts)
    mark = state.mark()
    try:
        for key, row in sorted(origin.items()):
            if key not in leaving:
                state.reserve(pods[key], row)
        for pod, _, row in moves:
            if not witness.allowed_now(ev, pod, None)[row]:
                return MovesAnswer(solver.UNKNOWN, subj.needed, note=UNREPLAYED)
            state.reserve(pod, row)
        placed = witness.replay(ev, group, [p.key for p in subj.pending], by_shape, slots, {})
    finally:
        state.rollback(mark)
    if placed is None:
        return MovesAnswer(solver.UNKNOWN, subj.needed, note=UNREPLAYED)
    moved = tuple(Move(pod.key, names[src].name, names[dst].name)
                  for pod, src, dst in sorted(moves, key=lambda m: m[0].key))
    return MovesAnswer(solver.FITS, subj.needed, moved, evicts=evicts, witness=node_pods(state, placed))
