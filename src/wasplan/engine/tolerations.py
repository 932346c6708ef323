"""The one toleration matcher, for node taints (TaintToleration, NodeUnschedulable) and device taints
(DynamicResources, engine/dra/taints.py): k8s.io/api/core/v1 Toleration.ToleratesTaint, which
k8s.io/dynamic-resource-allocation's resourceclaim/devicetoleration.go mirrors for devices. A toleration
tolerates a taint when its effect is empty or equal, its key is empty or equal, and its operator is `Exists`, or
`Equal` (or empty) with equal values; any other operator tolerates nothing.
"""

from __future__ import annotations

from typing import Protocol


class _Toleration(Protocol):
    key: str
    operator: str
    value: str
    effect: str


class _Taint(Protocol):
    key: str
    value: str
    effect: str


def tolerates(tol: _Toleration, taint: _Taint) -> bool:
    if tol.effect and tol.effect != taint.effect:
        return False
    if tol.key and tol.key != taint.key:
        return False
    if tol.operator == "Exists":
        return True
    if tol.operator in ("Equal", ""):
        return tol.value == taint.value
    return False
