"""PodTopologySpread filter and score (upstream pkg/scheduler/framework/plugins/podtopologyspread:
filtering.go, scoring.go, common.go).

Filter (DoNotSchedule constraints): counts matching pods (same namespace, not terminating) per domain over the
nodes that carry every constraint key and pass the node-inclusion policies; a node fails when
`count(domain) + selfMatch - globalMin > maxSkew` (globalMin is 0 while fewer than minDomains domains exist);
a node missing a key fails UnschedulableAndUnresolvable. Score (ScheduleAnyway constraints): per node
Σ cnt·log(domains + 2) + (maxSkew - 1), rounded; normalised so the lowest raw score gets 100; nodes missing a
key get 0. System default constraints apply only to pods selected by Services/ReplicaSets/StatefulSets, which
a plan does not model, so pods without constraints skip the plugin.
"""

from __future__ import annotations

import math

import numpy as np

from wasplan.cluster.model import Pod, TopologySpreadConstraint
from wasplan.engine.pluginapi.exactrules import DomainPart, SpreadRule
from wasplan.engine.pluginapi.selectors import selector_matches, with_label_keys
from wasplan.engine.pluginapi.status import REASONS, Code

NAME = "PodTopologySpread"
HOSTNAME = "kubernetes.io/hostname"
REASON_SKEW = REASONS.intern("node(s) didn't match pod topology spread constraints", Code.UNSCHEDULABLE)
REASON_LABEL = REASONS.intern("node(s) didn't match pod topology spread constraints (missing required label)",
                              Code.UNRESOLVABLE)


def constraints(pod: Pod, hard: bool):
    wanted = "DoNotSchedule" if hard else "ScheduleAnyway"
    out = []
    for c in pod.topology_spread:
        if c.when_unsatisfiable == wanted:
            out.append((c, with_label_keys(c.label_selector, pod.labels, c.match_label_keys)))
    return out


def count_matching(state, selector, namespace: str, caps=None) -> np.ndarray:
    """Matching pods per node (same namespace, not terminating). An empty selector (`labelSelector: {}` with no
    matchLabelKeys merged in) counts no pod through 1.37 (countPodsMatchSelector returns 0 for an Empty() selector,
    podtopologyspread/common.go of v1.36.3 and v1.37.2; 1.38 counts every pod of the namespace, #141340), while the
    incoming pod still matches it itself."""
    if _counts_nothing(selector, caps):
        return np.zeros(len(state.nodes), dtype=np.int64)
    return state.matching_counts(frozenset((namespace,)), selector, skip_terminating=True)


def _counts_nothing(selector, caps) -> bool:
    return (caps is not None and caps.spread_empty_selector_counts_none and selector is not None
            and not selector.match_labels and not selector.match_expressions)


def _included(c: TopologySpreadConstraint, affinity_ok: np.ndarray, taints_ok: np.ndarray) -> np.ndarray:
    mask = np.ones(len(affinity_ok), dtype=bool)
    if c.node_affinity_policy == "Honor":
        mask &= affinity_ok
    if c.node_taints_policy == "Honor":
        mask &= taints_ok
    return mask


def _all_keys(state, cons, within: np.ndarray | None = None) -> np.ndarray:
    """Nodes carrying every constraint key, inside the snapshot (`within`: a placement's nodes, None = all)."""
    mask = np.ones(len(state.nodes), dtype=bool) if within is None else within.copy()
    for c, _ in cons:
        mask &= state.labels.has(c.topology_key)
    return mask


def _domain_totals(codes: np.ndarray, domain_count: int, eligible: np.ndarray, counts: np.ndarray):
    """(matching pods per domain, whether the domain has an eligible node), over eligible nodes."""
    rows = eligible & (codes >= 0)
    totals = np.bincount(codes[rows], weights=counts[rows], minlength=domain_count).astype(np.int64)
    present = np.bincount(codes[rows], minlength=domain_count) > 0
    return totals, present


def filter_reasons(state, pod: Pod, affinity_ok: np.ndarray, taints_ok: np.ndarray,
                   within: np.ndarray | None = None, caps=None) -> np.ndarray:
    out = np.zeros(len(state.nodes), dtype=np.int32)
    cons = constraints(pod, hard=True)
    if not cons:
        return out
    with_keys = _all_keys(state, cons, within)
    for c, selector in cons:
        codes, domains = state.labels.codes(c.topology_key)
        eligible = with_keys & _included(c, affinity_ok, taints_ok)
        totals, present = _domain_totals(codes, len(domains), eligible,
                                         count_matching(state, selector, pod.namespace, caps))
        global_min = int(totals[present].min()) if present.any() else None
        if c.min_domains is not None and int(present.sum()) < c.min_domains:
            global_min = 0
        self_match = 1 if selector_matches(selector, pod.labels) else 0
        per_node = np.where(codes >= 0, totals[np.maximum(codes, 0)], 0) if len(domains) else np.zeros_like(codes)
        skewed = (codes >= 0) & (global_min is not None) & (per_node + self_match - (global_min or 0) > c.max_skew)
        out = np.where(out != 0, out, np.where(codes < 0, REASON_LABEL, np.where(skewed, REASON_SKEW, 0)))
    return out.astype(np.int32)


def raw_scores(state, pod: Pod, feasible: np.ndarray, affinity_ok: np.ndarray, taints_ok: np.ndarray,
               within: np.ndarray | None = None, caps=None):
    """(raw scores, ignored nodes) or None when the pod has no ScheduleAnyway constraint (plugin skipped)."""
    cons = constraints(pod, hard=False)
    if not cons:
        return None
    with_keys = _all_keys(state, cons, within)
    ignored = feasible & ~with_keys
    scored = feasible & with_keys
    total = np.zeros(len(state.nodes), dtype=np.float64)
    for c, selector in cons:
        counts = count_matching(state, selector, pod.namespace, caps)
        if c.topology_key == HOSTNAME:
            weight = math.log(int(scored.sum()) + 2)
            per_node = counts
        else:
            codes, domains = state.labels.codes(c.topology_key)
            scored_domains = np.zeros(len(domains), dtype=bool)
            scored_domains[codes[scored & (codes >= 0)]] = True
            weight = math.log(int(scored_domains.sum()) + 2)
            eligible = with_keys & _included(c, affinity_ok, taints_ok)
            totals, _ = _domain_totals(codes, len(domains), eligible, counts)
            safe = np.maximum(codes, 0)
            per_node = np.where((codes >= 0) & scored_domains[safe], totals[safe], 0) if len(domains) else counts * 0
        present = state.labels.has(c.topology_key)
        total += np.where(present, per_node * weight + (c.max_skew - 1), 0.0)
    return np.floor(total + 0.5).astype(np.int64), ignored


def normalize(raw: np.ndarray, ignored: np.ndarray, feasible: np.ndarray) -> np.ndarray:
    considered = feasible & ~ignored
    if not considered.any():
        return np.zeros(len(raw), dtype=np.int64)
    lo, hi = int(raw[considered].min()), int(raw[considered].max())
    if hi == 0:
        return np.where(ignored, 0, 100).astype(np.int64)
    return np.where(ignored, 0, 100 * (hi + lo - raw) // hi).astype(np.int64)


# ---- what the rest of the engine and explain read from the plugin (registry.py) --------------------------------
def counts_pods(pod: Pod) -> bool:
    """Whether the pod's verdict counts other pods by their labels."""
    return bool(pod.topology_spread)


def describe(pod: Pod, nodes) -> tuple[str, ...]:
    """The pod's hard constraints, for explain."""
    return tuple(f"topologySpreadConstraint maxSkew {c.max_skew} on {c.topology_key} ({c.when_unsatisfiable})"
                 for c in pod.topology_spread if c.when_unsatisfiable == "DoNotSchedule")


def exact_allowed(state, pod: Pod, sv, codes) -> np.ndarray | None:
    """The exact check's necessary condition: a hard constraint's key missing on a node (UnschedulableAndUnresolvable,
    whatever the group's pods do); the skew between domains is a rule of the program (domainrules.py)."""
    if not constraints(pod, hard=True):
        return None
    return filter_reasons(state, pod, sv.affinity_ok, sv.taints_ok) != REASON_LABEL


def exact_domains(state, group, static_verdict) -> DomainPart:
    """The exact check's rules between the group's own pods (engine/pluginapi/exactrules.py), when the engine counts over the
    whole cluster: a rule per hard spread constraint of a family of shapes whose pods match its selector, when no
    pod of another family of the group does (their counts would depend on each other's nodes). The counts are the
    engine's: PodTopologySpread's eligible nodes for the pod (keys present, nodeAffinity/nodeTaints policies) and
    matching running pods per domain on them. Why it is necessary: when the last of these pods goes into domain d
    its count is final(d) - 1 and the minimum then is at most the final one, so Filter's count + 1 - min <=
    maxSkew gives final(d) - final min <= maxSkew."""
    out = DomainPart()
    if not group.whole_cluster:
        return out
    for members in group.families:
        pod = group.pods[members[0]]
        cons = constraints(pod, hard=True)
        sv = static_verdict(pod)
        for c, selector in cons:
            others = [o for i, o in enumerate(group.pods) if i not in members]
            if not selector.match_labels and not selector.match_expressions:
                continue  # an empty selector may count nothing (count_matching): no rule between the pods
            if not selector_matches(selector, pod.labels) or any(
                    o.namespace == pod.namespace and selector_matches(selector, o.labels)
                    for o in others):
                continue
            codes, domains = state.labels.codes(c.topology_key)
            # the plugin's own eligibility and per-domain totals (its Filter's first steps), not a second copy
            eligible = _all_keys(state, cons) & _included(c, sv.affinity_ok, sv.taints_ok)
            totals, present = _domain_totals(codes, len(domains), eligible, count_matching(state, selector,
                                                                                          pod.namespace))
            min_zero = c.min_domains is not None and int(present.sum()) < c.min_domains
            out.spread.append(SpreadRule(c.topology_key, tuple(members), c.max_skew, tuple(int(t) for t in totals),
                                         tuple(np.flatnonzero(present).tolist()), min_zero))
    return out
