"""Consumable capacity (DRAConsumableCapacity): how much of a shareable device a request consumes, and whether it
still fits. Follows `structured/internal/incubating/consumable_capacity.go` (v0.36.0):

* per capacity name of the device, consumption = the requested value rounded up by the request policy
  (`validRange`: up to `min`, then to `min + k*step`; `validValues`: the first value >= the request), or the
  policy's `default`, or the whole capacity when the request does not name it;
* a request naming a capacity the device does not have never fits that device;
* it fits when it does not violate the policy and, added to what is already consumed (allocated claims plus
  this search), stays within the capacity's value.
"""

from __future__ import annotations

import math
from fractions import Fraction

from wasplan.cluster.devices import Capacity, Device, RequestPolicy

Amounts = dict[str, Fraction]


def _round_up(requested: Fraction, policy: RequestPolicy | None) -> Fraction:
    if policy is None:
        return requested
    if policy.range_min is not None:
        if requested < policy.range_min:
            return policy.range_min
        if policy.range_step is None:
            return requested
        base, step = math.ceil(policy.range_min), math.ceil(policy.range_step)  # Value(): whole units, rounded up
        added = math.ceil(requested) - base
        n = -(-added // step)
        return Fraction(base + step * n)
    for value in policy.valid_values:
        if requested <= value:
            return value
    return requested


def consumption(requested: Fraction | None, cap: Capacity) -> Fraction:
    if requested is None:
        if cap.policy is not None and cap.policy.default is not None:
            return cap.policy.default
        return cap.value
    return _round_up(requested, cap.policy)


def _violates(value: Fraction, policy: RequestPolicy | None) -> bool:
    if policy is None or (policy.default is not None and value == policy.default):
        return False
    if policy.range_min is not None:
        if policy.range_max is not None and value > policy.range_max:
            return True
        if policy.range_step is not None:
            return (math.ceil(value) - math.ceil(policy.range_min)) % math.ceil(policy.range_step) != 0
        return False
    if policy.valid_values:
        return value not in policy.valid_values
    return False


def consumed_by(requests: tuple | None, device: Device) -> Amounts:
    wanted = dict(requests or ())
    return {name: consumption(wanted.get(name), cap) for name, cap in device.capacity.items()}


def fits(requests: tuple | None, device: Device, allocated: Amounts | None, allocating: Amounts | None) -> bool:
    wanted = dict(requests or ())
    if any(name not in device.capacity for name in wanted):
        return False
    for name, cap in device.capacity.items():
        value = consumption(wanted.get(name), cap)
        if _violates(value, cap.policy):
            return False
        total = value + (allocated or {}).get(name, 0) + (allocating or {}).get(name, 0)
        if total > cap.value:
            return False
    return True
