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
    fractions = []
    for name in resources:
        if name not in state.col:
            continue
        c = state.col[name]
        if name not in (CPU, MEMORY, EPHEMERAL) and req[c] == 0:
            continue
        alloc = state.alloc[rows, c]
        used = state.requested[rows, c] + req[c]
        frac = np.where(alloc > 0, np.minimum(used / np.maximum(alloc, 1), 1.0), np.nan)
        fractions.append(frac)
    if not fractions:
        count = len(state.nodes) if isinstance(rows, slice) else len(rows)
        return np.full(count, 100, dtype=np.int64)
    stacked = np.vstack(fractions)  # resources x rows; NaN where allocatable is 0 (left out)
    present = ~np.isnan(stacked)
    n = present.sum(axis=0)
    values = np.where(present, stacked, 0.0)
    mean = values.sum(axis=0) / np.maximum(n, 1)
    var = (np.where(present, values - mean, 0.0) ** 2).sum(axis=0) / np.maximum(n, 1)
    pair = (np.where(present, values, -np.inf).max(axis=0) - np.where(present, values, np.inf).min(axis=0)) / 2
    std = np.where(n == 2, pair, np.where(n > 2, np.sqrt(var), 0.0))
    return ((1 - std) * 100).astype(np.int64)
