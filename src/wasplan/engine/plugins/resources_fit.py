"""NodeResourcesFit filter and score (upstream pkg/scheduler/framework/plugins/noderesources/fit.go,
least_allocated.go, most_allocated.go, requested_to_capacity_ratio.go, resource_allocation.go).

Filter: a pod needs one more pod slot and, for every resource it requests (> 0), at least that much free
allocatable; reasons `Too many pods` / `Insufficient <resource>`, UnschedulableAndUnresolvable when the request
exceeds the node's total allocatable. Score: the configured strategy over the configured resources, using
non-zero requests for cpu/memory; an extended resource the pod does not request is left out. Everything is a
vector operation over a set of node rows so callers can score all nodes or only the rows that changed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wasplan.cluster.model import CPU, EPHEMERAL, MEMORY, PODS
from wasplan.engine.pluginapi.pluginargs import ConfigError, names
from wasplan.engine.pluginapi.status import REASONS, Code

NAME = "NodeResourcesFit"
MAX_SCORE = 100


@dataclass(frozen=True)
class ScoringStrategy:
    """NodeResourcesFit's scoring strategy: its type, resources and weights or shape."""

    type: str = "LeastAllocated"  # LeastAllocated | MostAllocated | RequestedToCapacityRatio
    resources: tuple[tuple[str, int], ...] = ((CPU, 1), (MEMORY, 1))
    shape: tuple[tuple[int, int], ...] = ((0, 10), (100, 0))  # (utilization, score 0-10) for RTCR


def reason_ids(resource: str, unresolvable: bool) -> int:
    text = "Too many pods" if resource == PODS else f"Insufficient {resource}"
    return REASONS.intern(text, Code.UNRESOLVABLE if unresolvable else Code.UNSCHEDULABLE)


def checked_columns(req: np.ndarray, pods_col: int) -> np.ndarray:
    """Columns the filter compares: every requested resource plus the pod slot."""
    cols = np.flatnonzero(req > 0)
    return cols if pods_col in cols else np.append(cols, pods_col)


def fits(view, req: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """True for the view's rows where every checked column has room (`view`: alloc/requested/non_zero rows)."""
    return (view.alloc[:, cols] - view.requested[:, cols] >= req[cols]).all(axis=1)


def insufficient(alloc: np.ndarray, requested: np.ndarray, req: np.ndarray, cols: np.ndarray):
    """Per checked column: (lacking rows mask, unresolvable rows mask), over all rows."""
    free = alloc[:, cols] - requested[:, cols]
    lacking = free < req[cols]
    unresolvable = alloc[:, cols] < req[cols]
    return lacking, unresolvable


def scored_columns(col: dict[str, int], strategy: ScoringStrategy, req: np.ndarray):
    """(columns, weights) the strategy scores for this pod; an extended resource it does not request is left out."""
    pairs = [(col[name], weight) for name, weight in strategy.resources
             if name in col and (name in (CPU, MEMORY, EPHEMERAL) or req[col[name]] > 0)]
    return np.array([c for c, _ in pairs], dtype=np.int64), np.array([w for _, w in pairs], dtype=np.int64)


def score(view, nz: np.ndarray, cols: np.ndarray, weights: np.ndarray, strategy: ScoringStrategy) -> np.ndarray:
    """One matrix operation over (rows x scored resources). Scoring uses non-zero requests; the `non_zero`
    matrix equals `requested` for every resource but cpu and memory, so it serves all columns."""
    if not len(cols):
        return np.zeros(len(view.alloc), dtype=np.int64)
    alloc = view.alloc[:, cols]
    per = _resource_score(strategy, view.non_zero[:, cols] + nz[cols], alloc)
    rtcr = strategy.type == "RequestedToCapacityRatio"
    if not rtcr and alloc.all():  # the common case: every node has every scored resource
        return (per * weights).sum(axis=1) // weights.sum()
    counted = (alloc > 0) & (per > 0) if rtcr else alloc > 0
    total = np.where(counted, per * weights, 0).sum(axis=1)
    weight_sum = np.where(counted, weights, 0).sum(axis=1)
    safe = np.maximum(weight_sum, 1)
    out = np.floor(total / safe + 0.5).astype(np.int64) if rtcr else total // safe
    return np.where(weight_sum > 0, out, 0)


def _resource_score(strategy: ScoringStrategy, used: np.ndarray, alloc: np.ndarray) -> np.ndarray:
    safe = np.maximum(alloc, 1)
    if strategy.type == "MostAllocated":
        return np.minimum(used, alloc) * MAX_SCORE // safe
    if strategy.type == "RequestedToCapacityRatio":
        util = np.where(used > alloc, MAX_SCORE, used * MAX_SCORE // safe)
        return _broken_linear(strategy.shape, util)
    return np.where(used > alloc, 0, (alloc - used) * MAX_SCORE // safe)


def _broken_linear(shape: tuple[tuple[int, int], ...], util: np.ndarray) -> np.ndarray:
    """Piecewise-linear shape, scores scaled from 0-10 to 0-100 as upstream does, integer arithmetic."""
    points = [(u, s * (MAX_SCORE // 10)) for u, s in shape]
    out = np.full(util.shape, points[-1][1], dtype=np.int64)
    done = np.zeros(util.shape, dtype=bool)
    for i, (u, s) in enumerate(points):
        hit = ~done & (util <= u)
        if i == 0:
            value = np.full(util.shape, s, dtype=np.int64)
        else:
            u0, s0 = points[i - 1]
            value = s0 + (s - s0) * (util - u0) // (u - u0)
        out = np.where(hit, value, out)
        done |= hit
    return out


# ---- pluginConfig args (NodeResourcesFitArgs) ---------------------------------------------------------------
def _strategy(args: dict) -> ScoringStrategy:
    raw = args.get("scoringStrategy") or {}
    kind = raw.get("type", "LeastAllocated")
    if kind not in ("LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"):
        raise ConfigError(f"NodeResourcesFit scoringStrategy.type {kind!r} is not one of LeastAllocated, "
                          "MostAllocated, RequestedToCapacityRatio")
    resources = tuple((r["name"], int(r.get("weight", 1))) for r in names(raw.get("resources")))
    shape_raw = (raw.get("requestedToCapacityRatio") or {}).get("shape") or []
    shape = tuple((int(p["utilization"]), int(p["score"])) for p in shape_raw)
    if kind == "RequestedToCapacityRatio" and not shape:
        raise ConfigError("RequestedToCapacityRatio needs requestedToCapacityRatio.shape")
    _check_shape(shape)
    base = ScoringStrategy()
    return ScoringStrategy(kind, resources or base.resources, shape or base.shape)


def _check_shape(shape: tuple[tuple[int, int], ...]) -> None:
    """The API server's rules for the shape (validation_pluginargs.go, validateFunctionShape): utilization
    0-100 in strictly increasing order, score 0-10."""
    for i, (utilization, score) in enumerate(shape):
        if not 0 <= utilization <= 100 or not 0 <= score <= 10:
            raise ConfigError(f"requestedToCapacityRatio.shape[{i}]: utilization must be 0-100 and score 0-10")
        if i and utilization <= shape[i - 1][0]:
            raise ConfigError("requestedToCapacityRatio.shape: utilization values must be sorted in increasing order")


def profile_args(args: dict) -> dict:
    """The profile fields NodeResourcesFit's pluginConfig args set: its scoring strategy."""
    return {"fit_strategy": _strategy(args)}
