"""Per-node counts of placed pods that the topology plugins ask about, kept current on every reserve/remove.

PodTopologySpread and InterPodAffinity both need "how many placed pods matching X are in this node's domain".
Scanning every placed pod for every incoming pod costs O(pods); instead the index keeps, once a selector has been
asked for, a per-node count array that each reserve/remove updates, and it indexes the (anti-)affinity terms that
placed pods carry, so checking existing pods' terms against an incoming pod costs O(distinct terms).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wasplan.cluster.model import Pod, PodAffinityTerm
from wasplan.engine.pluginapi.selectors import selector_matches

MAX_SELECTORS = 256  # selectors whose counts are maintained; others are recounted on demand
Scope = frozenset | None  # namespaces a selector applies to; None = every namespace


@dataclass(slots=True)
class TermEntry:
    kind: str  # pod_required | anti_required | pod_preferred | anti_preferred
    term: PodAffinityTerm
    weight: int
    owner: Pod  # any pod carrying the term: matching depends only on its namespace and match-label-key values
    counts: np.ndarray  # per node, placed pods carrying this term


def _carried_terms(pod: Pod):
    a = pod.affinity
    if a is None:
        return
    for t in a.pod_required:
        yield "pod_required", t, 0
    for t in a.anti_required:
        yield "anti_required", t, 0
    for w in a.pod_preferred:
        yield "pod_preferred", w.term, w.weight
    for w in a.anti_preferred:
        yield "anti_preferred", w.term, w.weight


def _term_key(kind: str, term: PodAffinityTerm, weight: int, owner: Pod) -> tuple:
    label_keys = term.match_label_keys + term.mismatch_label_keys
    return kind, term, weight, owner.namespace, tuple(owner.labels.get(k) for k in label_keys)


def _in_scope(pod: Pod, scope: Scope, selector, skip_terminating: bool) -> bool:
    if scope is not None and pod.namespace not in scope:
        return False
    return not (skip_terminating and pod.terminating) and selector_matches(selector, pod.labels)


class PodIndex:
    def __init__(self, node_count: int):
        self.node_count = node_count
        self._selectors: dict[tuple, np.ndarray] = {}
        self.terms: dict[tuple, TermEntry] = {}

    def update(self, pod: Pod, node: int, delta: int) -> None:
        for (scope, selector, skip), counts in self._selectors.items():
            if _in_scope(pod, scope, selector, skip):
                counts[node] += delta
        for kind, term, weight in _carried_terms(pod):
            key = _term_key(kind, term, weight, pod)
            entry = self.terms.get(key)
            if entry is None:
                entry = TermEntry(kind, term, weight, pod, np.zeros(self.node_count, dtype=np.int64))
                self.terms[key] = entry
            entry.counts[node] += delta

    def counts(self, placed, scope: Scope, selector, skip_terminating: bool) -> np.ndarray:
        """Per node, placed pods in `scope` matching `selector` (`placed`: the state's placed pods, for the first
        count of a selector)."""
        key = (scope, selector, skip_terminating)
        found = self._selectors.get(key)
        if found is None:
            found = np.zeros(self.node_count, dtype=np.int64)
            for p in placed.values():
                if _in_scope(p.pod, scope, selector, skip_terminating):
                    found[p.node] += 1
            if len(self._selectors) < MAX_SELECTORS:
                self._selectors[key] = found
        return found
