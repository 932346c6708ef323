"""InterPodAffinity filter and score (upstream pkg/scheduler/framework/plugins/interpodaffinity: filtering.go,
scoring.go).

Filter, in upstream order: the pod's required affinity (every term needs a matching pod in the node's domain;
the first pod of a self-affine series may go anywhere its terms' keys exist — UnschedulableAndUnresolvable
otherwise), its required anti-affinity, then existing pods' required anti-affinity against the pod. Score: the
pod's preferred terms against existing pods, existing pods' preferred terms (and required affinity terms, with
hardPodAffinityWeight) against the pod, summed per topology domain and normalised (raw - min)·100/(max - min).
Counts come from the state's pod index (per-node counts per selector, and the terms placed pods carry).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from wasplan.cluster.model import LabelSelector, Pod, PodAffinityTerm
from wasplan.engine.pluginapi.exactrules import DomainPart
from wasplan.engine.pluginapi.selectors import selector_matches, with_label_keys
from wasplan.engine.pluginapi.status import REASONS, Code

NAME = "InterPodAffinity"
HOSTNAME = "kubernetes.io/hostname"
REASON_AFFINITY = REASONS.intern("node(s) didn't match pod affinity rules", Code.UNRESOLVABLE)
REASON_ANTI = REASONS.intern("node(s) didn't match pod anti-affinity rules", Code.UNSCHEDULABLE)
REASON_EXISTING = REASONS.intern("node(s) didn't satisfy existing pods anti-affinity rules", Code.UNSCHEDULABLE)


def has_terms(pod: Pod) -> bool:
    a = pod.affinity
    return a is not None and bool(a.pod_required or a.pod_preferred or a.anti_required or a.anti_preferred)


def term_scope(term: PodAffinityTerm, owner: Pod) -> tuple[frozenset | None, LabelSelector | None]:
    """(namespaces the term selects — None for all —, the selector with matchLabelKeys/mismatchLabelKeys merged)."""
    ns_sel = term.namespace_selector
    if ns_sel is not None and not ns_sel.match_labels and not ns_sel.match_expressions:
        scope = None  # an empty namespaceSelector selects every namespace
    elif term.namespaces or ns_sel is not None:
        scope = frozenset(term.namespaces)  # a non-empty namespaceSelector needs Namespace objects: not modelled
    else:
        scope = frozenset((owner.namespace,))
    return scope, with_label_keys(term.label_selector, owner.labels, term.match_label_keys, term.mismatch_label_keys)


def term_matches(term: PodAffinityTerm, owner: Pod, target: Pod) -> bool:
    """Does `target` match `term`, a term written on pod `owner`?"""
    scope, selector = term_scope(term, owner)
    return (scope is None or target.namespace in scope) and selector_matches(selector, target.labels)


def _per_domain(state, key: str, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(for each node, the sum of `counts` over the nodes of its `key` domain; whether the node has `key`)."""
    codes, domains = state.labels.codes(key)
    has = codes >= 0
    if not len(domains):
        return np.zeros(len(codes), dtype=np.int64), has
    totals = np.bincount(codes[has], weights=counts[has], minlength=len(domains)).astype(np.int64)
    return np.where(has, totals[np.maximum(codes, 0)], 0), has


def _inside(counts: np.ndarray, within: np.ndarray | None) -> np.ndarray:
    """Pods on nodes outside the snapshot (a topology placement's nodes) are not seen, as upstream's
    AssumePlacement snapshot does not list them."""
    return counts if within is None else np.where(within, counts, 0)


def _term_counts(state, term: PodAffinityTerm, owner: Pod, within=None) -> np.ndarray:
    scope, selector = term_scope(term, owner)
    return _inside(state.matching_counts(scope, selector), within)


def _all_terms_counts(state, terms, pod: Pod, within=None) -> np.ndarray:
    """Per node, placed pods matching every one of `terms` (what upstream's affinityCounts counts)."""
    if len(terms) == 1:
        return _term_counts(state, terms[0], pod, within)
    counts = np.zeros(len(state.nodes), dtype=np.int64)
    for placed in state.placed.values():
        if all(term_matches(t, pod, placed.pod) for t in terms):
            counts[placed.node] += 1
    return _inside(counts, within)


def _affinity_ok(state, pod: Pod, terms, within=None) -> np.ndarray:
    counts = _all_terms_counts(state, terms, pod, within)
    all_keys = np.ones(len(state.nodes), dtype=bool)
    pods_exist = np.ones(len(state.nodes), dtype=bool)
    any_counted = False
    for t in terms:
        per_node, has = _per_domain(state, t.topology_key, counts)
        all_keys &= has
        pods_exist &= per_node > 0
        any_counted = any_counted or bool(counts[has].any())
    # the first pod of a series that is affine to itself may go anywhere the terms' keys exist
    self_ok = not any_counted and all(term_matches(t, pod, pod) for t in terms)
    return all_keys & (pods_exist | self_ok)


def _existing_anti(state, pod: Pod, within=None) -> np.ndarray:
    blocked = np.zeros(len(state.nodes), dtype=bool)
    for entry in state.pod_index.terms.values():
        counts = _inside(entry.counts, within)
        if entry.kind != "anti_required" or not counts.any():
            continue
        if term_matches(entry.term, entry.owner, pod):
            codes, domains = state.labels.codes(entry.term.topology_key)
            hit = np.zeros(len(domains) + 1, dtype=bool)  # the extra slot stands for "no such label"
            hit[codes[(counts > 0) & (codes >= 0)]] = True
            blocked |= hit[codes]
    return blocked


def filter_reasons(state, pod: Pod, within: np.ndarray | None = None) -> np.ndarray:
    """`within`: the snapshot's nodes (a topology placement), None = every node."""
    out = np.zeros(len(state.nodes), dtype=np.int32)
    a = pod.affinity
    if a is not None and a.pod_required:
        out[~_affinity_ok(state, pod, a.pod_required, within)] = REASON_AFFINITY
    for t in (a.anti_required if a is not None else ()):
        per_node, has = _per_domain(state, t.topology_key, _term_counts(state, t, pod, within))
        out[(out == 0) & has & (per_node > 0)] = REASON_ANTI
    if state.affecting_pods:
        out[(out == 0) & _existing_anti(state, pod, within)] = REASON_EXISTING
    return out


def raw_scores(state, pod: Pod, hard_weight: int = 1, within: np.ndarray | None = None):
    """Σ weights per topology domain, as a per-node array; None when no term is involved (plugin skipped)."""
    a = pod.affinity
    mine = [(w.term, w.weight) for w in (a.pod_preferred if a else ())]
    mine += [(w.term, -w.weight) for w in (a.anti_preferred if a else ())]
    if not mine and not state.affecting_pods:
        return None
    out = np.zeros(len(state.nodes), dtype=np.int64)
    for term, weight in mine:
        out += weight * _per_domain(state, term.topology_key, _term_counts(state, term, pod, within))[0]
    signs = {"pod_required": hard_weight, "pod_preferred": 1, "anti_preferred": -1}
    for entry in state.pod_index.terms.values():
        sign = signs.get(entry.kind)
        counts = _inside(entry.counts, within)
        if not sign or not counts.any() or not term_matches(entry.term, entry.owner, pod):
            continue
        weight = sign if entry.kind == "pod_required" else sign * entry.weight
        out += weight * _per_domain(state, entry.term.topology_key, counts)[0]
    return out


def normalize(raw: np.ndarray, feasible: np.ndarray) -> np.ndarray:
    if not feasible.any():
        return np.zeros(len(raw), dtype=np.int64)
    lo, hi = int(raw[feasible].min()), int(raw[feasible].max())
    if hi - lo <= 0:
        return np.zeros(len(raw), dtype=np.int64)
    return (100 * ((raw - lo) / (hi - lo))).astype(np.int64)


def profile_args(args: dict) -> dict:
    """The profile fields the plugin's pluginConfig args set: hardPodAffinityWeight, when given."""
    if "hardPodAffinityWeight" not in args:
        return {}
    return {"hard_pod_affinity_weight": int(args["hardPodAffinityWeight"])}


# ---- what the rest of the engine and explain read from the plugin (registry.py) --------------------------------
def counts_pods(pod: Pod) -> bool:
    """Whether the pod's verdict counts other pods by their labels (required affinity or anti-affinity)."""
    a = pod.affinity
    return a is not None and bool(a.pod_required or a.anti_required)


def helped_by_bound_pod(pod: Pod) -> bool:
    """The queueing hint on a pod being bound: only pod affinity (required or preferred) can gain from it."""
    a = pod.affinity
    return a is not None and bool(a.pod_required or a.pod_preferred)


def wants_company(pod: Pod) -> bool:
    """Whether a reservation of another pod can turn this pod's rejection into a pass (required pod affinity)."""
    return pod.affinity is not None and bool(pod.affinity.pod_required)


def anti_terms(pod: Pod) -> tuple:
    return pod.affinity.anti_required if pod.affinity is not None else ()


def describe(pod: Pod, nodes) -> tuple[str, ...]:
    """The pod's required terms, for explain."""
    a = pod.affinity
    if a is None:
        return ()
    return (*(f"podAffinity required on {t.topology_key}" for t in a.pod_required),
            *(f"podAntiAffinity required on {t.topology_key}" for t in a.anti_required))


# ---- the exact check's necessary conditions (explain/exact/shapes.py) ------------------------------------------
def exact_allowed(state, pod: Pod, sv, codes: np.ndarray | None) -> np.ndarray | None:
    """Nodes where required anti-affinity between the pod and the running pods (both directions) passes; the pod's
    required affinity terms are left out, since the group's own pods can satisfy them. `codes`: each node's
    topology domain when the engine evaluates the group inside one domain at a time, None for the whole cluster."""
    if not (anti_terms(pod) or state.affecting_pods):
        return None
    return _anti_ok(state, _without_affinity(pod), codes)


def _without_affinity(pod: Pod) -> Pod:
    """The pod with its required pod-affinity terms dropped: those depend on where the group's own pods go."""
    if pod.affinity is None or not pod.affinity.pod_required:
        return pod
    return dataclasses.replace(pod, affinity=dataclasses.replace(pod.affinity, pod_required=()))


def _anti_ok(state, pod: Pod, codes: np.ndarray | None) -> np.ndarray:
    if codes is None:
        return filter_reasons(state, pod) == 0
    ok = np.zeros(len(state.nodes), dtype=bool)
    for j in np.unique(codes[codes >= 0]).tolist():  # upstream's AssumePlacement: a placement sees only the pods
        mask = codes == j                              # on its own nodes
        ok |= mask & (filter_reasons(state, pod, within=mask) == 0)
    return ok


def exact_conflict(a: Pod, b: Pod) -> bool:
    """Whether two pods can never share a node: a required anti-affinity term on the hostname key that one holds
    against the other (upstream checks the incoming pod's terms and the existing pods' terms)."""
    return _anti_hostname(a, b) or _anti_hostname(b, a)


def _anti_hostname(owner: Pod, target: Pod) -> bool:
    return any(t.topology_key == HOSTNAME and term_matches(t, owner, target) for t in anti_terms(owner))


def exact_domains(state, group, static_verdict) -> DomainPart:
    """Rules between the group's own pods per domain (engine/pluginapi/exactrules.py): required anti-affinity on a key other
    than the hostname, either pod's term matching the other, as upstream checks both (`apart`); required pod
    affinity that the group's pods hold and match themselves, when no running pod matches it: upstream lets the
    first such pod go anywhere its keys exist (`_affinity_ok`'s self rule) and every later one only where a
    matching pod runs, so they all share one domain of each key (`close`)."""
    pods, apart = group.pods, {}
    for i, a in enumerate(pods):
        for j in range(i, len(pods)):
            for key in _anti_keys(a, pods[j]) | _anti_keys(pods[j], a):
                apart.setdefault(key, set()).add((i, j))
    return DomainPart(apart=apart, close=_close(state, pods))


def _anti_keys(owner: Pod, target: Pod) -> set[str]:
    return {t.topology_key for t in anti_terms(owner)
            if t.topology_key != HOSTNAME and term_matches(t, owner, target)}


def _close(state, pods) -> dict[str, tuple[int, ...]]:
    """Key -> shapes held in one domain of it, for required pod-affinity terms every holder matches itself, that
    only holders of the same terms match among the group, and that no running pod matches."""
    out: dict[str, set[int]] = {}
    for i, pod in enumerate(pods):
        terms = pod.affinity.pod_required if pod.affinity is not None else ()
        if not terms or not all(term_matches(t, pod, pod) for t in terms):
            continue
        matching = [j for j, o in enumerate(pods) if all(term_matches(t, pod, o) for t in terms)]
        if any(pods[j].affinity is None or pods[j].affinity.pod_required != terms for j in matching):
            continue
        if any(state.matching_counts(*term_scope(t, pod)).any() for t in terms):
            continue
        for t in terms:
            out.setdefault(t.topology_key, set()).update(matching)
    return {k: tuple(sorted(v)) for k, v in out.items()}
