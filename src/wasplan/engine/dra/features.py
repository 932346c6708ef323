"""The DRA features the allocator honours, as plain flags the engine derives from the release and gates.

Names follow `structured/internal/types.go` `Features` (k8s.io/dynamic-resource-allocation v0.36.0); gate defaults
per release are in `../shared/reference/dra.md` §2. `cel_error_on_device` is the 1.37 change to the CEL runtime
error text (` on device <driver>/<pool>/<device>` plus a hint for missing keys, `cel/errors.go` on master): a
release capability, not a gate, so the engine sets it from the release's capabilities.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Features:
    admin_access: bool = True  # DRAAdminAccess (GA)
    prioritized_list: bool = True  # DRAPrioritizedList (GA)
    partitionable_devices: bool = True  # DRAPartitionableDevices (beta, on)
    device_taints: bool = True  # DRADeviceTaints
    consumable_capacity: bool = True  # DRAConsumableCapacity (beta, on)
    binding_conditions: bool = True  # DRADeviceBindingConditions + DRAResourceClaimDeviceStatus
    cel_error_on_device: bool = False  # 1.37 runtime error message

    @property
    def incubating(self) -> bool:
        """Upstream picks the stable allocator when no incubating feature is on; it rejects distinctAttribute."""
        return self.consumable_capacity or self.binding_conditions
