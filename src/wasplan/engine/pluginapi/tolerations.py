"""The one toleration matcher, for node taints (TaintToleration, NodeUnschedulable) and device taints
(DynamicResources, engine/dra/taints.py): k8s.io/api/core/v1 Toleration.ToleratesTaint, which
k8s.io/dynamic-resource-allocation's resourceclaim/devicetoleration.go mirrors for devices. A toleration
tolerates a taint when its effect is empty or equal, its key is empty or equal, and its operator is `Exists`, or
`Equal` (or empty) with equal values, or `Lt`/`Gt` with the taint's value, read as a decimal int64, less or
greater than the toleration's (a value that does not read as one tolerates nothing); any other operator
tolerates nothing. Lt and Gt reach the engine only when the TaintTolerationComparisonOperators gate is on:
validation refuses them otherwise (validate/rules/podspec_lists.py), as the API server does, and device
tolerations allow only Equal and Exists (pkg/apis/resource/validation).
"""

from __future__ import annotations

from typing import Protocol

from wasplan.api.names import decimal_int64


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
    if tol.operator in ("Lt", "Gt"):
        return _compares(tol.operator, tol.value, taint.value)
    return False


def _compares(operator: str, toleration_value: str, taint_value: str) -> bool:
    want, have = decimal_int64(toleration_value), decimal_int64(taint_value)
    if want is None or have is None:
        return False
    return have < want if operator == "Lt" else have > want
