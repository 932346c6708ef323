"""Resource fit and resource scores per distinct request vector, refreshed incrementally.

NodeResourcesFit's filter and the resource scorers (NodeResourcesFit strategy, BalancedAllocation) depend only on
the pod's request vector and each node's allocatable/requested rows. A cache entry holds both for all nodes and
remembers how far it has read the state's change log; the next pod with the same requests recomputes only the
rows that changed since (a reserve touches one row), falling back to a full recompute after big changes.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from wasplan.engine.config import Profile
from wasplan.engine.plugins import balanced_allocation, resources_fit

MAX_ENTRIES = 64


class ResourceEntry:
    __slots__ = ("req", "nz", "cols", "fit", "score", "pos", "epoch")

    def __init__(self, req: np.ndarray, nz: np.ndarray, pods_col: int):
        self.req, self.nz = req, nz
        self.cols = resources_fit.checked_columns(req, pods_col)
        self.fit = np.zeros(0, dtype=bool)
        self.score = np.zeros(0, dtype=np.int64)
        self.pos, self.epoch = 0, -1


class ResourceCache:
    def __init__(self, state, profile: Profile):
        self.state, self.profile = state, profile
        self.entries: OrderedDict[bytes, ResourceEntry] = OrderedDict()

    def get(self, req: np.ndarray, nz: np.ndarray) -> ResourceEntry:
        key = req.tobytes() + nz.tobytes()
        entry = self.entries.get(key)
        if entry is None:
            entry = ResourceEntry(req, nz, self.state.col["pods"])
            self.entries[key] = entry
            if len(self.entries) > MAX_ENTRIES:
                self.entries.popitem(last=False)
        else:
            self.entries.move_to_end(key)
        self._refresh(entry)
        return entry

    def _refresh(self, entry: ResourceEntry) -> None:
        state = self.state
        n = len(state.nodes)
        if entry.epoch != state.epoch or len(state.changes) - entry.pos > max(n // 8, 32):
            entry.fit = self._fit(entry, slice(None))
            entry.score = self._score(entry, slice(None))
        elif len(state.changes) > entry.pos:
            rows = np.fromiter(sorted(set(state.changes[entry.pos:])), dtype=np.int64)
            entry.fit[rows] = self._fit(entry, rows)
            entry.score[rows] = self._score(entry, rows)
        entry.epoch, entry.pos = state.epoch, len(state.changes)

    def _fit(self, entry: ResourceEntry, rows) -> np.ndarray:
        if not self.profile.filter_on(resources_fit.NAME):
            count = len(self.state.nodes) if isinstance(rows, slice) else len(rows)
            return np.ones(count, dtype=bool)
        return resources_fit.fits(self.state.alloc, self.state.requested, entry.req, entry.cols, rows)

    def _score(self, entry: ResourceEntry, rows) -> np.ndarray:
        state, profile = self.state, self.profile
        count = len(state.nodes) if isinstance(rows, slice) else len(rows)
        total = np.zeros(count, dtype=np.int64)
        w_fit = profile.weight(resources_fit.NAME)
        if w_fit:
            total += w_fit * resources_fit.score(state, entry.req, entry.nz, profile.fit_strategy, rows)
        w_bal = profile.weight(balanced_allocation.NAME)
        if w_bal and not balanced_allocation.skips(state, entry.req, profile.balanced_resources):
            total += w_bal * balanced_allocation.score(state, entry.req, profile.balanced_resources, rows)
        return total
