"""The group's pending pods as shapes, and per shape the nodes the engine's per-node filters allow.

Only verdicts that no placement of the group's own pods can change go in the allowed nodes: the static plugins
(engine/static.py: NodeUnschedulable, NodeName, TaintToleration, NodeAffinity with its PreFilter), NodePorts
against the running pods, required anti-affinity between the pod and the running pods (both directions), and a
hard spread constraint's key missing on a node (UnschedulableAndUnresolvable). Each is a necessary condition, so
a model built on them is a relaxation of the engine and "no assignment" is a proof. Between the group's own
pods, `conflicts` (host ports, hostname anti-affinity: one node) and `apart` (anti-affinity on another key: one
topology domain) are rules of the program; spread skew and required pod affinity among them are left out and
checked by replaying the witness through the engine (witness.py). Every verdict is the engine plugin's own
function; nothing is re-derived.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from wasplan.cluster.model import Pod
from wasplan.engine.plugins import inter_pod_affinity, node_ports, resources_fit, topology_spread
from wasplan.explain.probe import shape_key

HOSTNAME = "kubernetes.io/hostname"


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
    p = ev.profile
    if pod.host_ports and p.filter_on(node_ports.NAME):
        allowed &= node_ports.fail_reasons(state, pod.host_ports) == 0
    if p.filter_on(topology_spread.NAME) and topology_spread.constraints(pod, hard=True):
        reasons = topology_spread.filter_reasons(state, pod, sv.affinity_ok, sv.taints_ok)
        allowed &= reasons != topology_spread.REASON_LABEL
    if p.filter_on(inter_pod_affinity.NAME) and (_anti_terms(pod) or state.affinity_pods):
        allowed &= _anti_ok(state, _without_affinity(pod), codes)
    shape.allowed = allowed


def _anti_terms(pod: Pod) -> tuple:
    return pod.affinity.anti_required if pod.affinity is not None else ()


def _without_affinity(pod: Pod) -> Pod:
    """The pod with its required pod-affinity terms dropped: those depend on where the group's own pods go."""
    if pod.affinity is None or not pod.affinity.pod_required:
        return pod
    return dataclasses.replace(pod, affinity=dataclasses.replace(pod.affinity, pod_required=()))


def _anti_ok(state, pod: Pod, codes: np.ndarray | None) -> np.ndarray:
    if codes is None:
        return inter_pod_affinity.filter_reasons(state, pod) == 0
    ok = np.zeros(len(state.nodes), dtype=bool)
    for j in np.unique(codes[codes >= 0]).tolist():  # upstream's AssumePlacement: a placement sees only the pods
        mask = codes == j                              # on its own nodes
        ok |= mask & (inter_pod_affinity.filter_reasons(state, pod, within=mask) == 0)
    return ok


def checked_columns(state, shapes: list[Shape], profile) -> np.ndarray:
    """The resource columns NodeResourcesFit compares for any shape (none when the filter is disabled)."""
    if not profile.filter_on(resources_fit.NAME):
        return np.zeros(0, dtype=np.int64)
    cols = set()
    for s in shapes:
        cols |= set(resources_fit.checked_columns(s.req, state.col["pods"]).tolist())
    return np.array(sorted(cols), dtype=np.int64)


def conflicts(shapes: list[Shape]) -> set[tuple[int, int]]:
    """Pairs of shapes (i <= j) that cannot share one node whatever else is free: a host port both want, or a
    required anti-affinity term on the hostname key that one holds against the other (upstream checks both the
    incoming pod's terms and the existing pods' terms). (i, i) means at most one pod of shape i per node."""
    out = set()
    for i, a in enumerate(shapes):
        for j in range(i, len(shapes)):
            b = shapes[j]
            if _ports_clash(a.pod, b.pod) or _anti_hostname(a.pod, b.pod) or _anti_hostname(b.pod, a.pod):
                out.add((i, j))
    return out


def _ports_clash(a: Pod, b: Pod) -> bool:
    return any(node_ports.clashes(w, u) for w in a.host_ports for u in b.host_ports)


def _anti_hostname(owner: Pod, target: Pod) -> bool:
    return any(t.topology_key == HOSTNAME and inter_pod_affinity.term_matches(t, owner, target)
               for t in _anti_terms(owner))


@dataclass(frozen=True)
class DomainRules:
    """Rules between the group's own pods per topology domain of a key: `tags` (nodes x keys) each node's domain
    code per key; `apart`: (key column, pairs of shapes (i <= j; (i, i): one pod per domain) never in one
    domain); `close`: (key column, shapes whose pods all share one domain)."""

    tags: np.ndarray | None = None
    apart: tuple[tuple[int, tuple[tuple[int, int], ...]], ...] = ()
    close: tuple[tuple[int, tuple[int, ...]], ...] = ()


def domain_rules(state, shapes: list[Shape]) -> DomainRules:
    """Required anti-affinity between the group's own pods on a key other than the hostname (either pod's term
    matching the other, as upstream checks both): `apart`. Required pod affinity that the group's pods hold and
    match themselves, when no running pod matches it: upstream lets the first such pod go anywhere its keys
    exist (`_affinity_ok`'s self rule) and every later one only where a matching pod runs, so they all share one
    domain of each key: `close`."""
    apart: dict[str, set[tuple[int, int]]] = {}
    for i, a in enumerate(shapes):
        for j in range(i, len(shapes)):
            for key in _anti_keys(a.pod, shapes[j].pod) | _anti_keys(shapes[j].pod, a.pod):
                apart.setdefault(key, set()).add((i, j))
    close = _close(state, shapes)
    keys = sorted(set(apart) | set(close))
    if not keys:
        return DomainRules()
    tags = np.column_stack([state.labels.codes(k)[0] for k in keys])
    return DomainRules(tags, tuple((keys.index(k), tuple(sorted(v))) for k, v in sorted(apart.items())),
                       tuple((keys.index(k), v) for k, v in sorted(close.items())))


def _anti_keys(owner: Pod, target: Pod) -> set[str]:
    return {t.topology_key for t in _anti_terms(owner)
            if t.topology_key != HOSTNAME and inter_pod_affinity.term_matches(t, owner, target)}


def _close(state, shapes: list[Shape]) -> dict[str, tuple[int, ...]]:
    """Key -> shapes held in one domain of it, for required pod-affinity terms every holder matches itself, that
    only holders of the same terms match among the group, and that no running pod matches."""
    out: dict[str, set[int]] = {}
    for i, s in enumerate(shapes):
        terms = s.pod.affinity.pod_required if s.pod.affinity is not None else ()
        if not terms or not all(inter_pod_affinity.term_matches(t, s.pod, s.pod) for t in terms):
            continue
        matching = [j for j, o in enumerate(shapes) if all(inter_pod_affinity.term_matches(t, s.pod, o.pod)
                                                             for t in terms)]
        if any(shapes[j].pod.affinity is None or shapes[j].pod.affinity.pod_required != terms for j in matching):
            continue
        if any(state.matching_counts(*inter_pod_affinity.term_scope(t, s.pod)).any() for t in terms):
            continue
        for t in terms:
            out.setdefault(t.topology_key, set()).update(matching)
    return {k: tuple(sorted(v)) for k, v in out.items()}
