"""The explain orchestrator: why a PodGroup or pod does not fit, and the smallest verified change that makes it fit.

`explain_units(ctx, units)` measures each unit on the engine's final state (evidence.py, probe.py) and computes
suggestions (suggest_*.py), each verified by re-running the engine on changed inputs (rerun.py).
"""

from __future__ import annotations

import dataclasses
import json
import time

from wasplan.explain import (evidence, suggest_constraints, suggest_devices, suggest_gang, suggest_kueue, suggest_nodes,
                             suggest_priority, suggest_requests, suggest_topology)
from wasplan.explain.evidence import Context
from wasplan.explain.exact.check import ExactOptions, check
from wasplan.explain.model import (DOES_NOT_FIT, GATED, WAITING_FOR_ADMISSION, WAITING_FOR_GROUP, WAITING_FOR_PODS,
                                   Explanation, TargetExplanation)
from wasplan.explain.target import Unit
from wasplan.words import plural

OVER_BUDGET = ("{}: some suggestions may be missing, and a node count may not be the smallest; raise it "
               "(0: no limit)")
UNSUGGESTED = "suggestions are computed for the first pending targets only; name this one as TARGET to get them"
NOT_HONOURED = ("the TopologyAwareWorkloadScheduling gate is off: the plan placed the group without its topology "
                "constraint; the per-domain counts show what the constraint would allow")


def _suggestions(ctx: Context, subj: evidence.Subject, verdict: str, shapes: tuple) -> tuple:
    if verdict == WAITING_FOR_PODS:
        found = [suggest_gang.min_count(ctx, subj), *suggest_devices.claim_names(ctx, subj)]
    elif verdict == DOES_NOT_FIT:
        found = [suggest_gang.min_count(ctx, subj), *suggest_devices.claim_names(ctx, subj),
                 *suggest_devices.suggestions(ctx, subj, shapes),
                 *_nodes_or_requests(ctx, subj),
                 *suggest_constraints.selectors(ctx, subj), *suggest_constraints.affinities(ctx, subj),
                 *suggest_constraints.tolerations(ctx, subj), suggest_topology.relax(ctx, subj),
                 suggest_gang.evict(ctx, subj), suggest_priority.priority(ctx, subj)]
    elif verdict == WAITING_FOR_ADMISSION:
        found = suggest_kueue.suggestions(ctx, subj)
    else:
        found = []
    return tuple(s for s in found if s is not None)


# a request cut up to this share is listed before adding nodes (the smaller change), a larger one after
SMALL_CUT = 0.10


def _nodes_or_requests(ctx: Context, subj: evidence.Subject) -> list:
    """New nodes and smaller requests, the smaller change first: a request cut of at most a tenth comes before
    buying nodes (kindnet's 100m off a 4-CPU pod), a larger one after."""
    nodes = suggest_nodes.add_nodes(ctx, subj)
    small, large = [], []
    for cut, s in suggest_requests.requests(ctx, subj):
        (small if cut <= SMALL_CUT else large).append(s)
    return [*small, nodes, *large]


def _notes(ctx: Context, subj: evidence.Subject, verdict: str, topo, suggestions: tuple) -> tuple[str, ...]:
    notes = []
    if verdict == WAITING_FOR_PODS and subj.exist < subj.min_count:
        notes.append(f"create {plural(subj.min_count - subj.exist, 'more pod')} of the group, or lower minCount")
    parent = getattr(subj.group.pg, "parent_composite", None) if subj.group is not None else None
    if verdict == DOES_NOT_FIT and subj.placeable >= subj.wanted:
        held = evidence.composite_summary(ctx, subj, parent) if parent else "what the plan placed before it"
        notes.append(f"on its own the group fits the cluster the plan leaves ({subj.placeable} of minCount "
                     f"{subj.min_count} placeable); it is held back by {held}")
    if verdict == WAITING_FOR_GROUP:
        pod = ctx.sim.world.pods[subj.unit.key].pod
        notes.append(f"create the PodGroup {pod.namespace}/{pod.pod_group} (or fix spec.schedulingGroup.podGroupName)")
    if verdict == GATED:
        notes.append("the pod enters scheduling once its spec.schedulingGates are removed")
    if verdict == WAITING_FOR_ADMISSION and ctx.kueue_documents:
        notes.append("Kueue holds it (the plan ran Kueue's admission); each suggestion is verified by re-running "
                     "that admission, and explain with --assume-admitted shows whether its pods fit once admitted")
    elif verdict == WAITING_FOR_ADMISSION:
        notes.append("Kueue admits it once its ClusterQueue has quota for it, which the plan does not model; "
                     "explain with --assume-admitted to see whether it fits once admitted")
    unknown = sorted({p.scheduler_name for p in subj.pending if ctx.evaluator(p) is None})
    if unknown:  # a blocker no node change can lift
        notes.append(f"no kube-scheduler profile is named {', '.join(map(repr, unknown))}: its pods wait for "
                     "another scheduler (or a --scheduler-config with that profile)")
    if topo is not None and not topo.honoured:
        notes.append(NOT_HONOURED)
    if not ctx.plan.preemptions and any(s.kind == "evict" for s in suggestions):
        notes.append("the plan did not preempt for it; the lower-priority pods to end are suggested as a change")
    return tuple(notes)


def _same_edit(change) -> tuple:
    """What a change does, for spotting the same edit found twice: a list of named entries by its names' order
    (one finder may write defaults the other leaves out)."""
    value = change.value
    if isinstance(value, list) and all(isinstance(v, dict) and "name" in v for v in value):
        value = tuple(v["name"] for v in value)
    else:
        value = json.dumps(value, sort_keys=True, default=str)
    return change.action, change.file, change.obj, change.field_path, value


def _distinct(suggestions: tuple) -> tuple:
    """The suggestions without a later one making the same edits as an earlier one (the exact check's
    `firstAvailable` order and the device evidence's can be the same change)."""
    seen, out = set(), []
    for s in suggestions:
        key = (s.kind, tuple(sorted(_same_edit(c) for c in s.changes)))
        if key not in seen:
            seen.add(key)
            out.append(s)
    return tuple(out)


def _fix_sites(subj: evidence.Subject) -> tuple:
    """Where the unit's pods are written: their controller's pod template, or their own document."""
    sites = set()
    for pod in subj.pending:
        doc, prefix = pod.template if pod.template is not None else (pod.source, ())
        sites.add((id(doc), prefix) if doc is not None else ("pod", pod.key))
    return tuple(sorted(sites, key=repr))


def _reuse_key(unit: Unit, subj: evidence.Subject, verdict: str, summary: str, shapes: tuple, topo) -> str:
    """Pods with the same evidence, made from the same template (or written in the same document), get the same
    suggestions: the edits are the same edits, and their verification the same re-runs. A PodGroup's fixes name
    the group itself (its minCount, its Job), so a PodGroup is only ever like itself."""
    blind = tuple(dataclasses.replace(s, pods=()) for s in shapes)
    alone = unit.key if unit.kind != "Pod" else ""
    return repr((unit.kind, alone, verdict, summary, evidence.gang(subj), blind, topo, _fix_sites(subj)))


def explain_unit(ctx: Context, unit: Unit, suggest: bool = True, exact: ExactOptions | None = None,
                 found_for: dict | None = None, limit: int | None = None) -> TargetExplanation:
    """One target. `found_for` maps what earlier targets looked like (`_reuse_key`) to their suggestions, exact
    check and notes: a target that looks the same takes them instead of new re-runs, so a Deployment's 50
    identical pending pods cost one search and read as one block. With `found_for`, `limit` bounds how many
    distinct looks get suggestions at all."""
    subj = evidence.subject(ctx, unit)
    evidence.run_trial(ctx, subj)
    verdict, summary = evidence.verdict(ctx, subj)
    topo = subj.topology
    ns, _, name = unit.key.partition("/")
    skipped_before = ctx.verifier.skipped
    shapes = evidence.shapes(ctx, subj) if subj.trial else ()
    victims = tuple(v.to_dict() for v in evidence.preempted_for(ctx, subj))
    key = _reuse_key(unit, subj, verdict, summary, shapes, topo) if found_for is not None else ""
    if found_for is not None and key in found_for:
        suggestions, exact_check, notes = found_for[key]
        return TargetExplanation(unit.kind, ns, name, verdict, summary, evidence.gang(subj), shapes, topo, victims,
                                 suggestions, notes, exact_check)
    if found_for is not None and limit is not None and len(found_for) >= limit:
        suggest, exact = False, None
    exact_check, exact_found = check(ctx, subj, verdict, exact) if exact is not None else (None, ())
    suggestions = _distinct(exact_found + _suggestions(ctx, subj, verdict, shapes)) if suggest else ()
    notes = _notes(ctx, subj, verdict, topo, suggestions) + (() if suggest else (UNSUGGESTED,))
    if ctx.verifier.skipped > skipped_before:
        notes += (OVER_BUDGET.format(ctx.verifier.budget.note(ctx.verifier.exhausted)),)
    if suggest and found_for is not None:
        found_for[key] = (suggestions, exact_check, notes)
    return TargetExplanation(unit.kind, ns, name, verdict, summary, evidence.gang(subj), shapes, topo, victims,
                             suggestions, notes, exact_check)


def explain_units(ctx: Context, units: list[Unit], suggest_limit: int | None = None,
                  exact: ExactOptions | None = None) -> Explanation:
    """Explain every unit; with `suggest_limit`, only the first that many distinct targets get (re-run verified)
    suggestions and the exact check, so explaining a whole backlog stays quick; a unit that looks like one
    explained before takes its suggestions (`explain_unit`). `exact` None skips the exact check."""
    start = time.perf_counter()
    found_for: dict = {}
    targets = tuple(explain_unit(ctx, u, True, exact, found_for, suggest_limit) for u in units)
    timings = {"explainSeconds": time.perf_counter() - start, "verificationRuns": ctx.verifier.runs,
               "verificationSeconds": ctx.verifier.seconds, "verificationSkipped": ctx.verifier.skipped,
               "exactSeconds": exact.seconds if exact is not None else 0.0}
    return Explanation(ctx.plan.k8s_version, ctx.plan.nodes, targets, timings)
