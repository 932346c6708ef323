"""Why a pod found no node: every filter plugin's verdict per node, kept as arrays.

This is the recorder the explain command and preemption read: `counts()` gives the reason histogram behind the
FitError message cheaply, `node_reasons(i)` the reasons of one node on demand, `unresolvable` the nodes where
preemption cannot help (UnschedulableAndUnresolvable). Each node reports only the first plugin that rejected it,
as kube-scheduler's filter loop stops at the first failure.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from wasplan.engine.plugins import resources_fit
from wasplan.engine.pluginapi.status import REASONS, Code, fit_error_message


@dataclass(slots=True)
class Diagnosis:
    nodes: tuple[str, ...]
    in_snapshot: np.ndarray  # nodes the cycle looked at (a placement restricts this)
    first: np.ndarray  # int32 reason id of the first rejecting single-reason plugin, in plugin order
    fit_lacking: np.ndarray  # rows x checked columns: the node lacks that resource
    fit_unresolvable: np.ndarray  # rows x checked columns: the request exceeds the node's allocatable
    fit_columns: tuple[str, ...]
    fit_stage: int  # position of NodeResourcesFit in plugin order relative to `first`'s plugins
    first_stage: np.ndarray  # int8 plugin position of the `first` reason
    prefilter_msg: str | None = None
    _text: str | None = field(default=None, repr=False, compare=False)  # message(), once computed

    def _fit_rejects(self) -> np.ndarray:
        lacking = self.fit_lacking.any(axis=1) if self.fit_lacking.size else np.zeros(len(self.nodes), bool)
        earlier = (self.first != 0) & (self.first_stage < self.fit_stage)
        return lacking & ~earlier & self.in_snapshot

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        fit_rows = self._fit_rejects()
        single = (self.first != 0) & ~fit_rows & self.in_snapshot
        ids, hits = np.unique(self.first[single], return_counts=True)
        for rid, n in zip(ids.tolist(), hits.tolist()):
            text = REASONS.text[rid]
            out[text] = out.get(text, 0) + n
        for j, name in enumerate(self.fit_columns):
            n = int((self.fit_lacking[:, j] & fit_rows).sum())
            if n:
                text = REASONS.text[resources_fit.reason_ids(name, False)]
                out[text] = out.get(text, 0) + n
        return out

    def rejecting_stages(self) -> frozenset[int] | None:
        """The plugin positions (registry.STAGE; static plugins share 0) of the filters that rejected some node,
        upstream's Diagnosis.UnschedulablePlugins, whose queueing hints decide which events requeue the pod
        (pkg/scheduler/schedule_one.go findNodesThatPassFilters; backend/queue/scheduling_queue.go
        isPodWorthRequeuing). None after a PreFilter rejection: which plugin it was is not kept."""
        if self.prefilter_msg:
            return None
        fit_rows = self._fit_rejects()
        single = (self.first != 0) & ~fit_rows & self.in_snapshot
        stages = set(np.unique(self.first_stage[single]).tolist())
        if fit_rows.any():
            stages.add(self.fit_stage)
        return frozenset(stages)

    def node_reasons(self, i: int) -> list[str]:
        if not self.in_snapshot[i]:
            return []
        if self._fit_rejects()[i]:
            return [REASONS.text[resources_fit.reason_ids(name, False)]
                    for j, name in enumerate(self.fit_columns) if self.fit_lacking[i, j]]
        return [REASONS.text[self.first[i]]] if self.first[i] else []

    @property
    def unresolvable(self) -> np.ndarray:
        """Nodes whose rejection preemption cannot fix (all of them after a PreFilter rejection, which upstream
        records as UnschedulableAndUnresolvable for every node)."""
        if self.prefilter_msg:
            return self.in_snapshot.copy()
        codes = np.array([REASONS.code[r] for r in range(len(REASONS.text))], dtype=np.int8)
        single = (codes[self.first] == Code.UNRESOLVABLE) & ~self._fit_rejects()
        fit = self._fit_rejects() & (self.fit_unresolvable & self.fit_lacking).any(axis=1)
        return (single | fit) & self.in_snapshot

    def message(self) -> str:
        """The FitError text, computed once: a diagnosis is never changed after it is made, and a memoised one
        (framework.py) is read by every pod of its shape."""
        if self._text is None:
            self._text = fit_error_message(int(self.in_snapshot.sum()), self.counts(), self.prefilter_msg)
        return self._text
