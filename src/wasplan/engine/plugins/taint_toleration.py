"""TaintToleration filter and score (upstream pkg/scheduler/framework/plugins/tainttoleration).

Filter: a NoSchedule/NoExecute taint the pod does not tolerate rejects the node with `node(s) had untolerated
taint(s)` (upstream v1.36.3 and v1.37.2 name no taint in the reason; they log it). Score: the number of PreferNoSchedule taints not tolerated by the
pod's tolerations that apply to PreferNoSchedule, normalised reversed (fewest intolerable taints scores 100).
Toleration matching follows k8s.io/api/core/v1 Toleration.ToleratesTaint.
"""

from __future__ import annotations

from wasplan.cluster.model import Taint, Toleration
from wasplan.engine.status import REASONS, Code

NAME = "TaintToleration"
REASON = REASONS.intern("node(s) had untolerated taint(s)", Code.UNRESOLVABLE)
_FILTER_EFFECTS = ("NoSchedule", "NoExecute")


def tolerates(tol: Toleration, taint: Taint) -> bool:
    if tol.effect and tol.effect != taint.effect:
        return False
    if tol.key and tol.key != taint.key:
        return False
    if tol.operator == "Exists":
        return True
    if tol.operator in ("Equal", ""):
        return tol.value == taint.value
    return False


def untolerated_reason(taints: tuple[Taint, ...], tolerations: tuple[Toleration, ...]) -> int:
    """REASON when a NoSchedule/NoExecute taint is not tolerated, 0 when all are tolerated."""
    for taint in taints:
        if taint.effect in _FILTER_EFFECTS and not any(tolerates(t, taint) for t in tolerations):
            return REASON
    return 0


def intolerable_prefer_count(taints: tuple[Taint, ...], tolerations: tuple[Toleration, ...]) -> int:
    prefer = tuple(t for t in tolerations if t.effect in ("", "PreferNoSchedule"))
    return sum(1 for taint in taints
               if taint.effect == "PreferNoSchedule" and not any(tolerates(t, taint) for t in prefer))
