"""The exact feasibility check: could the group fit at all, whatever the scheduler's order?

kube-scheduler places a gang one pod at a time and never revisits a choice (podGroupSchedulingDefaultAlgorithm,
mirrored by engine/cycle/groupcycle.py; kubernetes/kubernetes issue 138765 shows it for DRA devices), so "pending"
means either that no assignment of the pods exists, or that one exists and the scheduler's greedy order does
not find it. The
check asks an integer program built from the engine's own data (question.py) on the cluster the plan leaves,
and answers one of:

* DoesNotFit — no assignment places the pods still needed; with bounds a person can check (bounds.py), the
  same question with every lower-priority pod removable (narrowed to the fewest evictions), and with running
  pods of at most its priority movable (moves.py, the fewest moves, verified by re-planning);
* FitsAndFound — an assignment exists and the scheduler finds it (the plan places the group, or the trial
  placement does and something else holds it back);
* FitsButMissed — an assignment exists (the witness, replayed through the engine) and the trial placement in
  cycle order falls short; changes that let the engine find it are verified by re-running the plan
  (changes.py);
* Unknown — the solver ran out of its budget before deciding.

A PodGroup in a CompositePodGroup tree is asked on its own and then as part of its tree (tree.py), and the
tree's answer is the verdict: its siblings share the nodes.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field

from wasplan.engine.facade import bound_rows, pinned_domain, topology_key
from wasplan.explain.evidence import Context, Subject
from wasplan.explain.exact import changes, moves, question, solver, tree
from wasplan.explain.exact.budget import DEFAULT_BUDGET
from wasplan.explain.exact.result import DOES_NOT_FIT, FOUND, MISSED, UNKNOWN, Answer, ExactCheck, TreeAnswer
from wasplan.explain.model import BY_PREEMPTING, FITS, Suggestion
from wasplan.explain.model import DOES_NOT_FIT as PLAN_DOES_NOT_FIT
from wasplan.words import plural


@dataclass
class ExactOptions:
    """What the command asked for, and what the check spent (`seconds`, for the explanation's timings)."""

    budget: float = DEFAULT_BUDGET
    scheduler_config: str | None = None  # the --scheduler-config file, where a scoring change would go
    trees: dict = field(default_factory=dict, compare=False)  # root key -> TreeAnswer, asked once per command
    seconds: float = 0.0


def _scope(ctx: Context, subj: Subject) -> question.Scope:
    gs = subj.group
    key = topology_key(gs.pg) if gs is not None and ctx.honours_topology() else None
    rows = bound_rows(ctx.sim.state, ctx.sim.world.live_members(gs)) if key is not None else []
    return question.Scope(key, rows)


def _removable(ctx: Context, subj: Subject) -> list:
    """Placed pods of lower priority than the target (its own members excluded), in name order; not pods with
    ResourceClaims (the engine keeps a removed pod's devices allocated, as moves.py explains)."""
    world = ctx.sim.world
    prio = subj.group.priority if subj.group is not None else world.pods[subj.unit.key].priority
    own = set(subj.group.members) if subj.group is not None else {subj.unit.key}
    return [world.pods[k].pod for k in sorted(ctx.sim.state.placed)
            if k not in own and k in world.pods and world.pods[k].priority < prio
            and not world.pods[k].pod.resource_claims]


def check(ctx: Context, subj: Subject, verdict: str, opts: ExactOptions) -> tuple[ExactCheck | None, tuple]:
    """(the check, verified suggestions it adds); (None, ()) where the question does not apply."""
    start = time.perf_counter()
    try:
        return _check(ctx, subj, verdict, opts)
    finally:
        opts.seconds += time.perf_counter() - start


def _check(ctx: Context, subj: Subject, verdict: str, opts: ExactOptions) -> tuple[ExactCheck | None, tuple]:
    if verdict in (FITS, BY_PREEMPTING):
        how = " once the plan's preemptions make room" if verdict == BY_PREEMPTING else ""
        return ExactCheck(FOUND, f"exact check: fits{how}, and the scheduler finds it", opts.budget), ()
    ev = ctx.evaluator(subj.pending[0]) if subj.pending else None
    if verdict != PLAN_DOES_NOT_FIT or ev is None:
        return None, ()
    own, found = _own(ctx, subj, ev, opts)
    root = _root(ctx, subj)
    if own is None or root is None:
        return own, found
    if root not in opts.trees:
        opts.trees[root] = tree.ask(ctx, ev, root, opts.budget)
    whole = opts.trees[root]
    if whole is None:
        return own, found
    verdict, text = _tree_verdict(whole, opts.budget)
    if verdict == MISSED:
        found = changes.for_tree(ctx, subj, whole, opts.scheduler_config)
    alone = {solver.FITS: "fits", solver.NO_FIT: f"does not fit (at most {own.now.bound} of {plural(own.now.needed, 'pod')})",
             solver.UNKNOWN: "unknown"}[own.now.status]
    return dataclasses.replace(own, verdict=verdict, summary=text, tree=whole,
                               own_summary=f"on its own, with the rest of the tree where the plan left it, it {alone}"
                               ), found


def _own(ctx: Context, subj: Subject, ev, opts: ExactOptions) -> tuple[ExactCheck | None, tuple]:
    """The group's own question (its siblings in a tree left where the plan put them)."""
    scope = _scope(ctx, subj)
    got = question.ask(ev, subj.pending, subj.needed, scope, opts.budget)
    if got is None:
        return None, ()
    now, model = got
    if now.status == solver.FITS:
        if subj.placeable >= subj.min_count:
            text = "exact check: fits, and the scheduler's order finds it; what keeps it pending is not placement"
            return ExactCheck(FOUND, text, opts.budget, now, model=model), ()
        found: tuple[Suggestion, ...] = changes.suggestions(ctx, subj, now, opts.scheduler_config)
        text = "exact check: fits, but kube-scheduler's order does not find it: an assignment exists"
        return ExactCheck(MISSED, text, opts.budget, now, model=model), found
    removable = _removable(ctx, subj)
    evicting = question.ask(ev, subj.pending, subj.needed, scope, opts.budget, removable) if removable else None
    later = evicting[0] if evicting is not None else None
    if later is not None and later.status == solver.FITS and scope.key is None:
        later = _fewest(ctx, subj, ev, later, removable, opts.budget)
    shuffled = moves.ask(ctx, subj, ev, opts.budget) if scope.key is None else None
    verdict, text = _unplaced(now, scope, opts.budget, ev.state)
    if shuffled is not None and shuffled.verified:
        text += f"; moving {plural(len(shuffled.moves), 'running pod')} makes it fit"
    elif later is not None and later.status == solver.FITS:
        text += "; with lower-priority pods removed it would fit"
    found = tuple(x for x in (changes.move(ctx, shuffled),) if x is not None) if shuffled is not None else ()
    return ExactCheck(verdict, text, opts.budget, now, later, model, with_moves=shuffled), found


def _fewest(ctx: Context, subj: Subject, ev, later: Answer, removable: list, budget: float) -> Answer:
    """The eviction answer with the fewest evictions (and its assignment), when that program decides it."""
    fewest = moves.ask(ctx, subj, ev, budget, removable, relocate=False)
    if fewest is None or fewest.status != solver.FITS:
        return later
    return dataclasses.replace(later, witness=fewest.witness, evicts=fewest.evicts, fewest=True,
                               verified=fewest.verified)


def _root(ctx: Context, subj: Subject) -> str | None:
    """The root CompositePodGroup of the group's tree, when the plan builds trees and the root exists."""
    forest = ctx.sim.cycles.forest
    if subj.group is None or not forest.on:
        return None
    root = forest.root_key(subj.group)
    return root if root in ctx.sim.world.composites else None


def _tree_verdict(whole: TreeAnswer, budget: float) -> tuple[str, str]:
    head = f"exact check of its CompositePodGroup {whole.root}: "
    if whole.status == solver.FITS:
        return MISSED, (head + f"the tree fits ({', '.join(whole.groups)} scheduled together), but "
                        "kube-scheduler's order does not find it")
    if whole.status == solver.NO_FIT:
        return DOES_NOT_FIT, (head + f"does not fit: no assignment schedules more than {whole.bound} of the "
                              f"{plural(whole.needed, 'group')} it needs")
    best = (f"the best assignment found schedules {whole.placed} of {whole.needed}, no more than {whole.bound} "
            "are possible")
    return UNKNOWN, head + (f"unknown: {whole.note}" if whole.note else f"unknown within {budget:g} s: {best}")


def _unplaced(now: Answer, scope: question.Scope, budget: float, state) -> tuple[str, str]:
    pinned = pinned_domain(state, scope.key, scope.bound_rows) if scope.key else None
    where = f" in any one {scope.key} domain" if scope.key else ""
    if pinned is not None:
        where = f" in {scope.key}={pinned}, where its bound members run"
    if now.status == solver.NO_FIT:
        return DOES_NOT_FIT, (f"exact check: does not fit: no assignment places more than {now.bound} of the "
                              f"{plural(now.needed, 'pod')} still needed{where}")
    if now.note:  # the solver decided, the engine's replay did not confirm its assignment
        return UNKNOWN, f"exact check: unknown: {now.note}"
    best = f"the best assignment found places {now.placed} of {now.needed}, no more than {now.bound} are possible"
    return UNKNOWN, f"exact check: unknown within {budget:g} s: {best}"
