"""NodeResourcesBalancedAllocation score (upstream .../noderesources/balanced_allocation.go, commit e14ffeaa).

Per resource, fraction = (requested on node + pod's request) / allocatable, capped at 1, using actual (not
non-zero) requests; with two resources std = |f1 - f2| / 2, otherwise the population standard deviation;
score = int((1 - std) * 100). Pods that request none of the resources skip the plugin (best-effort pods).
"""

from __future__ import annotations

import numpy as np

from wasplan.cluster.model import CPU, EPHEMERAL, MEMORY
from wasplan.engine.pluginargs import names

NAME = "NodeResourcesBalancedAllocation"
DEFAULT_RESOURCES = (CPU, MEMORY)


def columns(col: dict[str, int], req: np.ndarray, resources: tuple[str, ...]) -> np.ndarray:
    """Scored columns; an extended resource the pod does not request is left out."""
    return np.array([col[r] for r in resources
                     if r in col and (r in (CPU, MEMORY, EPHEMERAL) or req[col[r]] > 0)], dtype=np.int64)


def skips(req: np.ndarray, cols: np.ndarray) -> bool:
    """Best-effort pods (no request for any scored resource) skip the plugin."""
    return not len(cols) or not bool((req[cols] > 0).any())


def score(view, req: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Per row of `view` (alloc/requested rows)."""
    if not len(cols):
        return np.full(len(view.alloc), 100, dtype=np.int64)
    alloc = view.alloc[:, cols]
    used = view.requested[:, cols] + req[cols]
    if len(cols) == 2 and alloc.all():  # the common case: cpu and memory on every node
        fractions = np.minimum(used / alloc, 1.0)
        std = np.abs(fractions[:, 0] - fractions[:, 1]) / 2
    else:
        present = alloc > 0
        fractions = np.minimum(used / np.where(present, alloc, 1), 1.0)
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


def profile_args(args: dict) -> dict:
    """The profile fields the plugin's pluginConfig args set: the resources it balances, when given."""
    if not args.get("resources"):
        return {}
    return {"balanced_resources": tuple(r["name"] for r in names(args["resources"]))}
