"""Device taints and request tolerations (DRADeviceTaints).

`taintPreventsAllocation` in `structured/internal/incubating/allocator_incubating.go` and `ToleratesTaint` in
`resourceclaim/devicetoleration.go` (v0.36.0): a `NoSchedule` or `NoExecute` taint that no toleration of the
request tolerates excludes the device; `None` never does. A toleration tolerates a taint when its effect is empty or
equal, its key is empty or equal, and its operator is `Exists` or (`Equal`) the values are equal.
"""

from __future__ import annotations

from wasplan.cluster.devices import Device, DeviceTaint, DeviceToleration

BLOCKING = ("NoSchedule", "NoExecute")


def tolerates(toleration: DeviceToleration, taint: DeviceTaint) -> bool:
    if toleration.effect and toleration.effect != taint.effect:
        return False
    if toleration.key and toleration.key != taint.key:
        return False
    if toleration.operator == "Exists":
        return True
    return toleration.value == taint.value


def taint_blocks(device: Device, tolerations: tuple[DeviceToleration, ...]) -> bool:
    return any(taint.effect in BLOCKING and not any(tolerates(t, taint) for t in tolerations)
               for taint in device.taints)
