"""InterPodAffinity filter and score (upstream pkg/scheduler/framework/plugins/interpodaffinity: filtering.go,
scoring.go).

Filter, in upstream order: the pod's required affinity (every term needs a matching pod in the node's domain;
the first pod of a self-affine series may go anywhere its terms' keys exist — UnschedulableAndUnresolvable
otherwise), its required anti-affinity, then existing pods' required anti-affinity against the pod. Score: the
pod's preferred terms against existing pods, existing pods' preferred terms (and required affinity terms, with
hardPodAffinityWeight) against the pod, summed per topology domain and normalised (raw - min)·100/(max - min).
"""

from __future__ import annotations

import numpy as np

from wasplan.cluster.model import Pod, PodAffinityTerm
from wasplan.engine.selectors import selector_matches, with_label_keys
from wasplan.engine.status import REASONS, Code

NAME = "InterPodAffinity"
REASON_AFFINITY = REASONS.intern("node(s) didn't match pod affinity rules", Code.UNRESOLVABLE)
REASON_ANTI = REASONS.intern("node(s) didn't match pod anti-affinity rules", Code.UNSCHEDULABLE)
REASON_EXISTING = REASONS.intern("node(s) didn't satisfy existing pods anti-affinity rules", Code.UNSCHEDULABLE)


def has_terms(pod: Pod) -> bool:
    a = pod.affinity
    return a is not None and bool(a.pod_required or a.pod_preferred or a.anti_required or a.anti_preferred)


def term_matches(term: PodAffinityTerm, owner: Pod, target: Pod) -> bool:
    """Does `target` match `term`, a term written on pod `owner`?"""
    if term.namespace_selector is not None and not term.namespace_selector.match_labels \
            and not term.namespace_selector.match_expressions:
        pass  # an empty namespaceSelector selects every namespace
    elif term.namespaces or term.namespace_selector is not None:
        if target.namespace not in term.namespaces:
            return False
    elif target.namespace != owner.namespace:
        return False
    selector = with_label_keys(term.label_selector, owner.labels, term.match_label_keys, term.mismatch_label_keys)
    return selector_matches(selector, target.labels)


def _domain_counts(state, terms, pod: Pod, all_terms: bool) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = {}
    for placed in state.placed.values():
        other = placed.pod
        labels = state.nodes[placed.node].labels
        matched = [t for t in terms if term_matches(t, pod, other)]
        if all_terms and len(matched) != len(terms):
            continue
        for t in matched:
            if t.topology_key in labels:
                key = (t.topology_key, labels[t.topology_key])
                counts[key] = counts.get(key, 0) + 1
    return counts


def _existing_anti(state, pod: Pod) -> set[tuple[str, str]]:
    blocked: set[tuple[str, str]] = set()
    for key in state.affinity_pods:
        placed = state.placed[key]
        other, labels = placed.pod, state.nodes[placed.node].labels
        for t in other.affinity.anti_required:
            if t.topology_key in labels and term_matches(t, other, pod):
                blocked.add((t.topology_key, labels[t.topology_key]))
    return blocked


def filter_reasons(state, pod: Pod) -> np.ndarray:
    out = np.zeros(len(state.nodes), dtype=np.int32)
    a = pod.affinity
    required = a.pod_required if a else ()
    anti = a.anti_required if a else ()
    blocked = _existing_anti(state, pod) if state.affinity_pods else set()
    if not required and not anti and not blocked:
        return out
    aff_counts = _domain_counts(state, required, pod, all_terms=True) if required else {}
    self_ok = not aff_counts and all(term_matches(t, pod, pod) for t in required)
    anti_counts = _domain_counts(state, anti, pod, all_terms=False) if anti else {}
    for i, node in enumerate(state.nodes):
        labels = node.labels
        if required and not _affinity_ok(required, labels, aff_counts, self_ok):
            out[i] = REASON_AFFINITY
        elif any(anti_counts.get((t.topology_key, labels.get(t.topology_key)), 0) > 0 for t in anti):
            out[i] = REASON_ANTI
        elif blocked and any((k, v) in blocked for k, v in labels.items()):
            out[i] = REASON_EXISTING
    return out


def _affinity_ok(terms, labels, counts, self_ok: bool) -> bool:
    if any(t.topology_key not in labels for t in terms):
        return False
    if all(counts.get((t.topology_key, labels[t.topology_key]), 0) > 0 for t in terms):
        return True
    return self_ok


def raw_scores(state, pod: Pod, hard_weight: int = 1):
    """Σ weights per topology domain, as a per-node array; None when no term is involved (plugin skipped)."""
    a = pod.affinity
    mine = [(w.term, w.weight) for w in (a.pod_preferred if a else ())]
    mine += [(w.term, -w.weight) for w in (a.anti_preferred if a else ())]
    if not mine and not state.affinity_pods:
        return None
    domains: dict[tuple[str, str], int] = {}

    def add(term, weight, labels):
        if term.topology_key in labels:
            key = (term.topology_key, labels[term.topology_key])
            domains[key] = domains.get(key, 0) + weight

    sources = state.placed.values() if mine else (state.placed[k] for k in state.affinity_pods)
    for placed in sources:
        other, labels = placed.pod, state.nodes[placed.node].labels
        for term, weight in mine:
            if term_matches(term, pod, other):
                add(term, weight, labels)
        _add_existing_terms(other, pod, labels, hard_weight, add)
    out = np.zeros(len(state.nodes), dtype=np.int64)
    for (key, value), weight in domains.items():
        if weight:
            out += np.where(state.labels.values(key) == value, weight, 0)
    return out


def _add_existing_terms(other: Pod, pod: Pod, labels, hard_weight: int, add) -> None:
    oa = other.affinity
    if oa is None:
        return
    if hard_weight > 0 and labels:
        for term in oa.pod_required:
            if term_matches(term, other, pod):
                add(term, hard_weight, labels)
    for w in oa.pod_preferred:
        if term_matches(w.term, other, pod):
            add(w.term, w.weight, labels)
    for w in oa.anti_preferred:
        if term_matches(w.term, other, pod):
            add(w.term, -w.weight, labels)


def normalize(raw: np.ndarray, feasible: np.ndarray) -> np.ndarray:
    if not feasible.any():
        return np.zeros(len(raw), dtype=np.int64)
    lo, hi = int(raw[feasible].min()), int(raw[feasible].max())
    if hi - lo <= 0:
        return np.zeros(len(raw), dtype=np.int64)
    return (100 * ((raw - lo) / (hi - lo))).astype(np.int64)
