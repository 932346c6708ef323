"""A ClusterQueue's pending workloads: the heap, the inadmissible list and the requeue rules.

Upstream: KDIR/pkg/cache/queue/cluster_queue.go (`Pop`, `PushOrUpdate`, `RequeueIfNotPresent`: StrictFIFO puts a
failed head straight back unless its namespace did not match; BestEffortFIFO does so only after a failure that
followed nomination, a pending preemption or a failed preemption, or when flavors are left to try, or when the
inadmissible list was flushed since the pop, and otherwise parks it as inadmissible; the sticky workload: a
head pending its preemptions stays first; `baseCompareFunc`: sticky first, higher priority, older, UID) and
inadmissible_workloads.go (`queueInadmissibleWorkloads`: flushed back into the heap, except a workload whose
namespace the ClusterQueue does not select).
"""

from __future__ import annotations

import heapq

from .model import Selector, Workload

GENERIC, FAILED_AFTER_NOMINATION, NAMESPACE_MISMATCH = "", "FailedAfterNomination", "NamespaceMismatch"
PENDING_PREEMPTION, PREEMPTION_FAILED = "PendingPreemption", "PreemptionFailed"


class ClusterQueueQueue:
    __slots__ = ("name", "strict", "selector", "heap", "members", "inadmissible", "pop_cycle", "flush_cycle",
                 "sticky", "_seq")

    def __init__(self, name: str, strict: bool, selector: Selector) -> None:
        self.name = name
        self.strict = strict
        self.selector = selector
        self.heap: list = []
        self.members: dict[str, Workload] = {}
        self.inadmissible: dict[str, Workload] = {}
        self.pop_cycle = 0
        self.flush_cycle = 0
        self.sticky: str | None = None
        self._seq = 0

    def _push(self, wl: Workload) -> bool:
        if wl.key in self.members:
            return False
        self.members[wl.key] = wl
        self._seq += 1
        heapq.heappush(self.heap, (-wl.priority, wl.created, wl.uid, self._seq, wl))
        return True

    def __len__(self) -> int:
        return len(self.members)

    def pop(self) -> Workload | None:
        self.pop_cycle += 1
        if self.sticky is not None and self.sticky in self.members:
            wl = self.members.pop(self.sticky)
            self.heap = [e for e in self.heap if e[4] is not wl]
            heapq.heapify(self.heap)
            return wl
        while self.heap:
            wl = heapq.heappop(self.heap)[4]
            if self.members.get(wl.key) is wl:
                del self.members[wl.key]
                return wl
        return None

    def add(self, wl: Workload) -> None:
        """PushOrUpdate of a new or updated pending workload."""
        if wl.key in self.inadmissible:
            del self.inadmissible[wl.key]
        self._push(wl)

    def requeue(self, wl: Workload, reason: str, pending_flavors: bool) -> None:
        if reason == PENDING_PREEMPTION and not self.strict:
            self.sticky = wl.key
        if self.strict:
            immediate = reason != NAMESPACE_MISMATCH
        else:
            immediate = reason in (FAILED_AFTER_NOMINATION, PENDING_PREEMPTION, PREEMPTION_FAILED)
        if immediate or self.flush_cycle >= self.pop_cycle or pending_flavors:
            parked = self.inadmissible.pop(wl.key, None)
            self._push(parked or wl)
            return
        if wl.key in self.inadmissible or wl.key in self.members:
            return
        self.inadmissible[wl.key] = wl

    def forget(self, key: str) -> None:
        if self.sticky == key:
            self.sticky = None

    def flush(self, namespaces: dict[str, dict[str, str]]) -> None:
        self.flush_cycle = self.pop_cycle
        keep = {}
        for key, wl in sorted(self.inadmissible.items()):
            if not self.selector.matches(namespaces.get(wl.namespace, {})):
                keep[key] = wl
            else:
                self._push(wl)
        self.inadmissible = keep
