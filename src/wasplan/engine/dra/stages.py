"""The allocator's per-device checks for one request, as stages: how many checks, in the allocator's order, a
device passes — the DeviceClass's selectors, each request selector, capacity requests, untolerated taints
(`structured/internal/incubating/allocator_incubating.go` v0.36.0, as engine/dra/search.py `selectable` and
take.py `_precheck` run them). Each check is the engine's own function: the plan's `SelectorCache` (CEL),
`capacity.fits`, `taint_blocks`; the split into stages is what `wasplan explain` and `lint --cluster` show, so a
report can say which one left no device. Results are kept per device id.
"""

from __future__ import annotations

from wasplan.cluster.devices import Device
from wasplan.cluster.dra_objects import quantity_text
from wasplan.engine.dra import capacity as cap
from wasplan.engine.dra.errors import AllocationError
from wasplan.engine.dra.taints import taint_blocks


def _tainted(allocator) -> bool:
    return any(d.taints for s in allocator.index.all for d in s.devices)


class Checks:
    """The allocator's per-device checks for one request, evaluated once per device (by id)."""

    def __init__(self, allocator, item) -> None:
        self.allocator, self.item = allocator, item
        self.cls = allocator.classes.get(item.spec.device_class_name)
        spec = item.spec
        self.labels = [f"class {spec.device_class_name}"]
        self.labels += [f"selector #{i} {e}" for i, e in enumerate(spec.selectors)]
        if spec.capacity:
            self.labels.append("capacity " + ", ".join(f"{k}={quantity_text(v)}" for k, v in spec.capacity))
        self.taints = allocator.features.device_taints and _tainted(allocator)
        if self.taints:
            self.labels.append("tolerated taints")
        self.depth: dict[tuple, int] = {}
        self.errors: list[str] = []

    def passed(self, did: tuple, device: Device) -> int:
        """How many checks, in order, the device passes (len(labels) = selectable)."""
        hit = self.depth.get(did)
        if hit is None:
            hit = self._passed(did, device)
            self.depth[did] = hit
        return hit

    def _passed(self, did: tuple, device: Device) -> int:
        if self.cls is None or not self._match(f"class {self.cls.name}", self.cls.selectors, did, device):
            return 0
        spec, n = self.item.spec, 1
        for i in range(len(spec.selectors)):  # the earlier ones passed (cached): this one decides, with its index
            if not self._match(f"claim {self.item.claim.key}", spec.selectors[:i + 1], did, device):
                return n
            n += 1
        if spec.capacity:
            if not cap.fits(spec.capacity, device, self.allocator.ledger.consumed(did), None):
                return n
            n += 1
        if self.taints:
            if taint_blocks(device, spec.tolerations):
                return n
            n += 1
        return n

    def _match(self, owner: str, selectors: tuple, did: tuple, device: Device) -> bool:
        try:
            return self.allocator.cel.matches(owner, selectors, did, device)
        except AllocationError as exc:
            if str(exc) not in self.errors:
                self.errors.append(str(exc))
            return False
