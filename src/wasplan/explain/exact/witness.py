"""The solver's assignment on real nodes, checked by the engine.

Patterns become nodes (the first free nodes of each class, in name order), pods fill their shape's slots in
cycle order, and then the engine replays the assignment: each pod, in the order the PodGroup cycle takes
them, must pass every enabled filter plugin on its node on the state the earlier pods leave (the same static
verdicts, resource cache and dynamic filters `Evaluator.find_node` uses, seen from the topology placement the
engine would evaluate), and the DynamicResources filter last, as upstream runs it: the engine's allocator must
find the pod's devices on the node, with the devices the earlier pods took in use (for a firstAvailable variant,
the variant's subrequests). Rules the program does not model (spread skew among the group's pods, pod affinity
that running pods also match, the DRA features devices.py names) are thereby checked by the engine itself; a pod
whose slot fails may take another slot of its shape. Every reservation is rolled back afterwards.
"""

from __future__ import annotations

import numpy as np

from wasplan.engine.facade import registry
from wasplan.explain.exact import devices
from wasplan.explain.exact.classes import Program
from wasplan.explain.exact.shapes import Shape
from wasplan.explain.exact.solver import Solution


def slots(program: Program, solution: Solution, free: np.ndarray) -> list[list[int]] | None:
    """Per shape, one node row per pod the assignment puts there (None if a pooled class cannot be split)."""
    out: list[list[int]] = [[] for _ in program.counts]
    used = {k: 0 for k in range(len(program.classes))}
    for (k, p), n in sorted(solution.patterns.items()):
        c = program.classes[k]
        for row in c.rows[used[k]:used[k] + n]:
            for s, a in enumerate(c.patterns[p]):
                out[s].extend([row] * a)
        used[k] += n
    for k, c in enumerate(program.pooled):
        left = {row: free[row].copy() for row in c.rows}
        for s in range(len(program.counts)):
            for _ in range(solution.pooled.get((k, s), 0)):
                row = next((r for r in c.rows if (left[r] >= program.requests[s]).all()), None)
                if row is None:
                    return None
                left[row] -= program.requests[s]
                out[s].append(row)
    return out


def replay(ev, shapes: list[Shape], order: list[str], by_shape: tuple[int, ...], shape_slots: list[list[int]],
           within: dict[str, np.ndarray | None]) -> dict[str, int] | None:
    """pod key -> node row for the pods the assignment places (each shape's first members), every one accepted
    by the engine's filters in cycle order (`order`, each pod seen from its placement `within[key]`), or None
    when a pod finds none of its shape's slots acceptable. A pod of a firstAvailable variant is allocated the
    variant's subrequests (devices.narrowed) by the engine's own allocator."""
    state = ev.state
    chosen = assign(shapes, by_shape)
    free_slots = [list(x) for x in shape_slots]
    out: dict[str, int] = {}
    mark = state.mark()
    try:
        for key in order:
            if key not in chosen:
                continue
            i, pod = chosen[key]
            ok = allowed_now(ev, pod, within.get(key))
            with devices.narrowed(ev, pod, shapes[i].variant):
                pick = next((j for j, row in enumerate(free_slots[i]) if ok[row] and devices.accepts(ev, pod, row)),
                            None)
                if pick is None:
                    return None
                row = free_slots[i].pop(pick)
                state.reserve(pod, row)
            out[key] = row
    finally:
        state.rollback(mark)
    return out


def assign(shapes: list[Shape], by_shape: tuple[int, ...]) -> dict[str, tuple[int, object]]:
    """pod key -> (shape, pod) for the pods the assignment places: each shape's share of its family's members
    (variants of one family share them), first members first."""
    taken: dict[int, int] = {}
    out: dict[str, tuple[int, object]] = {}
    for i, s in enumerate(shapes):
        family = s.family if s.family >= 0 else -1 - i
        start = taken.get(family, 0)
        for pod in s.members[start:start + by_shape[i]]:
            out[pod.key] = (i, pod)
        taken[family] = start + by_shape[i]
    return out


def allowed_now(ev, pod, within: np.ndarray | None) -> np.ndarray:
    """Nodes where every enabled filter plugin accepts `pod` on the current state, as the engine filters them
    (framework.py's Evaluator: the static verdicts, resource fit from the resource cache, then every dynamic
    filter of engine/profile/registry.py that runs for the pod, inside the placement `within`)."""
    state = ev.state
    sv = ev.static_verdict(pod)
    if sv.prefilter_msg:
        return np.zeros(len(state.nodes), dtype=bool)
    req, nz = state.vectors(pod)
    ok = sv.passes & ev.resources.get(req, nz).fit
    for plugin in registry.DYNAMIC_FILTERS:
        if ev.profile.filter_on(plugin.name) and plugin.runs_for(pod, state):
            ok = ok & (plugin.filter(ev, pod, sv, within) == 0)
    return ok if within is None else ok & within
