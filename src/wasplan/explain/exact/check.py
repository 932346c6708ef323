"""The exact feasibility check: could the group fit at all, whatever the scheduler's order?

kube-scheduler places a gang one pod at a time and never revisits a choice, so "pending" means either that no
assignment of the pods exists, or that one exists and the scheduler's greedy order does not find it. The
check asks an integer program built from the engine's own data (question.py) on the cluster the plan leaves,
and answers one of:

* DoesNotFit — no assignment places the pods still needed; with bounds a person can check (proof.py), and the
  same question with every lower-priority pod removable;
* FitsAndFound — an assignment exists and the scheduler finds it (the plan places the group, or the trial
  placement does and something else holds it back);
* FitsButMissed — an assignment exists (the witness, replayed through the engine) and the trial placement in
  cycle order falls short; changes that let the engine find it are verified by re-running the plan
  (changes.py);
* Unknown — the solver ran out of its budget before deciding.
"""

from __future__ import annotations

from dataclasses import dataclass

from wasplan.engine.placement import bound_rows, topology_key
from wasplan.explain.evidence import Context, Subject
from wasplan.explain.exact import changes, question, solver
from wasplan.explain.exact.result import DOES_NOT_FIT, FOUND, MISSED, UNKNOWN, Answer, ExactCheck
from wasplan.explain.model import BY_PREEMPTING, FITS, Suggestion
from wasplan.explain.model import DOES_NOT_FIT as PLAN_DOES_NOT_FIT

DEFAULT_BUDGET = 5.0  # seconds per solver question


@dataclass(frozen=True)
class ExactOptions:
    budget: float = DEFAULT_BUDGET
    scheduler_config: str | None = None  # the --scheduler-config file, where a scoring change would go


def _scope(ctx: Context, subj: Subject) -> question.Scope:
    gs = subj.group
    key = topology_key(gs.pg) if gs is not None and ctx.honours_topology() else None
    rows = bound_rows(ctx.sim.state, ctx.sim.world.live_members(gs)) if key is not None else []
    return question.Scope(key, rows)


def _removable(ctx: Context, subj: Subject) -> list:
    """Placed pods of lower priority than the target (its own members excluded), in name order."""
    world = ctx.sim.world
    prio = subj.group.priority if subj.group is not None else world.pods[subj.unit.key].priority
    own = set(subj.group.members) if subj.group is not None else {subj.unit.key}
    return [world.pods[k].pod for k in sorted(ctx.sim.state.placed)
            if k not in own and k in world.pods and world.pods[k].priority < prio]


def check(ctx: Context, subj: Subject, verdict: str, opts: ExactOptions) -> tuple[ExactCheck | None, tuple]:
    """(the check, verified suggestions it adds); (None, ()) where the question does not apply."""
    if verdict in (FITS, BY_PREEMPTING):
        return ExactCheck(FOUND, "exact check: fits, and the scheduler finds it", opts.budget), ()
    ev = ctx.evaluator(subj.pending[0]) if subj.pending else None
    if verdict != PLAN_DOES_NOT_FIT or ev is None:
        return None, ()
    scope = _scope(ctx, subj)
    got = question.ask(ev, subj.pending, subj.needed, scope, opts.budget)
    if got is None:
        return None, ()
    now, model = got
    if now.status == solver.FITS:
        if subj.placeable >= subj.min_count:
            text = "exact check: fits, and the scheduler's order finds it; what keeps it pending is not placement"
            if getattr(subj.group.pg, "parent_composite", None) if subj.group is not None else None:
                text = ("exact check: on its own it fits, and the scheduler's order finds it; the check does not "
                        "cover the other groups of its CompositePodGroup")
            return ExactCheck(FOUND, text, opts.budget, now, model=model), ()
        found: tuple[Suggestion, ...] = changes.suggestions(ctx, subj, now, opts.scheduler_config)
        text = "exact check: fits, but kube-scheduler's order does not find it: an assignment exists"
        return ExactCheck(MISSED, text, opts.budget, now, model=model), found
    removable = _removable(ctx, subj)
    evicting = question.ask(ev, subj.pending, subj.needed, scope, opts.budget, removable) if removable else None
    later = evicting[0] if evicting is not None else None
    return ExactCheck(*_unplaced(now, scope, opts.budget), now, later, model), ()


def _unplaced(now: Answer, scope: question.Scope, budget: float) -> tuple[str, str, float]:
    where = f" in any one {scope.key} domain" if scope.key else ""
    if now.status == solver.NO_FIT:
        return DOES_NOT_FIT, (f"exact check: does not fit: no assignment places more than {now.bound} of the "
                              f"{now.needed} pods still needed{where}"), budget
    best = f"the best assignment found places {now.placed} of {now.needed}, no more than {now.bound} are possible"
    return UNKNOWN, f"exact check: unknown within {budget:g} s: {now.note or best}", budget
