"""The integer program on node classes, solved with OR-Tools CP-SAT under a time limit.

Variables: per (class, maximal pattern) how many of the class's nodes take that pattern; per (pooled class,
shape) how many pods go there; per shape how many of its pods are placed; with a topology constraint, one
boolean per domain (the group lives in at most one). The objective is the number of pods placed, capped at what
the group still needs, so "optimal below the need" is a proof that no assignment exists and "the need reached"
is an assignment. One search worker and a fixed seed keep answers reproducible; a run cut by the time limit
reports the best assignment and the proved upper bound, and says "unknown" when they straddle the need.

CP-SAT rather than a MIP solver (HiGHS): the programs are small and pure-integer, CP-SAT proves both outcomes
in milliseconds on them (see docs/explain.md for the figures) and its presolve handles the big-M domain
switches without tuning.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from typing import TYPE_CHECKING

from wasplan.explain.exact import grouprules
from wasplan.explain.exact.classes import Program
from wasplan.explain.exact.result import Status

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

FITS, NO_FIT, UNKNOWN = Status.FITS, Status.NO_FIT, Status.UNKNOWN
FOUND = ("OPTIMAL", "FEASIBLE")  # CP-SAT status names with an assignment
PROVED_NONE = "INFEASIBLE"


def new_model() -> "cp_model.CpModel":
    """A fresh CP-SAT model. OR-Tools is imported here, on the first question asked: importing it costs about
    half a second, which `--no-exact` and targets with nothing to solve should not pay."""
    from ortools.sat.python import cp_model

    return cp_model.CpModel()


@dataclass
class Solution:
    status: Status
    placed: int  # pods the best assignment found places (capped at the need)
    bound: int  # no assignment places more than this
    domain: int | None = None  # the chosen topology domain's index
    patterns: dict[tuple[int, int], int] = field(default_factory=dict)  # (class, pattern) -> nodes
    pooled: dict[tuple[int, int], int] = field(default_factory=dict)  # (pooled class, shape) -> pods
    placed_by_shape: tuple[int, ...] = ()


def solve(program: Program, seconds: float) -> Solution:
    if program.needed <= 0:
        return Solution(FITS, 0, 0, placed_by_shape=tuple(0 for _ in program.counts))
    if not program.classes and not program.pooled:  # no node can take a single pod: nothing to search
        return Solution(NO_FIT, 0, 0, placed_by_shape=tuple(0 for _ in program.counts))
    m = new_model()
    y, x, supply = placement_vars(m, program)
    z = shape_vars(m, program, supply)
    m.add(sum(z) <= program.needed)
    domains = _domain_vars(m, program, y, x)
    m.maximize(sum(z))
    solver, code = run(m, seconds)
    if code not in FOUND:  # out of time before any assignment (placing nothing is always feasible: never INFEASIBLE)
        return Solution(UNKNOWN, 0, program.needed)
    out = read(solver, program.needed, y, x, z)
    out.domain = next((j for j, d in enumerate(domains) if solver.value(d)), None)
    return out


def run(m: "cp_model.CpModel", seconds: float) -> tuple["cp_model.CpSolver", str]:
    """Solve with one worker and a fixed seed (reproducible); the solver and its status name (FOUND: an
    assignment, PROVED_NONE: none exists)."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(seconds, 0.01)
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    return solver, solver.status_name(solver.solve(m))


def read(solver: cp_model.CpSolver, needed: int, y: dict, x: dict, z: list) -> Solution:
    """The objective against `needed` (fits / proved short / undecided) and the assignment's variables."""
    placed = int(round(solver.objective_value))
    bound = int(solver.best_objective_bound + 1e-6)
    status = FITS if placed >= needed else NO_FIT if bound < needed else UNKNOWN
    out = Solution(status, placed, bound, placed_by_shape=tuple(int(solver.value(v)) for v in z))
    out.patterns = {k: int(solver.value(v)) for k, v in y.items() if solver.value(v)}
    out.pooled = {k: int(solver.value(v)) for k, v in x.items() if solver.value(v)}
    return out


def shape_vars(m: "cp_model.CpModel", program: Program, supply: list[list]) -> list:
    """Per shape the pods placed, at most what its nodes supply; the variants of one family (the same pods with
    other firstAvailable choices) place at most the family's pods together."""
    z = [m.new_int_var(0, n, f"z{s}") for s, n in enumerate(program.counts)]
    for s, zs in enumerate(z):
        m.add(zs <= sum(supply[s]))
    families: dict[int, list[int]] = {}
    for s, f in enumerate(program.families):
        families.setdefault(f, []).append(s)
    for members in families.values():
        if len(members) > 1:
            m.add(sum(z[s] for s in members) <= program.counts[members[0]])
    return z


def placement_vars(m: cp_model.CpModel, program: Program):
    """y[(class, pattern)] nodes per pattern; x[(pooled, shape)] pods per pooled class; per shape the supply."""
    supply: list[list] = [[] for _ in program.counts]
    y: dict[tuple[int, int], cp_model.IntVar] = {}
    for k, c in enumerate(program.classes):
        row = []
        for p, pattern in enumerate(c.patterns):
            v = y[(k, p)] = m.new_int_var(0, c.count, f"y{k}_{p}")
            row.append(v)
            for s, a in enumerate(pattern):
                if a:
                    supply[s].append(a * v)
        m.add(sum(row) <= c.count)
    x: dict[tuple[int, int], cp_model.IntVar] = {}
    for k, c in enumerate(program.pooled):
        for s, cap in enumerate(c.caps):
            if cap:
                x[(k, s)] = m.new_int_var(0, min(cap * c.count, program.counts[s]), f"x{k}_{s}")
                supply[s].append(x[(k, s)])
        for col, room in enumerate(c.free):
            used = [int(program.requests[s, col]) * v for (kk, s), v in x.items() if kk == k]
            if used:
                m.add(sum(used) <= room * c.count)
    if program.together or program.totals or program.apart or program.close or program.spread:
        supply = grouprules.add(m, program, y, x)
    return y, x, supply


def _domain_vars(m: cp_model.CpModel, program: Program, y, x) -> list:
    """At most one domain is used: every class's variables are switched off outside the chosen one."""
    if program.domains is None:
        return []
    d = [m.new_bool_var(f"d{j}") for j in range(len(program.domains))]
    m.add(sum(d) <= 1)
    for (k, _), v in y.items():
        m.add(v <= program.classes[k].count * d[program.classes[k].domain])
    for (k, s), v in x.items():
        m.add(v <= program.counts[s] * d[program.pooled[k].domain])
    return d
