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
_TOTALS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # ClusterState -> {id(domains): totals}


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


class DomainList(list):
    """Domains, with their rows and codes flattened once, in node order (the whole-cluster list is cached, so
    every cycle reuses the same arrays)."""

    def flat(self) -> tuple[np.ndarray, np.ndarray]:
        found = getattr(self, "_flat", None)
        if found is None:
            rows = np.concatenate([d.rows for d in self]) if self else np.zeros(0, dtype=np.int64)
            idx = (np.concatenate([np.full(len(d.rows), d.code, dtype=np.int64) for d in self]) if self
                   else np.zeros(0, dtype=np.int64))
            order = np.argsort(rows, kind="stable")  # node order (a node has one value, so rows are unique)
            found = self._flat = (rows[order], idx[order])
        return found


def _rows_by_domain(labels, key: str) -> tuple[np.ndarray, list[str], list[np.ndarray], list[Domain]]:
    """Per key, once per node set (cached on the label index): node codes, values, the rows of every value and
    the whole cluster's Domains sorted by value."""
    per_labels = _CACHE.setdefault(labels, {})
    found = per_labels.get(key)
    if found is None:
        codes, values = labels.codes(key)
        order = np.argsort(codes, kind="stable")
        bounds = np.searchsorted(codes[order], np.arange(len(values) + 1))
        rows = [order[bounds[i]:bounds[i + 1]] for i in range(len(values))]
        every = DomainList(Domain(values[c], c, rows[c]) for c in sorted(range(len(values)), key=lambda c: values[c]))
        labelled = np.flatnonzero(codes >= 0)
        every._flat = (labelled, codes[labelled])  # node order: with every node labelled, no gather is needed
        every.cached = True  # lives as long as the label index: DomainTotals may keep sums for it
        found = (codes, values, rows, every)
        per_labels[key] = found
    return found


def pinned_domain(state, key: str, bound: list[tuple[str, int]], no_empty: bool = False) -> str | None:
    """The domain of the members already on nodes; upstream's error when they span several or lack the label.
    `no_empty` (1.38 topology_placement.go getScheduledPodsTopologyDomain): an empty value is a labelling
    mistake, not a domain, and the several-domains message quotes the values."""
    domain = None
    for pod_key, row in bound:
        value = state.nodes[row].labels.get(key)
        if value is None:
            raise PlacementError("cannot determine domain for already scheduled pods: "
                                 f"no topology domain found for pod {pod_key}")
        if no_empty and value == "":
            raise PlacementError("cannot determine domain for already scheduled pods: "
                                 f"empty topology domain found for pod {pod_key}")
        if domain is not None and domain != value:
            pair = f'"{domain}", "{value}"' if no_empty else f"{domain}, {value}"
            raise PlacementError("cannot determine domain for already scheduled pods: "
                                 f"more than 1 domain found for pod group: {pair}")
        domain = value
    return domain


def generate(state, key: str, parent: np.ndarray | None, bound: list[tuple[str, int]],
             no_empty: bool = False) -> DomainList:
    """One Domain per value of `key` among the parent placement's nodes, sorted by value; `no_empty` (1.38,
    TopologyPlacementGenerator): nodes whose value is "" are in no domain."""
    required = pinned_domain(state, key, bound, no_empty)
    codes, _, _, every = _rows_by_domain(state.labels, key)
    if required is not None:
        every = DomainList(d for d in every if d.name == required)
    elif no_empty and any(d.name == "" for d in every):
        every = DomainList(d for d in every if d.name != "")
    if parent is None:
        return every
    inside = set(np.unique(codes[parent]).tolist())
    out = DomainList()
    for d in every:
        if d.code in inside:
            out.append(Domain(d.name, d.code, d.rows[parent[d.rows]]))
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
    """Upper bounds for every domain at once, from one pass over the node arrays: how many members could fit at
    most (the smallest member request counted on every node's free capacity, filters ignored) and the best
    bin-packing score (every member placed). Both only over-estimate, so pruning on them is exact. Over the
    whole cluster's domains the per-domain sums come from `DomainTotals`, kept up to date as pods are placed."""

    def __init__(self, state, domains: DomainList, requests: list[np.ndarray], non_zero: list[np.ndarray]):
        rows, idx = domains.flat()
        n_codes = int(idx.max()) + 1 if len(idx) else 1
        if not requests:  # nothing queued below (a settled subtree): no pod to fit, nothing to add
            requests = non_zero = [np.zeros(len(state.resources), dtype=np.int64)]
        smallest = np.min(np.stack(requests), axis=0)
        cols = [state.col[name] for name, _ in BIN_PACKING_RESOURCES]
        if len(rows) == len(state.nodes) and getattr(domains, "cached", False):  # every node, in order
            capacity, alloc, used = DomainTotals.of(state, domains, n_codes).sums(state, smallest, cols)
        else:
            capacity = _sum_by(idx, _fits(state, rows, smallest), n_codes)
            alloc = [_sum_by(idx, state.alloc[rows, c], n_codes) for c in cols]
            used = [_sum_by(idx, state.non_zero[rows, c], n_codes) for c in cols]
        self.capacity = capacity
        extra = np.sum(np.stack(non_zero), axis=0)[cols]
        total = weights = np.zeros(n_codes, dtype=np.int64)
        for (_, w), a, u, e in zip(BIN_PACKING_RESOURCES, alloc, used, extra):
            u = u + int(e)
            ok = a > 0
            total = total + w * np.where(ok, np.minimum(u, a) * MAX_SCORE // np.where(ok, a, 1), 0)
            weights = weights + w * ok
        self.bin_packing = np.where(weights > 0, total // np.maximum(weights, 1), 0)


def _fits(state, rows: np.ndarray, smallest: np.ndarray) -> np.ndarray:
    """Per row, how many pods of the `smallest` request fit its free capacity (a request always holds its pod
    slot, so the count is finite)."""
    fits = np.full(len(rows), np.iinfo(np.int64).max, dtype=np.int64)
    for c in np.flatnonzero(smallest > 0):
        free = np.maximum(state.alloc[rows, c] - state.requested[rows, c], 0)
        fits = np.minimum(fits, free // smallest[c])
    return np.where(fits == np.iinfo(np.int64).max, 0, fits)


class DomainTotals:
    """Per-domain sums over the whole cluster's domains of one topology key, kept up to date from the state's
    change log (the rows each reservation, removal or rollback touched) instead of summed over every node for
    each group: allocatable and non-zero requests of the bin-packing resources, and, per smallest member
    request seen, how many such pods every node and every domain could still take. Integer sums, so the same
    values as summing afresh."""

    MAX_SHAPES = 32

    def __init__(self, domains: DomainList, n_codes: int):
        self.n_codes = n_codes
        self.codes = domains.flat()[1]
        self.epoch, self.pos = -1, 0
        self.per_node: dict[bytes, np.ndarray] = {}
        self.per_domain: dict[bytes, np.ndarray] = {}

    @staticmethod
    def of(state, domains: DomainList, n_codes: int) -> "DomainTotals":
        per_state = _TOTALS.setdefault(state, {})
        found = per_state.get(id(domains))
        if found is None or found[0] is not domains:
            found = per_state[id(domains)] = (domains, DomainTotals(domains, n_codes))
        return found[1]

    def sums(self, state, smallest: np.ndarray, cols: list[int]) -> tuple[np.ndarray, list, list]:
        """(capacity per domain for `smallest`, allocatable per domain per column, non-zero requested per
        domain per column). The state is passed, not kept: the totals live in a weak map keyed by it."""
        pending = len(state.changes) - self.pos
        if self.epoch != state.epoch or pending > max(len(state.nodes) // 8, 32):
            self._rebuild(state, cols)
        elif pending:
            self._update(state, np.unique(np.array(state.changes[self.pos:], dtype=np.int64)), cols)
        self.epoch, self.pos = state.epoch, len(state.changes)
        shape = smallest.tobytes()
        if shape not in self.per_node:
            if len(self.per_node) >= self.MAX_SHAPES:
                self.per_node.clear(), self.per_domain.clear()
            rows = np.arange(len(state.nodes))
            self.per_node[shape] = _fits(state, rows, smallest)
            self.per_domain[shape] = _sum_by(self.codes, self.per_node[shape], self.n_codes)
        return self.per_domain[shape], self.alloc, self.used

    def _rebuild(self, state, cols: list[int]) -> None:
        codes, n = self.codes, self.n_codes
        self.alloc = [_sum_by(codes, state.alloc[:, c], n) for c in cols]
        self.used = [_sum_by(codes, state.non_zero[:, c], n) for c in cols]
        self.non_zero = state.non_zero[:, cols]  # a copy: the values the sums hold
        self.per_node.clear(), self.per_domain.clear()

    def _update(self, state, rows: np.ndarray, cols: list[int]) -> None:
        """Refresh the changed rows: each sum moves by the rows' new value minus the old."""
        codes = self.codes[rows]
        new = state.non_zero[rows][:, cols]
        delta = new - self.non_zero[rows]
        for j, used in enumerate(self.used):
            np.add.at(used, codes, delta[:, j])
        self.non_zero[rows] = new
        for shape, fits in self.per_node.items():
            fresh = _fits(state, rows, np.frombuffer(shape, dtype=np.int64))
            np.add.at(self.per_domain[shape], codes, fresh - fits[rows])
            fits[rows] = fresh


def _sum_by(idx: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """Exact integer sums of `values` per code (float64 bincount is exact below 2**53, far above any total)."""
    return np.rint(np.bincount(idx, weights=values, minlength=n)).astype(np.int64)
