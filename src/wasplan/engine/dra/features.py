"""The DRA features the allocator honours, as plain flags the engine derives from the release and gates.

Gate flags follow `structured/internal/types.go` `Features` (k8s.io/dynamic-resource-allocation v0.36.0); gate
defaults per release are in `../shared/reference/dra.md` §2. The last four flags are release behaviours of the
1.37 allocator (master 3d036712 against v0.36.0), not gates, so the engine sets them from a release capability:

* `cel_error_on_device`: a CEL runtime error names the device and hints at `has()` / optional chaining
  (`cel/errors.go`);
* `counters_follow_node_selection`: a slice with `sharedCounters` is a candidate only when it targets the node like
  any slice, and counter sets published in the pool's other slices are gathered too (1.36: always a candidate);
* `claim_config_once`: a claim config naming several requests is added once, and one that names every request
  has its request list cleared (1.36 adds it once per named request);
* `shared_devices_consume_counters`: devices allocated with a share ID count against their counter sets
  (`internal.IsDeviceAllocated`; 1.36 counts only devices allocated whole).
"""

from __future__ import annotations

from dataclasses import dataclass

from wasplan.api.releases import Gates


@dataclass(frozen=True, slots=True)
class Features:
    admin_access: bool = True  # DRAAdminAccess (GA)
    prioritized_list: bool = True  # DRAPrioritizedList (GA)
    partitionable_devices: bool = True  # DRAPartitionableDevices (beta, on)
    device_taints: bool = True  # DRADeviceTaints
    consumable_capacity: bool = True  # DRAConsumableCapacity (beta, on)
    binding_conditions: bool = True  # DRADeviceBindingConditions + DRAResourceClaimDeviceStatus
    cel_error_on_device: bool = False
    counters_follow_node_selection: bool = False
    claim_config_once: bool = False
    shared_devices_consume_counters: bool = False

    @property
    def incubating(self) -> bool:
        """Upstream picks the stable allocator when no incubating feature is on; it rejects distinctAttribute."""
        return self.consumable_capacity or self.binding_conditions

    @classmethod
    def from_gates(cls, on: Gates, caps) -> "Features":
        """From the gates in force (`GateSet.on`) and the release's allocator capabilities (api/releases.py)."""
        return cls(
            admin_access=on.dra_admin_access, prioritized_list=on.dra_prioritized_list,
            partitionable_devices=on.dra_partitionable_devices, device_taints=on.dra_device_taints,
            consumable_capacity=on.dra_consumable_capacity,
            binding_conditions=on.dra_device_binding_conditions and on.dra_resource_claim_device_status,
            cel_error_on_device=caps.dra_cel_error_on_device,
            counters_follow_node_selection=caps.dra_counters_follow_node_selection,
            claim_config_once=caps.dra_claim_config_once,
            shared_devices_consume_counters=caps.dra_shared_devices_consume_counters)
