"""Constraints whose change would admit the target: a nodeSelector value no node has (with the value that
exists when it looks like a typo: `a100` for `A100`), or a taint the pods do not tolerate.

Each candidate is counted with the engine's static verdicts (how many more nodes the changed pod may use) and
then verified by a re-run on inputs where every pending member carries the change.
"""

from __future__ import annotations

import dataclasses

from wasplan.cluster.model import Pod, Taint, Toleration
from wasplan.cluster.placement import written_tolerations
from wasplan.engine.facade import blocking_taints, label_values, taint_text
from wasplan.explain import manifest, rerun
from wasplan.explain.evidence import Context, Subject
from wasplan.explain.model import Suggestion
from wasplan.suggest import did_you_mean
from wasplan.words import plural

MAX_TAINTS = 3



def _have(n: int) -> str:
    return "has" if n == 1 else "have"

def _opens(ctx: Context, before: Pod, after: Pod) -> int:
    """Nodes the changed pod passes the static filters on that the original did not."""
    ev = ctx.evaluator(before)
    if ev is None:  # a scheduler without a profile places nothing
        return 0
    return int((ev.static_verdict(after).passes & ~ev.static_verdict(before).passes).sum())


def _members(subj: Subject, pod: Pod, test) -> list[Pod]:
    return [p for p in subj.pending if test(p)] or [pod]


def _selector_value(ctx: Context, key: str, value: str) -> str | None:
    """The existing value a missing one most likely meant: same text in another case, else a close spelling."""
    have = label_values(ctx.sim.state.nodes, key)
    if not have or value in have:
        return None
    same = [v for v, _ in have.most_common() if v.lower() == value.lower()]  # the most used spelling first
    return same[0] if same else did_you_mean(value, have)


def _selector(ctx: Context, subj: Subject, pod: Pod, key: str, value: str) -> Suggestion | None:
    fixed = _selector_value(ctx, key, value)
    new_value = fixed
    selector = dict(pod.node_selector)
    if fixed is None:
        selector.pop(key)
    else:
        selector[key] = fixed
    members = _members(subj, pod, lambda p: p.node_selector.get(key) == value)
    keys = {p.key for p in members}
    variant = rerun.with_pods(ctx.inputs, keys, lambda p: dataclasses.replace(
        p, node_selector={**{k: v for k, v in p.node_selector.items() if k != key}, **({key: fixed} if fixed else {})}))
    if not ctx.verifier.places(subj.unit, variant):
        return None
    opens = _opens(ctx, pod, dataclasses.replace(pod, node_selector=selector))
    if fixed is None:
        changes = manifest.pod_changes(ctx.documents, members, ("nodeSelector", key), None, "remove")
        have = label_values(ctx.sim.state.nodes, key)
        lacking = (f"no node has {key}={value} (nodes have {', '.join(v for v, _ in have.most_common(3))})" if have
                   else f"no node has the label {key}")
        return Suggestion("nodeSelector", f"remove nodeSelector {key}={value}",
                          f"{lacking}; without the term {plural(opens, 'more node')} "
                          f"{'qualifies' if opens == 1 else 'qualify'}", changes, opens)
    changes = manifest.pod_changes(ctx.documents, members, ("nodeSelector", key), new_value)
    why = f"no node has {key}={value}; {plural(opens, 'node')} {_have(opens)} {key}={fixed}"
    return Suggestion("nodeSelector", f"set nodeSelector {key}: {fixed} (not {value})", why, changes, opens)


def selectors(ctx: Context, subj: Subject) -> list[Suggestion]:
    out = []
    seen = set()
    for f in (subj.trial.failures.values() if subj.trial else ()):
        for key, value in sorted(f.pod.node_selector.items()):
            if (key, value) in seen or label_values(ctx.sim.state.nodes, key).get(value):
                continue
            seen.add((key, value))
            found = _selector(ctx, subj, f.pod, key, value)
            if found is not None:
                out.append(found)
    return out


def _toleration_for(taint: Taint) -> Toleration:
    if taint.value:
        return Toleration(taint.key, "Equal", taint.value, taint.effect)
    return Toleration(taint.key, "Exists", "", taint.effect)


def _toleration_value(tol: Toleration) -> dict:
    out = {"key": tol.key, "operator": tol.operator}
    if tol.value:
        out["value"] = tol.value
    out["effect"] = tol.effect
    return out


def _toleration(ctx: Context, subj: Subject, pod: Pod, taint: Taint) -> Suggestion | None:
    tol = _toleration_for(taint)
    members = _members(subj, pod, lambda p: p.tolerations == pod.tolerations)
    variant = rerun.with_pods(ctx.inputs, {p.key for p in members},
                              lambda p: dataclasses.replace(p, tolerations=(*p.tolerations, tol)))
    if not ctx.verifier.places(subj.unit, variant):
        return None
    opens = _opens(ctx, pod, dataclasses.replace(pod, tolerations=(*pod.tolerations, tol)))
    changes = manifest.pod_changes(ctx.documents, members, ("tolerations", len(written_tolerations(pod.tolerations))),
                                   _toleration_value(tol), "add")
    why = f"{plural(opens, 'node')} {'carries' if opens == 1 else 'carry'} {taint_text(taint)}; with the toleration the pods may use them"
    return Suggestion("toleration", f"tolerate {taint_text(taint)}", why, changes, opens)


def tolerations(ctx: Context, subj: Subject) -> list[Suggestion]:
    out = []
    for f in (subj.trial.failures.values() if subj.trial else ()):
        for taint, _ in blocking_taints(f.pod, ctx.sim.state.nodes).most_common(MAX_TAINTS):
            found = _toleration(ctx, subj, f.pod, taint)
            if found is not None:
                out.append(found)
                break
    return out


def _with_values(pod: Pod, t: int, e: int, values: tuple[str, ...]) -> Pod:
    """The pod with required node-affinity term `t`, expression `e` asking for `values` instead."""
    a = pod.affinity
    terms = list(a.node_required)
    exprs = list(terms[t].match_expressions)
    exprs[e] = dataclasses.replace(exprs[e], values=values)
    terms[t] = dataclasses.replace(terms[t], match_expressions=tuple(exprs))
    return dataclasses.replace(pod, affinity=dataclasses.replace(a, node_required=tuple(terms)))


def _affinity(ctx: Context, subj: Subject, pod: Pod, t: int, e: int) -> Suggestion | None:
    req = pod.affinity.node_required[t].match_expressions[e]
    fixed = tuple(dict.fromkeys(_selector_value(ctx, req.key, v) or v for v in req.values))
    if fixed == req.values:
        return None
    members = _members(subj, pod, lambda p: p.affinity == pod.affinity)
    variant = rerun.with_pods(ctx.inputs, {p.key for p in members}, lambda p: _with_values(p, t, e, fixed))
    if not ctx.verifier.places(subj.unit, variant):
        return None
    opens = _opens(ctx, pod, _with_values(pod, t, e, fixed))
    path = ("affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms", t,
            "matchExpressions", e, "values")
    changes = manifest.pod_changes(ctx.documents, members, path, list(fixed))
    why = (f"no node has {req.key} in {', '.join(req.values)}; {plural(opens, 'node')} {_have(opens)} {req.key} in "
           f"{', '.join(fixed)}")
    return Suggestion("nodeAffinity", f"node affinity {req.key} In {', '.join(fixed)} (not {', '.join(req.values)})",
                      why, changes, opens)


def affinities(ctx: Context, subj: Subject) -> list[Suggestion]:
    """Required node-affinity `In` expressions whose values no node has, corrected to values that exist."""
    out = []
    for f in (subj.trial.failures.values() if subj.trial else ()):
        a = f.pod.affinity
        if a is None or not a.node_required:
            continue
        for t, term in enumerate(a.node_required):
            for e, req in enumerate(term.match_expressions):
                if req.operator == "In" and not any(label_values(ctx.sim.state.nodes, req.key).get(v)
                                                    for v in req.values):
                    found = _affinity(ctx, subj, f.pod, t, e)
                    if found is not None:
                        out.append(found)
    return out
