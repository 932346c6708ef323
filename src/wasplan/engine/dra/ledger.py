"""Devices in use across the plan: a reversible ledger the engine drives from Reserve / Unreserve.

What counts as in use follows the scheduler's allocated-devices tracker (k/k
`pkg/scheduler/framework/plugins/dynamicresources/allocateddevices.go`) and `structured/internal/allocatedstate.go`:
a result with `adminAccess: true` blocks nothing; a result with a `shareID` (a device that allows multiple
allocations) adds its `consumedCapacity` to the device's aggregate instead of marking the device allocated;
every other result marks the device allocated. `add` and `remove` are exact inverses, so gang trials, placement
trials and preemption dry runs can undo through a journal instead of copying. Counters of partitionable devices
are not stored: they are derived from the allocated devices (as upstream does), see `Allocator`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable

from wasplan.cluster.devices import DeviceID, DeviceResult


class InUseLedger:
    def __init__(self) -> None:
        self.allocated: dict[DeviceID, int] = {}  # how many non-admin, non-shared results hold the device
        self.capacity: dict[DeviceID, dict[str, Fraction]] = {}  # aggregated consumed capacity of shared devices
        self.version = 0  # bumped by every change, so derived caches know when to rebuild
        self.changes: list[tuple[DeviceID, int]] = []  # (device, +1/-1) per allocated-count change, for followers

    def add(self, results: Iterable[DeviceResult]) -> None:
        for r in results:
            self._apply(r, 1)

    def remove(self, results: Iterable[DeviceResult]) -> None:
        for r in results:
            self._apply(r, -1)

    def _apply(self, r: DeviceResult, sign: int) -> None:
        if r.admin_access:
            return
        self.version += 1
        key = r.device_id
        if r.share_id is not None:
            totals = self.capacity.setdefault(key, {})
            for name, amount in r.consumed_capacity:
                totals[name] = totals.get(name, Fraction(0)) + sign * amount
            if sign < 0 and all(v == 0 for v in totals.values()):
                del self.capacity[key]
            return
        count = self.allocated.get(key, 0) + sign
        if count < 0:
            raise ValueError(f"device {'/'.join(key)} removed more often than added")
        self.changes.append((key, sign))
        if count:
            self.allocated[key] = count
        else:
            self.allocated.pop(key, None)

    def in_use(self, device: DeviceID) -> bool:
        return device in self.allocated

    def consumed(self, device: DeviceID) -> dict[str, Fraction] | None:
        return self.capacity.get(device)
