"""NodeResourcesBalancedAllocation score (upstream .../noderesources/balanced_allocation.go, commit e14ffeaa).

Per resource, fraction = (requested on node + pod's request) / allocatable, capped at 1, using actual (not
non-zero) requests; with two resources std = |f1 - f2| / 2, otherwise the population standard deviation;
score = int((1 - std) * 100). Pods that request none of the resources skip the plugin (best-effort pods).
"""

from __future__ import annotations

import numpy as np

from wasplan.cluster.model import CPU, EPHEMERAL, MEMORY

NAME = "NodeResourcesBalancedAllocation"
DEFAULT_RESOURCES = (CPU, MEMORY)


def skips(state, req: np.ndarray, resources: tuple[str, ...]) -> bool:
    return not any(req[state.col[r]] > 0 for r in resources if r in state.col)


def score(state, req: np.ndarray, resources: tuple[str, ...], rows) -> np.ndarray:
    cols = [state.col[r] for r in resources
            if r in state.col and (r in (CPU, MEMORY, EPHEMERAL) or req[state.col[r]] > 0)]
    if not cols:
        count = len(state.nodes) if isinstance(rows, slice) else len(rows)
        return np.full(count, 100, dtype=np.int64)
    idx = np.array(cols)
    alloc = state.alloc[:, idx] if isinstance(rows, slice) else state.alloc[rows[:, None], idx]
    requested = state.requested[:, idx] if isinstance(rows, slice) else state.requested[rows[:, None], idx]
    present = alloc > 0
    fractions = np.minimum((requested + req[idx]) / np.where(present, alloc, 1), 1.0)
    if len(cols) == 2 and present.all():
        std = np.abs(fractions[:, 0] - fractions[:, 1]) / 2
    else:
        std = _std_with_gaps(fractions.T, present.T)
    return ((1 - std) * 100).astype(np.int64)


def _std_with_gaps(values: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Per node (column): resources with zero allocatable are left out; |a - b| / 2 for two, population std
    for more."""
    n = present.sum(axis=0)
    values = np.where(present, values, 0.0)
    mean = values.sum(axis=0) / np.maximum(n, 1)
    var = (np.where(present, values - mean, 0.0) ** 2).sum(axis=0) / np.maximum(n, 1)
    pair = (np.where(present, values, -np.inf).max(axis=0) - np.where(present, values, np.inf).min(axis=0)) / 2
    return np.where(n == 2, pair, np.where(n > 2, np.sqrt(var), 0.0))
