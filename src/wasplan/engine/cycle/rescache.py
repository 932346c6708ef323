"""Resource fit and resource scores per distinct request vector, refreshed incrementally.

NodeResourcesFit's filter and the resource scorers (NodeResourcesFit strategy, BalancedAllocation) depend only on
the pod's request vector and each node's allocatable/requested rows. A cache entry holds both for all nodes and
remembers how far it has read the state's change log; the next pod with the same requests recomputes only the
rows that changed since (a reserve touches one row), falling back to a full recompute after big changes.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from wasplan.engine.profile.config import Profile
from wasplan.engine.plugins import balanced_allocation, resources_fit

MAX_ENTRIES = 64


class Rows:
    """The allocatable/requested/non-zero rows of some nodes (all of them, or the ones that changed)."""

    __slots__ = ("alloc", "requested", "non_zero")

    def __init__(self, state, rows=None):
        if rows is None:
            self.alloc, self.requested, self.non_zero = state.alloc, state.requested, state.non_zero
        else:
            self.alloc, self.requested, self.non_zero = state.alloc[rows], state.requested[rows], state.non_zero[rows]


class ResourceEntry:
    __slots__ = ("req", "nz", "cols", "score_cols", "weights", "balanced_cols", "balanced", "fit", "score", "ranked",
                 "pos", "epoch", "ahead")

    def __init__(self, state, profile: Profile, req: np.ndarray, nz: np.ndarray):
        self.req, self.nz = req, nz
        self.cols = resources_fit.checked_columns(req, state.col["pods"])
        self.score_cols, self.weights = resources_fit.scored_columns(state.col, profile.fit_strategy, req)
        self.balanced_cols = balanced_allocation.columns(state.col, req, profile.balanced_resources)
        self.balanced = bool(profile.weight(balanced_allocation.NAME)) and \
            not balanced_allocation.skips(req, self.balanced_cols)
        self.fit = np.zeros(0, dtype=bool)
        self.score = np.zeros(0, dtype=np.int64)
        self.ranked = np.zeros(0, dtype=np.int64)  # score where the pod fits, -1 elsewhere
        self.pos, self.epoch = 0, -1
        self.ahead: dict[tuple, tuple[list, list, list]] = {}  # gangbatch's look-ahead lines, by row state


class ResourceCache:
    def __init__(self, state, profile: Profile):
        self.state, self.profile = state, profile
        self.entries: OrderedDict[tuple, ResourceEntry] = OrderedDict()

    def get(self, req: np.ndarray, nz: np.ndarray) -> ResourceEntry:
        key = (req.tobytes(), nz.tobytes(), self.state.epoch)
        entry = self.entries.get(key)
        if entry is None:
            entry = ResourceEntry(self.state, self.profile, req, nz)
            self.entries[key] = entry
            if len(self.entries) > MAX_ENTRIES:
                self.entries.popitem(last=False)
        else:
            self.entries.move_to_end(key)
        self._refresh(entry)
        return entry

    def _refresh(self, entry: ResourceEntry) -> None:
        state = self.state
        pending = len(state.changes) - entry.pos
        if entry.epoch != state.epoch or pending > max(len(state.nodes) // 8, 32):
            view = Rows(state)
            entry.fit, entry.score = self.fit(entry, view), self.score(entry, view)
            entry.ranked = np.where(entry.fit, entry.score, -1)
        elif pending:
            rows = np.fromiter(set(state.changes[entry.pos:]), dtype=np.int64)
            view = Rows(state, rows)
            fit, score = self.fit(entry, view), self.score(entry, view)
            entry.fit[rows], entry.score[rows], entry.ranked[rows] = fit, score, np.where(fit, score, -1)
        entry.epoch, entry.pos = state.epoch, len(state.changes)

    def fit(self, entry: ResourceEntry, view) -> np.ndarray:
        """NodeResourcesFit's verdict for `entry`'s requests on the rows of `view` (rescache.Rows, or stacked rows)."""
        if not self.profile.filter_on(resources_fit.NAME):
            return np.ones(len(view.alloc), dtype=bool)
        return resources_fit.fits(view, entry.req, entry.cols)

    def score(self, entry: ResourceEntry, view) -> np.ndarray:
        """The weighted resource scores (NodeResourcesFit strategy, BalancedAllocation) on the rows of `view`."""
        profile = self.profile
        total = 0
        w_fit = profile.weight(resources_fit.NAME)
        if w_fit:
            total = w_fit * resources_fit.score(view, entry.nz, entry.score_cols, entry.weights, profile.fit_strategy)
        if entry.balanced:
            total = total + profile.weight(balanced_allocation.NAME) * \
                balanced_allocation.score(view, entry.req, entry.balanced_cols)
        if isinstance(total, int):
            return np.zeros(len(view.alloc), dtype=np.int64)
        return total
