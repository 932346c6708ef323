"""NodeResourcesBalancedAllocation score (upstream pkg/scheduler/framework/plugins/noderesources/
balanced_allocation.go as of k8s.io/kubernetes v1.36.5 and v1.37.2, `balancedResourceScorer`).

The balance of a node: per resource, fraction = requested / allocatable, capped at 1, using actual (not non-zero)
requests; with two resources std = |f1 - f2| / 2, otherwise the population standard deviation; balance =
int((1 - std) * 100). The score rewards the change the pod makes: 50 + (50 + balance with the pod - balance
without it) // 2, so a pod that leaves the balance as it was scores 75, one that evens the node out up to 100,
one that skews it down to 50. Pods that request none of the resources skip the plugin (best-effort pods).
"""

from __future__ import annotations

import numpy as np

from wasplan.cluster.model import CPU, EPHEMERAL, MEMORY
from wasplan.engine.pluginapi.pluginargs import names

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
    before = view.requested[:, cols]
    with_pod, without = balance(before + req[cols], alloc), balance(before, alloc)
    return 50 + (50 + with_pod - without) // 2


def balance(used: np.ndarray, alloc: np.ndarray) -> np.ndarray:
    """int((1 - std) * 100) of the per-resource fractions used / alloc (rows = nodes)."""
    if alloc.shape[1] == 2 and alloc.all():  # the common case: cpu and memory on every node
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
