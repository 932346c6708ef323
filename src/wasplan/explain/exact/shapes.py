"""The group's pending pods as shapes, and per shape the nodes the engine's per-node filters allow.

Only verdicts that no placement of the group's own pods can change go in the allowed nodes: the static plugins
(engine/cycle/static.py: NodeUnschedulable, NodeName, TaintToleration, NodeAffinity with its PreFilter), and each
plugin's `exact_allowed` in its own module, read from the registry (NodePorts against the running pods, required
anti-affinity between the pod and the running pods in both directions, a hard spread constraint's key missing on
a node). Each is a necessary condition, so a model built on them is a relaxation of the engine and "no
assignment" is a proof. Between the group's own pods, `conflicts` (each plugin's `exact_conflict`: host ports,
hostname anti-affinity: one node) here and the per-domain rules of domainrules.py are rules of the program; what
those leave out is checked by replaying the witness through the engine (witness.py). Every verdict is the engine
plugin's own function; nothing is re-derived.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wasplan.cluster.model import Pod
from wasplan.engine.facade import registry, resources_fit, shape_key


@dataclass
class Shape:
    """Pods with identical requests and constraints: one integer variable per (shape, node class)."""

    members: list[Pod]  # in cycle order; the first stands for all
    req: np.ndarray  # the engine's request vector (pod slot included)
    allowed: np.ndarray  # bool per node: every per-node necessary filter passes
    origin: int = -1  # the shape it was split from (devices.py); shapes with one origin share its pods
    variant: tuple = ()  # the firstAvailable subrequests its pods' own claims use (devices.py), () for none
    family: int = -1  # shapes of one family are variants of the same pods: together they place at most `count`

    @property
    def pod(self) -> Pod:
        return self.members[0]

    @property
    def count(self) -> int:
        return len(self.members)


def group(pods: list[Pod], labels_matter: bool) -> list[Shape]:
    """Pods grouped by the explainer's shape key, in cycle order of their first member."""
    out: dict[tuple, list[Pod]] = {}
    for pod in pods:
        out.setdefault(shape_key(pod, labels_matter), []).append(pod)
    return [Shape(ps, np.zeros(0), np.zeros(0, dtype=bool)) for ps in out.values()]


def fill(ev, shape: Shape, codes: np.ndarray | None) -> None:
    """The request vector and the allowed nodes of `shape`, from the evaluator's own caches and plugins.
    `codes`: each node's topology domain (-1: none) when the engine evaluates the group inside one domain at a
    time (each domain then seen on its own), None when it sees the whole cluster."""
    state, pod = ev.state, shape.pod
    shape.req = state.vectors(pod)[0]
    sv = ev.static_verdict(pod)
    allowed = np.zeros(len(state.nodes), dtype=bool) if sv.prefilter_msg else sv.passes.copy()
    for plugin in registry.EXACT:  # each plugin's necessary condition, beside its filter (registry.py)
        if ev.profile.filter_on(plugin.name):
            ok = plugin.exact_allowed(state, pod, sv, codes)
            if ok is not None:
                allowed &= ok
    shape.allowed = allowed


def checked_columns(state, shapes: list[Shape], profile) -> np.ndarray:
    """The resource columns NodeResourcesFit compares for any shape (none when the filter is disabled)."""
    if not profile.filter_on(resources_fit.NAME):
        return np.zeros(0, dtype=np.int64)
    cols = set()
    for s in shapes:
        cols |= set(resources_fit.checked_columns(s.req, state.col["pods"]).tolist())
    return np.array(sorted(cols), dtype=np.int64)


def conflicts(shapes: list[Shape]) -> set[tuple[int, int]]:
    """Pairs of shapes (i <= j) that cannot share one node whatever else is free, by every plugin's
    `exact_conflict` (a host port both want; a required anti-affinity term on the hostname key that one holds
    against the other). (i, i) means at most one pod of shape i per node."""
    out = set()
    for i, a in enumerate(shapes):
        for j in range(i, len(shapes)):
            b = shapes[j]
            if any(conflict(a.pod, b.pod) for conflict in registry.CONFLICTS):
                out.add((i, j))
    return out
