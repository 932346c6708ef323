"""The CompositePodGroup tree's integer program (tree.py builds its parts), on the same node classes and
placement variables as a single group's (solver.py).

Per tree node a boolean "scheduled": a PodGroup leaf only with its pods still needed placed, a composite only
with minGroupCount (one, when basic) of its children scheduled. Per node with a topology key, one boolean per
domain of the key (at most one true, the pinned one when members are bound below it); a pattern (or pooled
count) holding a pod of a leaf only uses nodes inside the chosen domain of every keyed node above that leaf.
The objective is the root's children scheduled, capped at what the root needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from typing import TYPE_CHECKING

from wasplan.explain.exact.classes import Program
from wasplan.explain.exact.solver import FOUND, UNKNOWN, Solution, new_model, placement_vars, read, run, shape_vars

if TYPE_CHECKING:
    from ortools.sat.python import cp_model


@dataclass
class TreeSolution(Solution):
    scheduled: set[int] = field(default_factory=set)  # tree nodes the assignment schedules
    domains: dict[int, int] = field(default_factory=dict)  # keyed tree node -> chosen code of its key


def solve(program: Program, nodes, shape_leaf: list[int], chains: list[list[int]], dom,
          seconds: float) -> TreeSolution:
    """`chains[s]`: the keyed tree nodes at or above shape s's leaf."""
    m = new_model()
    y, x, supply = placement_vars(m, program)
    z = shape_vars(m, program, supply)
    sched = [m.new_bool_var(f"s{i}") for i in range(len(nodes))]
    for i, t in enumerate(nodes):
        if t.kind == "group":
            m.add(sum(z[s] for s, leaf in enumerate(shape_leaf) if leaf == i) >= t.need * sched[i])
        else:
            m.add(sum(sched[c] for c in t.children) >= t.need * sched[i])
    d = _domain_vars(m, nodes, dom)
    _keep_inside(m, program, y, x, [[(t, dom.keys.index(nodes[t].topo)) for t in c] for c in chains], d, dom)
    goal = m.new_int_var(0, nodes[0].need, "goal")
    m.add(goal <= sum(sched[c] for c in nodes[0].children))
    m.maximize(goal)
    solver, code = run(m, seconds)
    if code not in FOUND:
        return TreeSolution(UNKNOWN, 0, nodes[0].need)
    base = read(solver, nodes[0].need, y, x, z)
    out = TreeSolution(base.status, base.placed, base.bound, None, base.patterns, base.pooled, base.placed_by_shape)
    out.scheduled = {i for i, v in enumerate(sched) if solver.value(v)}
    out.domains = {t: code for t, per in d.items() for code, v in per.items() if solver.value(v)}
    return out


def _domain_vars(m: "cp_model.CpModel", nodes, dom) -> dict[int, dict[int, "cp_model.IntVar"]]:
    """Per keyed tree node, a boolean per code of its key (only the pinned one when pinned); at most one."""
    out: dict[int, dict[int, cp_model.IntVar]] = {}
    for i, t in enumerate(nodes):
        if not t.topo:
            continue
        codes = [dom.pinned[i]] if i in dom.pinned else sorted(set(dom.combos[:, dom.keys.index(t.topo)].tolist()))
        out[i] = {c: m.new_bool_var(f"d{i}_{c}") for c in codes if c >= 0}
        m.add(sum(out[i].values()) <= 1)
    return out


def _keep_inside(m: cp_model.CpModel, program: Program, y, x, chains, d, dom) -> None:
    """A class's nodes take a leaf's pods only inside the chosen domain of every keyed node above the leaf.
    `chains[s]`: (tree node, key column) of the keyed nodes above shape s."""
    def switch(var, count: int, combo: int, shapes_used) -> None:
        for s in shapes_used:
            for t, column in chains[s]:
                code = int(dom.combos[combo, column])
                if code in d[t]:
                    m.add(var <= count * d[t][code])
                else:  # outside the key's domains, or outside the pinned one (the allowed masks exclude it too)
                    m.add(var == 0)

    for (k, p), v in y.items():
        c = program.classes[k]
        switch(v, c.count, c.domain, [s for s, a in enumerate(c.patterns[p]) if a])
    for (k, s), v in x.items():
        c = program.pooled[k]
        switch(v, program.counts[s], c.domain, [s])

