"""The scheduling queue: activeQ ordered by PrioritySort, the unschedulable set, and PreEnqueue-gated pods.

Items are pod keys ("pod", ns/name) or, in 1.37, PodGroup entities ("group", ns/name). PrioritySort orders by
priority (higher first), then queue timestamp (earlier first); the insertion counter breaks exact ties so runs
are reproducible. Backoff and the unschedulable pool's timers are modelled as "an item that failed waits until
a cluster change that may help it" (engine-semantics §1.2), which `requeue` implements.

The backoff is kept as upstream orders it: an item that failed and that an event moves back (`requeue`), and a
pod whose PostFilter preempted (victims evicted, the pod nominated) requeued by its own victims' deletion, go to
the backoffQ, as their backoff (1 s, doubling per failure) has not elapsed when the event comes on the
scheduler's timescale (scheduling_queue.go movePodsToActiveOrBackoffQueue, isPodBackingoff), and with
SchedulerPopFromBackoffQ the backoffQ is popped only when activeQ is empty
(pkg/scheduler/backend/queue/scheduling_queue.go AddUnschedulableIfNotPresent and
determineSchedulingHintForInFlightPod, active_queue.go pop, backoff_queue.go lessBackoffCompletedWithPriority: the
same backoff window orders as activeQ does). `back_off` holds such an item; `pop` takes it once activeQ is empty,
so every pod queued before it is attempted first, seeing the preemptor only as a nominated pod.

The backoffQ is ordered by when each item's backoff completes, then as activeQ orders (backoff_queue.go
getBackoffTime, calculateBackoffDuration): the item's last failure time plus 1 s doubled per earlier failure
(its UnschedulableCount, or its ConsecutiveErrorsCount after an error; at most 10 s), truncated to the
second. A plan's cycles all run within a second of scheduler time, so the completion order is the backoff's
length: an item that failed once retries before one that failed twice, whichever failed last. `failed` counts
the failures; a group entity's partial success (`push`) clears them (scheduling_queue.go
AddUnschedulablePodGroupIfNotPresent). The 10 s cap ignores the longer one of many-pod entities (sqrt of
their size), which only matters after five failures.
"""

from __future__ import annotations

import heapq
from enum import StrEnum


class QueueKind(StrEnum):
    """What a queue item is: a pod, a PodGroup entity, or the root of a CompositePodGroup tree (also the kinds of a
    tree's children)."""

    POD = "pod"
    GROUP = "group"
    COMPOSITE = "composite"


Item = tuple[QueueKind, str]


INITIAL_BACKOFF_S, MAX_BACKOFF_S = 1, 10  # kube-scheduler's podInitialBackoffSeconds, podMaxBackoffSeconds


def backoff_seconds(unschedulable: int, errors: int) -> int:
    """calculateBackoffDuration for an entity of one pod: 1 s doubled per earlier failure, at most 10 s; the
    consecutive errors count instead of the unschedulable attempts after an error."""
    count = errors or unschedulable
    if count == 0:
        return 0
    return min(INITIAL_BACKOFF_S << min(count - 1, 8), MAX_BACKOFF_S)


class SchedulingQueue:
    def __init__(self) -> None:
        self._heap: list[tuple[int, int, int, Item]] = []
        self._live: dict[Item, tuple[int, int, int, Item]] = {}
        self.unschedulable: dict[Item, tuple[int, int]] = {}  # item -> (priority, ts)
        self._counter = 0
        self._backoff: list[tuple[int, int, int, int, Item]] = []  # popped only when activeQ is empty
        self._backing_off: dict[Item, tuple[int, int, int, int, Item]] = {}
        self._failures: dict[Item, tuple[int, int]] = {}  # item -> (unschedulable attempts, consecutive errors)

    def _entry(self, item: Item, priority: int, ts: int) -> tuple[int, int, int, Item]:
        self._counter += 1
        return (-priority, ts, self._counter, item)

    def failed(self, item: Item, error: bool = False) -> None:
        """The item's attempt failed: Unschedulable (or an error) once more, which lengthens its backoff."""
        unschedulable, errors = self._failures.get(item, (0, 0))
        self._failures[item] = (unschedulable, errors + 1) if error else (unschedulable + 1, 0)

    def push(self, item: Item, priority: int, ts: int) -> None:
        self.unschedulable.pop(item, None)
        self._backing_off.pop(item, None)
        self._failures.pop(item, None)
        entry = self._entry(item, priority, ts)
        self._live[item] = entry
        heapq.heappush(self._heap, entry)

    def discard(self, item: Item) -> None:
        self._live.pop(item, None)
        self.unschedulable.pop(item, None)
        self._backing_off.pop(item, None)
        self._failures.pop(item, None)

    def active(self, item: Item) -> bool:
        return item in self._live

    def timestamp(self, item: Item) -> int | None:
        """The queue timestamp of an item waiting in activeQ or the unschedulable set."""
        if item in self._live:
            return self._live[item][1]
        parked = self.unschedulable.get(item)
        return parked[1] if parked else None

    def pop(self) -> Item | None:
        while self._heap:
            entry = heapq.heappop(self._heap)
            item = entry[3]
            if self._live.get(item) is entry:
                del self._live[item]
                return item
        while self._backoff:
            entry = heapq.heappop(self._backoff)
            item = entry[-1]
            if self._backing_off.get(item) is entry:
                del self._backing_off[item]
                return item
        return None

    def back_off(self, item: Item, priority: int, ts: int) -> None:
        """The item failed but an event of its own cycle requeued it while its backoff runs: it waits in the
        backoffQ (module docstring) instead of the unschedulable set."""
        self._live.pop(item, None)
        self.unschedulable.pop(item, None)
        entry = (backoff_seconds(*self._failures.get(item, (0, 0))), *self._entry(item, priority, ts))
        self._backing_off[item] = entry
        heapq.heappush(self._backoff, entry)

    def park(self, item: Item, priority: int, ts: int) -> None:
        """The item failed: wait in the unschedulable set."""
        self._live.pop(item, None)
        self._backing_off.pop(item, None)
        self.unschedulable[item] = (priority, ts)

    def requeue(self, wanted=None) -> int:
        """Move unschedulable items to the backoffQ (all, or those `wanted(item)` accepts): retried once activeQ,
        the items never tried yet, is empty, in activeQ's order (their backoff windows taken as equal)."""
        moved = [i for i in self.unschedulable if wanted is None or wanted(i)]
        for item in moved:
            priority, ts = self.unschedulable.pop(item)
            self.back_off(item, priority, ts)
        return len(moved)

    def __len__(self) -> int:
        return len(self._live) + len(self._backing_off)
