"""One exact question on the engine's current state: can the group's pods still needed be placed at all?

The program is built from the state the explained plan leaves (free room = allocatable - requested per node,
the engine's request vectors, the plugins' per-node verdicts), solved, and a found assignment is replayed
through the engine's filters before it is believed. `removable` pods (lower-priority ones, for the eviction
question) are taken off their nodes through the state's undo journal first; everything is rolled back.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wasplan.cluster.model import Pod
from wasplan.engine.facade import PlacementError, pinned_domain
from wasplan.explain.exact import (bounds, capacity, classes, devices, domainrules, shapes as shapes_mod, solver,
                                   witness)
from wasplan.explain.exact.result import Answer, Model, NodePods

UNREPLAYED = ("the solver's assignment breaks a rule between the group's own pods that the program does not model "
              "(spread skew or pod affinity among them); the engine rejects it")
UNSPLIT = "the assignment packs pods across pooled nodes and could not be split onto single nodes"


@dataclass
class Scope:
    """Where the group may go: the topology key's domain per node (None without a constraint the plan honours)
    and the members already bound, which pin the domain."""

    key: str | None
    bound_rows: list[tuple[str, int]]


def _domains(state, scope: Scope) -> tuple[np.ndarray | None, list[str] | None]:
    if scope.key is None:
        return None, None
    codes, values = state.labels.codes(scope.key)
    pinned = pinned_domain(state, scope.key, scope.bound_rows)
    if pinned is not None:
        codes = np.where(codes == values.index(pinned), codes, -1)
    return codes, list(values)


def ask(ev, pending: list[Pod], needed: int, scope: Scope, seconds: float,
        removable: list[Pod] = ()) -> tuple[Answer, Model] | None:
    """None when the engine itself cannot decide the group's placements (members bound in several domains)."""
    state = ev.state
    mark = state.mark()
    try:
        where = {pod.key: state.node_of(pod.key) for pod in removable}
        for pod in removable:
            state.remove(pod)
        try:
            codes, values = _domains(state, scope)
        except PlacementError:
            return None
        return _answer(ev, pending, needed, codes, values, seconds, where)
    finally:
        state.rollback(mark)


def _answer(ev, pending, needed, codes, values, seconds, removed: dict[str, str | None]) -> tuple[Answer, Model]:
    state = ev.state
    shapes = shapes_mod.group(pending, bool(state.affecting_pods))
    for s in shapes:
        shapes_mod.fill(ev, s, codes)
    cap = capacity.of(ev, shapes)
    shapes, free, requests = cap.shapes, cap.free, cap.requests
    conflicts = shapes_mod.conflicts(shapes)
    rules = domainrules.domain_rules(ev, shapes, whole_cluster=codes is None)
    program = classes.build(shapes, free, requests, needed, conflicts, codes, values, together=cap.together,
                            totals=cap.totals, rules=rules)
    sol = solver.solve(program, seconds)
    caps = classes.per_node_caps(free, requests, shapes, conflicts)
    why = bounds.proof(shapes, caps, free, cap, needed, codes, values) if sol.status != solver.FITS else None
    model = Model(len(state.nodes), len(program.classes), len(program.pooled), len(shapes),
                  sum(len(c.patterns) for c in program.classes))
    if sol.status != solver.FITS:
        return Answer(sol.status, needed, sol.placed, sol.bound, proof=why), model
    placed, note = _replayed(ev, program, sol, free, shapes, pending, codes)
    if placed is None:
        return Answer(solver.UNKNOWN, needed, sol.placed, sol.bound, proof=why, note=unreplayed(note, cap)), model
    domain = values[sol.domain] if values is not None and sol.domain is not None else None
    return Answer(solver.FITS, needed, sol.placed, sol.bound, domain, node_pods(state, placed),
                  evicts=_evicted(state, placed, removed),
                  subrequests=devices.choices_made(ev, shapes, witness.assign(shapes, sol.placed_by_shape))), model


def unreplayed(note: str, cap) -> str:
    """The replay's failure, naming the DRA features the program leaves to it when the group uses some (and the
    rules between its pods only when they have any)."""
    if note != UNREPLAYED or not cap.relaxed:
        return note
    dra = "; ".join(cap.relaxed) + ", which the engine's allocator decides"
    if any(s.pod.topology_spread or (s.pod.affinity is not None and s.pod.affinity.pod_required)
           for s in cap.shapes):
        return f"{UNREPLAYED}, or {dra}"
    return f"the engine rejects the solver's assignment; the program does not model {dra}"


def _replayed(ev, program, sol, free, shapes, pending, codes) -> tuple[dict[str, int] | None, str]:
    slots = witness.slots(program, sol, free)
    if slots is None:
        return None, UNSPLIT
    mask = None if codes is None or sol.domain is None else codes == sol.domain
    placed = witness.replay(ev, shapes, [p.key for p in pending], sol.placed_by_shape, slots,
                            {p.key: mask for p in pending})
    return placed, "" if placed is not None else UNREPLAYED


def node_pods(state, placed: dict[str, int]) -> tuple[NodePods, ...]:
    by_node: dict[int, list[str]] = {}
    for key, row in placed.items():
        by_node.setdefault(row, []).append(key)
    return tuple(NodePods(state.nodes[row].name, tuple(sorted(keys))) for row, keys in sorted(by_node.items()))


def _evicted(state, placed: dict[str, int], removed: dict[str, str | None]) -> tuple[str, ...]:
    """The removed pods that sat on the witness's nodes (an upper bound on what the assignment must evict)."""
    used = {state.nodes[r].name for r in placed.values()}
    return tuple(sorted(key for key, node in removed.items() if node in used))
