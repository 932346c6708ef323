"""The small records one allocation search works with (shared by `search`, `take` and `prepare`)."""

from __future__ import annotations

from dataclasses import dataclass

from wasplan.cluster.devices import Device, DeviceClass, DeviceID, ResourceSlice, RequestSpec
from wasplan.engine.dra.capacity import Amounts
from wasplan.engine.dra.pools import Pool

Key = tuple[int, int, int]  # claim, request, subrequest index
START = (0, 0, 0)


class MaxSizeExceeded(Exception):
    """`errAllocationResultMaxSizeExceeded`: this branch would put more than 32 results in one claim."""


@dataclass(slots=True, frozen=True)
class Candidate:
    id: DeviceID
    device: Device
    slice: ResourceSlice
    pool: Pool


@dataclass(slots=True)
class RequestData:
    spec: RequestSpec
    parent: str | None  # the request's name when `spec` is one of its firstAvailable subrequests
    cls: DeviceClass
    num: int
    all_devices: list[Candidate] | None = None

    @property
    def full_name(self) -> str:
        return f"{self.parent}/{self.spec.name}" if self.parent else self.spec.name


@dataclass(slots=True)
class Picked:
    request: str  # subrequest name, or the request's name
    parent: str | None
    cand: Candidate
    spec: RequestSpec
    share_id: str | None = None
    consumed: Amounts | None = None
