"""The exact question for a whole CompositePodGroup tree: can enough of its groups be scheduled together?

A tree succeeds when its root has minGroupCount children scheduled (one for a basic composite), recursively;
a PodGroup leaf when it reaches minCount (engine/cache/composite.py, compositecycle.py). The leaves' pods share the
nodes, so the children cannot be answered one by one: the program places every leaf's pending pods on the same
node classes, with one "scheduled" boolean per tree node, and every node with a topology key the plan honours
keeps its subtree inside one domain of that key (pinned by members already bound below it). The objective is the
number of the root's children scheduled, capped at its minGroupCount. The witness is replayed through the
engine leaf by leaf, in the tree's child order, each pod seen from its innermost placement.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from wasplan.engine.facade import PlacementError, bound_rows, pinned_domain, tas_on, topology_key
from wasplan.explain.exact import (capacity, classes, devices, domainrules, shapes as shapes_mod, tree_solver,
                                   witness)
from wasplan.explain.exact.question import UNREPLAYED, UNSPLIT, node_pods, unreplayed
from wasplan.explain.exact.result import TreeAnswer
from wasplan.explain.exact.solver import FITS, UNKNOWN

MAX_DEPTH = 4


@dataclass
class TNode:
    key: str
    kind: str  # composite | group
    need: int  # composite: children to schedule; group: pods still needed for minCount
    parent: int | None
    topo: str | None = None  # the topology key the plan honours for this node
    children: list[int] = field(default_factory=list)
    pending: list = field(default_factory=list)  # a group's unplaced members, in cycle order
    bound: list = field(default_factory=list)  # (pod key, row) of members already on nodes in the subtree


def collect(ctx, root: str) -> list[TNode]:
    """The tree below `root`, depth first in the children's creation order (index 0 is the root)."""
    world, forest, state = ctx.sim.world, ctx.sim.cycles.forest, ctx.sim.state
    honour = tas_on(ctx.verifier.options)
    out: list[TNode] = []

    def add(kind: str, key: str, parent: int | None, depth: int) -> int:
        obj = world.composites[key].obj if kind == "composite" else world.groups[key].pg
        i = len(out)
        out.append(TNode(key, kind, 0, parent, topology_key(obj) if honour else None))
        if kind == "group":
            gs = world.groups[key]
            live = world.live_members(gs)
            out[i].bound = bound_rows(state, live)
            out[i].need = max(gs.min_count - len(out[i].bound), 0)
            out[i].pending = [m.pod for m in sorted((m for m in live if not m.placed),
                                                    key=lambda m: (-m.priority, m.initial_ts))]
        else:
            out[i].need = forest.min_children(key)
            for child_kind, child in forest.children(key) if depth < MAX_DEPTH else ():
                out[i].children.append(add(child_kind, child, i, depth + 1))
                out[i].bound += out[out[i].children[-1]].bound
        return i

    add("composite", root, None, 0)
    return out


def chain(nodes: list[TNode], i: int) -> list[int]:
    """The node and its ancestors."""
    out = []
    while i is not None:
        out.append(i)
        i = nodes[i].parent
    return out


@dataclass
class Domains:
    """Per topology key of the tree: node codes; per tree node its pinned code; the nodes' combined codes."""

    codes: dict[str, np.ndarray]
    values: dict[str, list[str]]
    pinned: dict[int, int]
    combo: np.ndarray | None = None  # per node row, the index of its tuple of codes (one per key)
    combos: np.ndarray | None = None  # per combined index, the code of each key (columns in `keys` order)
    keys: tuple[str, ...] = ()


def domains(state, nodes: list[TNode]) -> Domains:
    """Raises PlacementError where members are bound in several domains of a key (the engine cannot decide)."""
    keys = tuple(sorted({t.topo for t in nodes if t.topo}))
    out = Domains({}, {}, {}, keys=keys)
    for key in keys:
        out.codes[key], out.values[key] = state.labels.codes(key)
    for i, t in enumerate(nodes):
        if t.topo:
            value = pinned_domain(state, t.topo, t.bound)
            if value is not None:
                out.pinned[i] = out.values[t.topo].index(value)
    if keys:
        out.combos, inverse = np.unique(np.column_stack([out.codes[k] for k in keys]), axis=0, return_inverse=True)
        out.combo = inverse.reshape(-1)
    return out


def _restrict(nodes: list[TNode], dom: Domains, leaf: int, allowed: np.ndarray) -> np.ndarray:
    """A leaf's pods only go to nodes labelled with every key above it (in the pinned domain, if any)."""
    for t in chain(nodes, leaf):
        key = nodes[t].topo
        if key:
            allowed = allowed & (dom.codes[key] >= 0)
            if t in dom.pinned:
                allowed = allowed & (dom.codes[key] == dom.pinned[t])
    return allowed


def fewest(nodes: list[TNode], i: int) -> int:
    """The fewest pods the subtree must still place: its cheapest `need` children (compositecycle.py's bound)."""
    t = nodes[i]
    return t.need if t.kind == "group" else sum(sorted(fewest(nodes, c) for c in t.children)[:t.need])


def room(program: classes.Program) -> int:
    """An upper bound on the tree's pods the nodes hold: each node's fullest combination, pooled nodes each
    shape's count on its own."""
    return (sum(c.count * max(sum(p) for p in c.patterns) for c in program.classes)
            + sum(c.count * sum(c.caps) for c in program.pooled))


def _innermost(nodes: list[TNode], leaf: int) -> int | None:
    return next((t for t in chain(nodes, leaf) if nodes[t].topo), None)


def ask(ctx, ev, root: str, seconds: float) -> TreeAnswer | None:
    state = ev.state
    nodes = collect(ctx, root)
    try:
        dom = domains(state, nodes)
    except PlacementError:
        return None
    leaves = [i for i, t in enumerate(nodes) if t.kind == "group"]
    shapes, shape_leaf = [], []
    for leaf in leaves:
        inner = _innermost(nodes, leaf)
        codes = dom.codes[nodes[inner].topo] if inner is not None else None
        for s in shapes_mod.group(nodes[leaf].pending, bool(state.affecting_pods)):
            shapes_mod.fill(ev, s, codes)
            s.allowed = _restrict(nodes, dom, leaf, s.allowed)
            shapes.append(s)
            shape_leaf.append(leaf)
    return _solve(ev, nodes, dom, shapes, shape_leaf, seconds)


def _solve(ev, nodes, dom, shapes, shape_leaf, seconds) -> TreeAnswer:
    state = ev.state
    cap = capacity.of(ev, shapes)
    shape_leaf = [shape_leaf[s.origin] for s in cap.shapes]  # shapes split by their claims keep their leaf
    shapes, free, requests = cap.shapes, cap.free, cap.requests
    needed = sum(t.need for t in nodes if t.kind == "group")
    program = classes.build(shapes, free, requests, needed, shapes_mod.conflicts(shapes), dom.combo, None,
                            together=cap.together, totals=cap.totals,
                            rules=domainrules.domain_rules(ev, shapes))
    chains = [[t for t in chain(nodes, leaf) if nodes[t].topo] for leaf in shape_leaf]
    sol = tree_solver.solve(program, nodes, shape_leaf, chains, dom, seconds)
    groups = tuple(nodes[i].key for i in sorted(sol.scheduled) if nodes[i].kind == "group")
    base = TreeAnswer(nodes[0].key, sol.status, nodes[0].need, sol.placed, sol.bound, groups,
                      fewest_pods=fewest(nodes, 0), pods_room=room(program))
    if sol.status != FITS:
        return base
    slots = witness.slots(program, sol, free)
    if slots is None:
        return dataclasses.replace(base, status=UNKNOWN, note=UNSPLIT)
    by_shape = tuple(n if shape_leaf[s] in sol.scheduled else 0 for s, n in enumerate(sol.placed_by_shape))
    order, within = [], {}
    for leaf in (i for i, t in enumerate(nodes) if t.kind == "group" and i in sol.scheduled):
        inner = _innermost(nodes, leaf)
        chosen = sol.domains.get(inner) if inner is not None else None  # none: the leaf places no pod
        mask = dom.codes[nodes[inner].topo] == chosen if chosen is not None else None
        for pod in nodes[leaf].pending:
            order.append(pod.key)
            within[pod.key] = mask
    placed = witness.replay(ev, shapes, order, by_shape, slots, within)
    if placed is None:
        return dataclasses.replace(base, status=UNKNOWN, note=unreplayed(UNREPLAYED, cap))
    return dataclasses.replace(base, witness=node_pods(state, placed),
                               subrequests=devices.choices_made(ev, shapes, witness.assign(shapes, by_shape)))
