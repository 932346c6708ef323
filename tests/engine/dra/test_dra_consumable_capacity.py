"""Consumable capacity (DRAConsumableCapacity) cases of upstream's allocator tests, replayed by name:
`structured/internal/allocatortesting/allocator_testing.go`, k8s.io/dynamic-resource-allocation v0.36.0
(commit c44687d1). Upstream uses a fixed share ID; here share IDs are name-based UUIDs, so only their presence
and the consumed capacity are compared."""

from __future__ import annotations

from fractions import Fraction

import pytest

from drahelp import CLASS_A, DRIVER_A, NODE1, POOL1, REGION1, allocate, claim, exact, node, resource_slice
from wasplan.engine.dra import AllocationError, Features

N1 = node(NODE1, REGION1)
MULTI_CLASS = {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": CLASS_A},
               "spec": {"selectors": [{"cel": {"expression":
                                               f'device.driver == "{DRIVER_A}" && device.allowMultipleAllocations == true'}}]}}
PLAIN_CLASS = {**MULTI_CLASS, "spec": {"selectors": [{"cel": {"expression": f'device.driver == "{DRIVER_A}"'}}]}}
RANGE_POLICY = {"default": 2, "validRange": {"min": 2, "step": 2, "max": 4}}


def shared_device(name: str, value: int, policy: dict) -> dict:
    return {"name": name, "allowMultipleAllocations": True,
            "capacity": {"capacity-0": {"value": value, "requestPolicy": policy}}}


def capacity_request(name: str, amount: int | None) -> dict:
    extra = {} if amount is None else {"capacity": {"requests": {"capacity-0": amount}}}
    return exact(name, CLASS_A, 1, **extra)


def consumed(result) -> list[list[tuple]]:
    return [[(r.device, dict(r.consumed_capacity), r.share_id is not None) for r in a.results]
            for a in result.allocations]


def test_consumable_capacity_multi_allocatable_device_with_range_policy_with_capacity_request():
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, shared_device("device-1", 4, RANGE_POLICY))]
    claims = [claim("claim-0", capacity_request("req-0", 1)), claim("claim-1", capacity_request("req-0", 1))]
    result = allocate(claims, [MULTI_CLASS], slices, N1)
    assert consumed(result) == [[("device-1", {"capacity-0": Fraction(2)}, True)]] * 2
    assert result.allocations[0].results[0].share_id != result.allocations[1].results[0].share_id


def test_consumable_capacity_multi_allocatable_device_with_range_policy_step():
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, shared_device("device-1", 4, RANGE_POLICY))]
    result = allocate([claim("claim-0", capacity_request("req-0", 3))], [MULTI_CLASS], slices, N1)
    assert consumed(result) == [[("device-1", {"capacity-0": Fraction(4)}, True)]]


def test_consumable_capacity_multi_allocatable_device_with_valid_values_policy():
    policy = {"default": 1, "validValues": [1, 2]}
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, shared_device("device-1", 4, policy))]
    result = allocate([claim("claim-0", capacity_request("req-0", 2))], [MULTI_CLASS], slices, N1)
    assert consumed(result) == [[("device-1", {"capacity-0": Fraction(2)}, True)]]


def test_consumable_capacity_multi_allocatable_device_with_valid_values_policy_round_up():
    policy = {"default": 1, "validValues": [1, 3]}
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, shared_device("device-1", 3, policy))]
    result = allocate([claim("claim-0", capacity_request("req-0", 2))], [MULTI_CLASS], slices, N1)
    assert consumed(result) == [[("device-1", {"capacity-0": Fraction(3)}, True)]]


def test_consumable_capacity_multi_allocatable_device_with_allocated_capacity_use_remaining():
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, shared_device("device-1", 4, RANGE_POLICY))]
    result = allocate([claim("claim-0", capacity_request("req-0", 2))], [MULTI_CLASS], slices, N1,
                      allocated_capacity=[((DRIVER_A, POOL1, "device-1"), {"capacity-0": Fraction(2)})])
    assert consumed(result) == [[("device-1", {"capacity-0": Fraction(2)}, True)]]


def test_consumable_capacity_multi_allocatable_device_with_allocated_capacity_next_device():
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, shared_device("device-1", 2, RANGE_POLICY),
                             shared_device("device-2", 2, RANGE_POLICY))]
    result = allocate([claim("claim-0", capacity_request("req-0", 2))], [MULTI_CLASS], slices, N1,
                      allocated_capacity=[((DRIVER_A, POOL1, "device-1"), {"capacity-0": Fraction(2)})])
    assert consumed(result) == [[("device-2", {"capacity-0": Fraction(2)}, True)]]


def test_consumable_capacity_multi_allocatable_device_with_missing_capacity_request():
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, {"name": "device-1", "allowMultipleAllocations": True,
                                                                 "capacity": {"capacity-1": {"value": 1}}})]
    assert allocate([claim("claim-0", capacity_request("req-0", 1))], [PLAIN_CLASS], slices, N1) is None


def test_consumable_capacity_disabled_feature():
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, shared_device("device-1", 4, RANGE_POLICY))]
    with pytest.raises(AllocationError, match="claim default/claim-0, request req-0: has capacity requests, but the "
                                              "DRAConsumableCapacity feature is disabled"):
        allocate([claim("claim-0", capacity_request("req-0", 1))], [MULTI_CLASS], slices, N1,
                 features=Features(consumable_capacity=False))


def test_consumable_capacity_dedicated_device_with_consumable_capacity_request():
    # a device without allowMultipleAllocations is taken whole; the request only has to fit its capacity.
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A,
                             {"name": "device-1", "capacity": {"capacity-0": {"value": 1}}})]
    dedicated = {**MULTI_CLASS, "spec": {"selectors": [{"cel": {"expression":
                                                                f'device.driver == "{DRIVER_A}" && device.allowMultipleAllocations == false'}}]}}
    result = allocate([claim("claim-0", capacity_request("req-0", 1))], [dedicated], slices, N1)
    assert consumed(result) == [[("device-1", {}, False)]]
