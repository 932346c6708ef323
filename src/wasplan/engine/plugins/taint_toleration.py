"""TaintToleration filter and score (upstream pkg/scheduler/framework/plugins/tainttoleration).

Filter: a NoSchedule/NoExecute taint the pod does not tolerate rejects the node with `node(s) had untolerated
taint(s)` (upstream v1.36.5 and v1.37.2 name no taint in the reason; they log it). Score: the number of
PreferNoSchedule taints not tolerated by the pod's tolerations that apply to PreferNoSchedule, normalised reversed
(fewest intolerable taints scores 100).
Toleration matching is engine/pluginapi/tolerations.py's (k8s.io/api/core/v1 Toleration.ToleratesTaint).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from wasplan.cluster.model import Taint, Toleration
from wasplan.engine.pluginapi.status import REASONS, Code
from wasplan.engine.pluginapi.tolerations import tolerates
from wasplan.words import plural

NAME = "TaintToleration"
REASON = REASONS.intern("node(s) had untolerated taint(s)", Code.UNRESOLVABLE)
_FILTER_EFFECTS = ("NoSchedule", "NoExecute")
MAX_SCORE = 100  # fwk.MaxNodeScore


def first_untolerated(taints: tuple[Taint, ...], tolerations: tuple[Toleration, ...]) -> Taint | None:
    """The first NoSchedule/NoExecute taint the tolerations do not tolerate (the filter's verdict), or None."""
    for taint in taints:
        if taint.effect in _FILTER_EFFECTS and not any(tolerates(t, taint) for t in tolerations):
            return taint
    return None


def untolerated_reason(taints: tuple[Taint, ...], tolerations: tuple[Toleration, ...]) -> int:
    """REASON when a NoSchedule/NoExecute taint is not tolerated, 0 when all are tolerated."""
    return 0 if first_untolerated(taints, tolerations) is None else REASON


def intolerable_prefer_count(taints: tuple[Taint, ...], tolerations: tuple[Toleration, ...]) -> int:
    prefer = tuple(t for t in tolerations if t.effect in ("", "PreferNoSchedule"))
    return sum(1 for taint in taints
               if taint.effect == "PreferNoSchedule" and not any(tolerates(t, taint) for t in prefer))


def evaluate_static(nodes, pod, out) -> None:
    """The static verdict (static.py), once per group of nodes with the same taints: the filter's reason, whether
    it passes (PodTopologySpread's nodeTaintsPolicy reads it) and the raw score, kept only where some node has
    a PreferNoSchedule taint the pod does not tolerate (else every node scores the same)."""
    raw = np.zeros(len(nodes.state.nodes), dtype=np.int64)
    for (taints, _), rows in nodes.taint_groups.items():
        reason = untolerated_reason(taints, pod.tolerations)
        out.by_plugin[NAME][rows] = reason
        out.taints_ok[rows] = reason == 0
        raw[rows] = intolerable_prefer_count(taints, pod.tolerations)
    if raw.any():
        out.add_score(NAME, raw, ranks=True)


def normalise(raw: np.ndarray | None, feasible: np.ndarray) -> np.ndarray | int:
    """NormalizeScore, reversed: the fewest intolerable PreferNoSchedule taints among the feasible nodes scores
    MAX_SCORE (every node does when none has one)."""
    hi = int(raw[feasible].max(initial=0)) if raw is not None else 0
    return MAX_SCORE if hi == 0 else MAX_SCORE - MAX_SCORE * raw // hi


# ---- explain's description of a rejection ---------------------------------------------------------------------
def untolerated(pod, node) -> Taint | None:
    """The first taint that keeps `pod` off `node` (TaintToleration's filter), or None."""
    return first_untolerated(node.taints, pod.tolerations)


def blocking_taints(pod, nodes) -> Counter:
    """How many nodes each untolerated taint keeps the pod off (by the first such taint of each node)."""
    found = Counter()
    for node in nodes:
        taint = untolerated(pod, node)
        if taint is not None:
            found[taint] += 1
    return found


def taint_text(t: Taint) -> str:
    return f"{t.key}={t.value}:{t.effect}" if t.value else f"{t.key}:{t.effect}"


def describe(pod, nodes) -> tuple[str, ...]:
    """The taints the pod does not tolerate, most nodes first, for explain."""
    return tuple(f"no toleration for {taint_text(t)} ({plural(n, 'node')})"
                 for t, n in blocking_taints(pod, nodes).most_common())
