"""Per node: the summed requests and the number of placed pods below a priority threshold.

Preemption prunes candidate nodes with one vector test — free room plus everything lower-priority pods hold
must cover the preemptor's request — before any per-node victim search. The sums are kept per threshold and
refreshed, like the resource cache, only on the rows the state's change log says moved since the last read.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

MAX_THRESHOLDS = 16


class _Entry:
    __slots__ = ("req", "count", "pos", "epoch")

    def __init__(self) -> None:
        self.req = np.zeros((0, 0), dtype=np.int64)
        self.count = np.zeros(0, dtype=np.int64)
        self.pos, self.epoch = 0, -1


class LowerSums:
    def __init__(self, state, prio_of_key):
        self.state, self.prio_of_key = state, prio_of_key
        self._entries: OrderedDict[int, _Entry] = OrderedDict()

    def get(self, threshold: int) -> tuple[np.ndarray, np.ndarray]:
        """(n x resources summed requests, n counts) of placed pods with effective priority < threshold."""
        entry = self._entries.get(threshold)
        if entry is None:
            entry = self._entries[threshold] = _Entry()
            if len(self._entries) > MAX_THRESHOLDS:
                self._entries.popitem(last=False)
        else:
            self._entries.move_to_end(threshold)
        state = self.state
        pending = len(state.changes) - entry.pos
        if entry.epoch != state.epoch or entry.req.shape[1:] != (len(state.resources),) \
                or pending > len(state.nodes) // 4:
            entry.req = np.zeros((len(state.nodes), len(state.resources)), dtype=np.int64)
            entry.count = np.zeros(len(state.nodes), dtype=np.int64)
            rows = range(len(state.nodes))
        else:
            rows = set(state.changes[entry.pos:])
        for row in rows:
            self._row(entry, threshold, row)
        entry.epoch, entry.pos = state.epoch, len(state.changes)
        return entry.req, entry.count

    def _row(self, entry: _Entry, threshold: int, row: int) -> None:
        state = self.state
        total = np.zeros(len(state.resources), dtype=np.int64)
        n = 0
        for key, pod in state.pods_on[row].items():
            if self.prio_of_key(key) < threshold:
                total += state.vectors(pod)[0]
                n += 1
        entry.req[row], entry.count[row] = total, n
