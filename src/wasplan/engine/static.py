"""Per pod-shape verdicts of the plugins that only look at the pod and the node object.

NodeUnschedulable, NodeName, TaintToleration and NodeAffinity (filters, NodeAffinity's PreFilter, and the raw
TaintToleration/NodeAffinity scores) depend only on a few pod fields — the pod's "static shape" — so they are
computed once per distinct shape over all nodes and reused by every identical pod (every member of a gang,
every replica). Nodes are grouped by taint set so toleration checks run once per group.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wasplan.cluster.model import Pod
from wasplan.engine.config import Profile
from wasplan.engine.plugins import node_affinity, node_name, node_unschedulable, taint_toleration


def static_key(pod: Pod) -> tuple:
    a = pod.affinity
    node_part = (a.node_required, a.node_preferred) if a is not None else (None, ())
    return (tuple(sorted(pod.node_selector.items())), node_part, pod.tolerations, pod.node_name)


@dataclass(slots=True)
class StaticVerdict:
    reasons: np.ndarray  # int32 reason id of the first failing static filter; 0 = passes
    affinity_ok: np.ndarray  # NodeAffinity's required part passes (PodTopologySpread's nodeAffinityPolicy)
    taints_ok: np.ndarray  # TaintToleration's filter passes (PodTopologySpread's nodeTaintsPolicy)
    taint_raw: np.ndarray  # int64 count of intolerable PreferNoSchedule taints
    affinity_raw: np.ndarray  # int64 sum of matching preferred node-affinity weights
    prefilter_msg: str | None = None  # a PreFilter rejection that stops the cycle before filtering
    passes: np.ndarray | None = None  # reasons == 0, filled by `compute`
    has_taint_raw: bool = False
    has_affinity_raw: bool = False


def _taint_groups(state) -> dict[tuple, list[int]]:
    groups: dict[tuple, list[int]] = {}
    for i, node in enumerate(state.nodes):
        groups.setdefault((node.taints, node.unschedulable), []).append(i)
    return groups


def compute(state, pod: Pod, profile: Profile) -> StaticVerdict:
    n = len(state.nodes)
    out = StaticVerdict(np.zeros(n, dtype=np.int32), np.ones(n, dtype=bool), np.ones(n, dtype=bool),
                        np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64))
    taint_rows: list[tuple[list[int], int]] = []
    for (taints, unschedulable), rows in _taint_groups(state).items():
        blocked = profile.filter_on("NodeUnschedulable") and not node_unschedulable.passes(unschedulable,
                                                                                            pod.tolerations)
        out.reasons[rows] = node_unschedulable.REASON if blocked else 0
        reason = taint_toleration.untolerated_reason(taints, pod.tolerations)
        reason = reason if profile.filter_on("TaintToleration") else 0
        out.taints_ok[rows] = reason == 0
        out.taint_raw[rows] = taint_toleration.intolerable_prefer_count(taints, pod.tolerations)
        taint_rows.append((rows, reason))
    _node_name(state, pod, profile, out)
    for rows, reason in taint_rows:
        if reason:
            idx = np.asarray(rows)
            out.reasons[idx] = np.where(out.reasons[idx] == 0, reason, out.reasons[idx])
    _node_affinity(state, pod, profile, out)
    out.passes = out.reasons == 0
    out.has_taint_raw, out.has_affinity_raw = bool(out.taint_raw.any()), bool(out.affinity_raw.any())
    return out


def _node_name(state, pod: Pod, profile: Profile, out: StaticVerdict) -> None:
    wanted = pod.node_name
    if not wanted or not profile.filter_on("NodeName"):
        return
    for i, node in enumerate(state.nodes):
        if out.reasons[i] == 0 and not node_name.passes(wanted, node.name):
            out.reasons[i] = node_name.REASON


def _node_affinity(state, pod: Pod, profile: Profile, out: StaticVerdict) -> None:
    a = pod.affinity
    if a is not None and a.node_preferred:
        out.affinity_raw[:] = [node_affinity.preferred_score(a, node) for node in state.nodes]
    if not pod.node_selector and (a is None or a.node_required is None):
        return
    for i, node in enumerate(state.nodes):
        if not node_affinity.required_matches(pod.node_selector, a, node):
            out.affinity_ok[i] = False
    if profile.filter_on("NodeAffinity"):
        out.reasons[:] = np.where((out.reasons == 0) & ~out.affinity_ok, node_affinity.REASON, out.reasons)
        names = node_affinity.prefilter_node_names(a)
        if names is not None and not names:
            out.prefilter_msg = node_affinity.CONFLICT_MESSAGE
        elif names is not None:
            absent = np.array([node.name not in names for node in state.nodes], dtype=bool)
            out.reasons[:] = np.where(absent, node_affinity.ABSENT_REASON, out.reasons)
