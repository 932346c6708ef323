"""Per pod-shape verdicts of the plugins that only look at the pod and the node object.

NodeUnschedulable, NodeName, TaintToleration and NodeAffinity (filters, NodeAffinity's PreFilter, and the raw
TaintToleration/NodeAffinity scores) depend only on a few pod fields — the pod's "static shape" — so they are
computed once per distinct shape over all nodes and reused by every identical pod (every member of a gang,
every replica). Nodes are grouped by taint set so toleration checks run once per group. Which plugins are static
and which pod fields make up the shape key is the registry's (registry.py) description.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wasplan.cluster.model import Pod
from wasplan.engine import registry
from wasplan.engine.config import Profile
from wasplan.engine.plugins import node_affinity, node_name, node_unschedulable, taint_toleration


static_key = registry.shape_key  # the fields every static plugin reads, as the registry lists them
ORDER = registry.STATIC_FILTERS


@dataclass(slots=True)
class StaticVerdict:
    by_plugin: dict[str, np.ndarray]  # plugin -> int32 reason id per node (0 = passes), each plugin on its own
    affinity_ok: np.ndarray  # NodeAffinity's required part passes (PodTopologySpread's nodeAffinityPolicy)
    taints_ok: np.ndarray  # TaintToleration's filter passes (PodTopologySpread's nodeTaintsPolicy)
    taint_raw: np.ndarray  # int64 count of intolerable PreferNoSchedule taints
    affinity_raw: np.ndarray  # int64 sum of matching preferred node-affinity weights
    prefilter_msg: str | None = None  # a PreFilter rejection that stops the cycle before filtering
    absent: np.ndarray | None = None  # nodes NodeAffinity's PreFilter left out of the cycle
    reasons: np.ndarray | None = None  # the first failing static plugin's reason per node, absent nodes included
    passes: np.ndarray | None = None  # reasons == 0
    all_pass: bool = False
    has_taint_raw: bool = False
    has_affinity_raw: bool = False


def _taint_groups(state) -> dict[tuple, list[int]]:
    groups: dict[tuple, list[int]] = {}
    for i, node in enumerate(state.nodes):
        groups.setdefault((node.taints, node.unschedulable), []).append(i)
    return groups


def compute(state, pod: Pod, profile: Profile) -> StaticVerdict:
    n = len(state.nodes)
    out = StaticVerdict({name: np.zeros(n, dtype=np.int32) for name in ORDER}, np.ones(n, dtype=bool),
                        np.ones(n, dtype=bool), np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64))
    for (taints, unschedulable), rows in _taint_groups(state).items():
        if not node_unschedulable.passes(unschedulable, pod.tolerations):
            out.by_plugin["NodeUnschedulable"][rows] = node_unschedulable.REASON
        reason = taint_toleration.untolerated_reason(taints, pod.tolerations)
        out.by_plugin["TaintToleration"][rows] = reason
        out.taints_ok[rows] = reason == 0
        out.taint_raw[rows] = taint_toleration.intolerable_prefer_count(taints, pod.tolerations)
    if pod.node_name:
        out.by_plugin["NodeName"][:] = [0 if node_name.passes(pod.node_name, x.name) else node_name.REASON
                                        for x in state.nodes]
    _node_affinity(state, pod, out)
    _combine(out, profile)
    return out


def _combine(out: StaticVerdict, profile: Profile) -> None:
    """First failing enabled plugin per node, in upstream filter order; PreFilter-absent nodes report that."""
    reasons = np.zeros(len(out.affinity_ok), dtype=np.int32)
    for name in reversed(ORDER):
        if profile.filter_on(name):
            verdict = out.by_plugin[name]
            reasons = np.where(verdict != 0, verdict, reasons)
    if out.absent is not None and profile.filter_on("NodeAffinity"):
        reasons = np.where(out.absent, node_affinity.ABSENT_REASON, reasons)
    if not profile.filter_on("NodeAffinity"):
        out.prefilter_msg = None
    out.reasons, out.passes = reasons, reasons == 0
    out.all_pass = bool(out.passes.all())
    out.has_taint_raw, out.has_affinity_raw = bool(out.taint_raw.any()), bool(out.affinity_raw.any())


def _node_affinity(state, pod: Pod, out: StaticVerdict) -> None:
    a = pod.affinity
    if a is not None and a.node_preferred:
        out.affinity_raw[:] = [node_affinity.preferred_score(a, node) for node in state.nodes]
    if not pod.node_selector and (a is None or a.node_required is None):
        return
    out.affinity_ok[:] = [node_affinity.required_matches(pod.node_selector, a, node) for node in state.nodes]
    out.by_plugin["NodeAffinity"][:] = np.where(out.affinity_ok, 0, node_affinity.REASON)
    names = node_affinity.prefilter_node_names(a)
    if names is not None and not names:
        out.prefilter_msg = node_affinity.CONFLICT_MESSAGE
    elif names is not None:
        out.absent = np.array([node.name not in names for node in state.nodes], dtype=bool)
