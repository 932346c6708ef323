"""Topology domains and the per-domain arithmetic the placement algorithm needs (engine-semantics §1.9.1, §1.9.4).

`generate` is TopologyPlacementGenerator: the parent placement's nodes grouped by their value of the key (nodes
without the label left out), pinned to the domain of the group's already-scheduled members. Domains come back
sorted by value; upstream walks a Go map (random order), so "the first placement" in the infeasible message is
the value that sorts first here — a deliberate, reproducible choice.

`most_allocated` is the placement bin-packing score (MostAllocated over the placement's summed allocatable and
requests, cpu and memory weight 1, resources with zero allocatable skipped). `Bounds` gives cheap per-domain
upper bounds (how many members could fit at most, the best bin-packing score reachable) so the search can skip
domains that cannot be feasible or cannot win without changing which placement is chosen.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np

from wasplan.cluster.model import CPU, MEMORY

MAX_SCORE = 100
BIN_PACKING_RESOURCES = ((CPU, 1), (MEMORY, 1))
_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


class PlacementError(Exception):
    """The generator cannot decide the placements (members bound in several domains): a SchedulerError."""


@dataclass(slots=True)
class Domain:
    name: str
    code: int  # index into the key's value list (NodeLabels.codes)
    rows: np.ndarray  # node rows of this domain inside the parent placement

    def mask(self, n: int) -> np.ndarray:
        out = np.zeros(n, dtype=bool)
        out[self.rows] = True
        return out


def _rows_by_domain(labels, key: str) -> tuple[np.ndarray, list[str], list[np.ndarray]]:
    """Per key, once per node set: node codes, values and the rows of every value (cached on the label index)."""
    per_labels = _CACHE.setdefault(labels, {})
    found = per_labels.get(key)
    if found is None:
        codes, values = labels.codes(key)
        order = np.argsort(codes, kind="stable")
        bounds = np.searchsorted(codes[order], np.arange(len(values) + 1))
        rows = [order[bounds[i]:bounds[i + 1]] for i in range(len(values))]
        found = (codes, values, rows)
        per_labels[key] = found
    return found


def pinned_domain(state, key: str, bound: list[tuple[str, int]]) -> str | None:
    """The domain of the members already on nodes; upstream's error when they span several or lack the label."""
    domain = None
    for pod_key, row in bound:
        value = state.nodes[row].labels.get(key)
        if value is None:
            raise PlacementError("cannot determine domain for already scheduled pods: "
                                 f"no topology domain found for pod {pod_key}")
        if domain is not None and domain != value:
            raise PlacementError("cannot determine domain for already scheduled pods: "
                                 f"more than 1 domain found for pod group: {domain}, {value}")
        domain = value
    return domain


def generate(state, key: str, parent: np.ndarray | None, bound: list[tuple[str, int]]) -> list[Domain]:
    """One Domain per value of `key` among the parent placement's nodes, sorted by value."""
    required = pinned_domain(state, key, bound)
    _, values, rows = _rows_by_domain(state.labels, key)
    out = []
    for code in sorted(range(len(values)), key=lambda c: values[c]):
        if required is not None and values[code] != required:
            continue
        kept = rows[code] if parent is None else rows[code][parent[rows[code]]]
        if len(kept):
            out.append(Domain(values[code], code, kept))
    return out


def most_allocated(requested, allocatable) -> int:
    """Σ min(r, a)·100/a over the resources with a > 0 (integer division), divided by the weight sum."""
    total = weights = 0
    for (_, w), r, a in zip(BIN_PACKING_RESOURCES, requested, allocatable):
        if a <= 0:
            continue
        total += w * (min(int(r), int(a)) * MAX_SCORE // int(a))
        weights += w
    return total // weights if weights else 0


def bin_packing_score(state, rows: np.ndarray) -> int:
    """The placement's score on the current state (the group's trial reservations included)."""
    cols = [state.col[name] for name, _ in BIN_PACKING_RESOURCES]
    return most_allocated(state.non_zero[rows][:, cols].sum(axis=0), state.alloc[rows][:, cols].sum(axis=0))


class Bounds:
    """Upper bounds per domain, from one pass over the node arrays: the number of members that could fit at
    most (the smallest member request counted on every node's free capacity, filters ignored) and the best
    bin-packing score (every member placed). Both only over-estimate, so pruning on them is exact."""

    def __init__(self, state, domains: list[Domain], requests: list[np.ndarray], non_zero: list[np.ndarray]):
        n_codes = max(d.code for d in domains) + 1
        labels = np.full(len(state.nodes), -1, dtype=np.int64)
        for d in domains:
            labels[d.rows] = d.code
        valid = labels >= 0
        smallest = np.min(np.stack(requests), axis=0)
        free = np.maximum(state.alloc - state.requested, 0)
        fits = np.full(len(state.nodes), np.iinfo(np.int64).max, dtype=np.int64)
        for c in np.flatnonzero(smallest > 0):
            fits = np.minimum(fits, free[:, c] // smallest[c])
        self.capacity = np.bincount(labels[valid], weights=fits[valid], minlength=n_codes)
        cols = [state.col[name] for name, _ in BIN_PACKING_RESOURCES]
        extra = np.sum(np.stack(non_zero), axis=0)[cols]
        self._alloc = [np.bincount(labels[valid], weights=state.alloc[valid, c], minlength=n_codes) for c in cols]
        self._used = [np.bincount(labels[valid], weights=state.non_zero[valid, c], minlength=n_codes) for c in cols]
        self._extra = extra

    def fit_at_most(self, d: Domain) -> int:
        return int(self.capacity[d.code])

    def best_bin_packing(self, d: Domain) -> int:
        requested = [int(u[d.code]) + int(e) for u, e in zip(self._used, self._extra)]
        return most_allocated(requested, [int(a[d.code]) for a in self._alloc])
