"""Trial placements on the engine's final state, and the evidence recorded where a member stops fitting.

A trial tries a group's pending members in cycle order with the engine's own `find_node`, reserving each one
that fits so later members see it, exactly as a PodGroup cycle does, then rolls every reservation back through
the state's undo journal. Where a member finds no node, the engine's `Diagnosis` (first failing plugin per
node, the upstream FitError text) and the recorder's per-plugin verdicts are read at that very moment: what the
report shows is what the scheduler saw, not a re-derivation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from wasplan.cluster.model import Pod
from wasplan.engine.facade import Diagnosis, REASONS, recorder, registry, resources_fit, shape_key
from wasplan.explain.model import CloseNode, Elimination, Lack, ResourceTotal

CLOSEST = 3


@dataclass
class Failure:
    """A pod shape's first failing member and what the engine recorded for it."""

    pod: Pod
    diagnosis: Diagnosis | None
    verdicts: recorder.PluginVerdicts
    free: np.ndarray  # alloc - requested at that moment
    pods: list[str] = field(default_factory=list)  # every member of this shape that did not fit
    mask: np.ndarray | None = None  # the nodes the trial looked at (one topology domain), None = all


@dataclass
class Trial:
    placed: int = 0
    failures: dict[tuple, Failure] = field(default_factory=dict)  # shape -> first failure, in cycle order


def trial(ev, pods: list[Pod], mask: np.ndarray | None = None, evidence: bool = True) -> Trial:
    """Place `pods` in order on the current state (restricted to `mask`), then undo every reservation.
    A shape that failed once is not retried (reservations since only took room away), unless the pod needs
    other pods nearby (required pod affinity), which a reservation can satisfy."""
    state = ev.state
    mark = state.mark()
    out = Trial()
    labels_matter = bool(state.affecting_pods)
    try:
        for pod in pods:
            key = shape_key(pod, labels_matter)
            if key in out.failures and not registry.wants_company(pod):
                out.failures[key].pods.append(pod.key)
                continue
            decision = ev.find_node(pod, mask)
            if decision.node is not None:
                state.reserve(pod, decision.node)
                out.placed += 1
            elif key in out.failures:
                out.failures[key].pods.append(pod.key)
            else:
                out.failures[key] = _failure(ev, pod, decision.diagnosis, evidence, mask)
                out.failures[key].pods.append(pod.key)
    finally:
        state.rollback(mark)
    return out


def _failure(ev, pod: Pod, diagnosis: Diagnosis | None, evidence: bool, mask: np.ndarray | None = None) -> Failure:
    state = ev.state
    verdicts = recorder.record(ev, pod) if evidence else None
    return Failure(pod, diagnosis, verdicts, state.alloc - state.requested if evidence else None, mask=mask)


def now(ev, pod: Pod, mask: np.ndarray | None = None) -> Failure:
    """The recorder's verdicts for `pod` on the current state (nodes outside `mask` left out), placing nothing."""
    return _failure(ev, pod, None, True, mask)


def _seen(f: Failure) -> np.ndarray:
    return np.ones(len(f.verdicts.nodes), dtype=bool) if f.mask is None else f.mask


def eligible(f: Failure) -> np.ndarray:
    """Nodes every enabled non-resource filter accepts, each evaluated on its own."""
    v = f.verdicts
    ok = _seen(f).copy()
    for plugin, arr in v.single.items():
        if plugin in v.enabled:
            ok &= arr == 0
    return ok


def _reasons(v: recorder.PluginVerdicts, plugin: str, seen: np.ndarray) -> dict[str, int]:
    """The plugin's reason histogram over the nodes the trial looked at."""
    if plugin == resources_fit.NAME:
        return {REASONS.text[resources_fit.reason_ids(c, False)]: int((v.fit_lacking[:, j] & seen).sum())
                for j, c in enumerate(v.fit_columns) if (v.fit_lacking[:, j] & seen).any()}
    arr = v.single[plugin]
    ids, hits = np.unique(arr[(arr != 0) & seen], return_counts=True)
    return {REASONS.text[i]: int(n) for i, n in zip(ids.tolist(), hits.tolist())}


def eliminations(f: Failure, nodes: list) -> tuple[Elimination, ...]:
    """Every enabled filter plugin that rejects nodes on its own, most nodes first."""
    v, seen = f.verdicts, _seen(f)
    out = []
    for plugin in registry.FILTERS:
        if plugin not in v.enabled:
            continue
        rejected = v.rejects(plugin) & seen
        if rejected.any():
            reasons = tuple(sorted(_reasons(v, plugin, seen).items(), key=lambda kv: (-kv[1], kv[0])))
            out.append(Elimination(plugin, int(rejected.sum()), reasons,
                                   registry.describe(plugin, f.pod, [n for n, s in zip(nodes, seen.tolist()) if s])))
    return tuple(sorted(out, key=lambda e: -e.nodes))


def closest(f: Failure, names: tuple[str, ...], resource_names: tuple[str, ...]) -> tuple[CloseNode, ...]:
    """Nodes that lack only resources, the smallest relative shortfall first."""
    v = f.verdicts
    lacking = v.fit_lacking
    if not lacking.size:
        return ()
    rows = np.flatnonzero(eligible(f) & lacking.any(axis=1))
    cols = [resource_names.index(c) for c in v.fit_columns]
    need = np.array([_request(f.pod, c) for c in v.fit_columns], dtype=np.int64)
    free = f.free[rows][:, cols]
    short = np.clip(need - free, 0, None) / np.maximum(need, 1)
    order = sorted(range(len(rows)), key=lambda k: (int(lacking[rows[k]].sum()), float(short[k].sum()),
                                                    names[rows[k]]))
    out = []
    for k in order[:CLOSEST]:
        lacks = tuple(Lack(c, int(need[j]), int(free[k, j])) for j, c in enumerate(v.fit_columns)
                      if lacking[rows[k], j])
        out.append(CloseNode(names[rows[k]], lacks))
    return tuple(out)


def _request(pod: Pod, resource: str) -> int:
    return 1 if resource == "pods" else pod.requests.get(resource, 0)


def totals(f: Failure, resource_names: tuple[str, ...], needed: int) -> tuple[ResourceTotal, ...]:
    """Per requested resource: free everywhere, free where the pod is otherwise allowed, and how much of that
    sits in fragments smaller than one pod's request (free on a node, yet useless to this pod)."""
    ok = eligible(f)
    out = []
    for name, amount in sorted(f.pod.requests.items()):
        if name == "pods" or amount <= 0 or name not in resource_names:
            continue
        free = np.clip(f.free[:, resource_names.index(name)], 0, None)
        small = ok & (free < amount)
        out.append(ResourceTotal(name, amount * needed, int(free.sum()), int(free[ok].sum()), int(free[small].sum())))
    return tuple(out)

