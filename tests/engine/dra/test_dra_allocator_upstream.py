"""Upstream allocator cases replayed by name: `structured/internal/allocatortesting/allocator_testing.go`,
k8s.io/dynamic-resource-allocation tag v0.36.0 (commit c44687d139199fd20ffb4b182f836fe0ed33987b). Each test is
named after the upstream case and asserts the same results (request, driver, pool, device; node selector)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from drahelp import (
    CLASS_A, CLASS_B, DRIVER_A, DRIVER_B, NODE1, NODE2, POOL1, POOL2, POOL3, POOL4, REGION1, REGION2, allocate,
    claim, device, device_class, exact, first_available, label_selector, local_selector, node, picks,
    resource_slice, selector_of, sub,
)
from wasplan.cluster.model import NodeSelectorTerm, Requirement
from wasplan.engine.dra import AllocationError, Features, NodeUnschedulable

N1 = node(NODE1, REGION1)
RELEASE_137 = Features(cel_error_on_device=True, counters_follow_node_selection=True, claim_config_once=True,
                       shared_devices_consume_counters=True)
LOCAL1 = (NodeSelectorTerm(match_fields=(Requirement("metadata.name", "In", (NODE1,)),)),)
MEM = 'device.capacity["driver-a"].memory.compareTo(quantity("{}")) >= 0'
CLASSES = [device_class(CLASS_A, DRIVER_A)]


def one_device_slice(name, where, pool, driver=DRIVER_A, **kw):
    return resource_slice(name, where, pool, driver, device("device-1"), **kw)


def test_simple():
    result = allocate([claim("claim-0", exact("req-0", CLASS_A))], CLASSES, [one_device_slice("slice-1", NODE1, POOL1)], N1)
    assert picks(result) == [[("req-0", DRIVER_A, POOL1, "device-1")]]
    assert selector_of(result) == LOCAL1


def test_other_node():
    slices = [one_device_slice("slice-1", NODE1, POOL1), one_device_slice("slice-2", NODE2, POOL2)]
    result = allocate([claim("claim-0", exact("req-0", CLASS_A))], CLASSES, slices, N1)
    assert picks(result) == [[("req-0", DRIVER_A, POOL1, "device-1")]]


def _small_large(order):
    return [resource_slice("slice-1", NODE1, POOL1, DRIVER_A,
                           *(device(name, {"memory": mem}) for name, mem in order))]


def test_small_and_large_backtrack_requests():
    claims = [claim("claim-0", exact("req-0", CLASS_A, 1, MEM.format("1Gi")), exact("req-1", CLASS_A, 1, MEM.format("2Gi")))]
    result = allocate(claims, CLASSES, _small_large([("device-2", "2Gi"), ("device-1", "1Gi")]), N1)
    assert picks(result) == [[("req-0", DRIVER_A, POOL1, "device-1"), ("req-1", DRIVER_A, POOL1, "device-2")]]


def test_small_and_large_backtrack_claims():
    claims = [claim("claim-0", exact("req-0", CLASS_A, 1, MEM.format("1Gi"))),
              claim("claim-1", exact("req-1", CLASS_A, 1, MEM.format("2Gi")))]
    result = allocate(claims, CLASSES, _small_large([("device-2", "2Gi"), ("device-1", "1Gi")]), N1)
    assert picks(result) == [[("req-0", DRIVER_A, POOL1, "device-1")], [("req-1", DRIVER_A, POOL1, "device-2")]]
    assert selector_of(result, 1) == LOCAL1


def test_devices_split_across_different_slices():
    slices = [one_device_slice("slice-1", NODE1, POOL1), one_device_slice("slice-2", NODE1, POOL2)]
    result = allocate([claim("claim-0", exact("req-0", CLASS_A, 2))], CLASSES, slices, N1)
    assert picks(result) == [[("req-0", DRIVER_A, POOL1, "device-1"), ("req-0", DRIVER_A, POOL2, "device-1")]]


def test_obsolete_slice():
    slices = [resource_slice("slice-1-obsolete", NODE1, POOL1, DRIVER_A, device("device-1"), count=2),
              resource_slice("slice-1-obsolete", NODE1, POOL1, DRIVER_A, device("device-2"), count=2, generation=2)]
    assert allocate([claim("claim-0", exact("req-0", CLASS_A))], CLASSES, slices, N1) is None


def test_duplicate_slice():
    slices = [one_device_slice("slice-1", NODE1, POOL1, count=2), one_device_slice("slice-1-2", NODE1, POOL1, count=2)]
    with pytest.raises(NodeUnschedulable, match="^invalid resource pools were encountered$"):
        allocate([claim("claim-0", exact("req-0", CLASS_A))], CLASSES, slices, N1)


def test_unknown_class():
    with pytest.raises(AllocationError, match="claim default/claim-0, request req-0: could not retrieve device class class-b"):
        allocate([claim("claim-0", exact("req-0", CLASS_B))], CLASSES, [one_device_slice("slice-1", NODE1, POOL1)], N1)


def test_all_devices_many():
    slices = [one_device_slice("slice-1", NODE1, POOL1), one_device_slice("slice-1", NODE1, POOL2)]
    result = allocate([claim("claim-0", exact("req-0", CLASS_A, None, allocationMode="All"))], CLASSES, slices, N1)
    assert picks(result) == [[("req-0", DRIVER_A, POOL1, "device-1"), ("req-0", DRIVER_A, POOL2, "device-1")]]


def test_all_devices_of_the_incomplete_pool():
    slices = [one_device_slice("slice-1", NODE1, POOL1, count=2)]
    with pytest.raises(AllocationError, match="asks for all devices, but resource pool driver-a/pool-1 is currently being updated"):
        allocate([claim("claim-0", exact("req-0", CLASS_A, None, allocationMode="All"))], CLASSES, slices, N1)


def test_all_devices_no_slices():
    assert allocate([claim("claim-0", exact("req-0", CLASS_A, None, allocationMode="All"))], CLASSES, [], N1) is None


def test_all_devices_some_allocated():
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, device("device-1"), device("device-2"))]
    claims = [claim("claim-0", exact("req-0", CLASS_A, None, allocationMode="All"))]
    assert allocate(claims, CLASSES, slices, N1, allocated=[(DRIVER_A, POOL1, "device-1")]) is None


def test_all_devices_some_allocated_admin_access():
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, device("device-1"), device("device-2"))]
    claims = [claim("claim-0", exact("req-0", CLASS_A, None, allocationMode="All", adminAccess=True))]
    result = allocate(claims, CLASSES, slices, N1, allocated=[(DRIVER_A, POOL1, "device-1")])
    assert picks(result) == [[("req-0", DRIVER_A, POOL1, "device-1"), ("req-0", DRIVER_A, POOL1, "device-2")]]
    assert all(r.admin_access for r in result.allocations[0].results)


def test_network_attached_device():
    slices = [one_device_slice("slice-1", label_selector("region", REGION1), POOL1)]
    result = allocate([claim("claim-0", exact("req-0", CLASS_A))], CLASSES, slices, N1)
    assert picks(result) == [[("req-0", DRIVER_A, POOL1, "device-1")]]
    assert selector_of(result) == (NodeSelectorTerm(match_expressions=(Requirement("region", "In", (REGION1,)),)),)


def test_unsuccessful_allocation_network_attached_device():
    slices = [one_device_slice("slice-1", label_selector("region", REGION1), POOL1)]
    assert allocate([claim("claim-0", exact("req-0", CLASS_A))], CLASSES, slices, node(NODE2, REGION2)) is None


def test_many_network_attached_devices():
    slices = [one_device_slice("slice-1", label_selector("region", REGION1), POOL1),
              one_device_slice("slice-1", "all", POOL2),
              one_device_slice("slice-1", label_selector("planet", "earth"), POOL3),
              one_device_slice("slice-1", local_selector(NODE1), POOL4)]
    result = allocate([claim("claim-0", exact("req-0", CLASS_A, 4))], CLASSES, slices, N1)
    assert picks(result) == [[("req-0", DRIVER_A, p, "device-1") for p in (POOL1, POOL2, POOL3, POOL4)]]
    assert selector_of(result) == (NodeSelectorTerm(
        match_expressions=(Requirement("region", "In", (REGION1,)), Requirement("planet", "In", ("earth",))),
        match_fields=(Requirement("metadata.name", "In", (NODE1,)),)),)


def test_local_and_network_attached_devices():
    slices = [one_device_slice("slice-1", label_selector("region", REGION1), POOL1), one_device_slice("slice-1", NODE1, POOL2)]
    result = allocate([claim("claim-0", exact("req-0", CLASS_A, 2))], CLASSES, slices, N1)
    assert picks(result) == [[("req-0", DRIVER_A, POOL1, "device-1"), ("req-0", DRIVER_A, POOL2, "device-1")]]
    assert selector_of(result) == LOCAL1


def test_all_nodes_device_has_no_node_selector():
    result = allocate([claim("claim-0", exact("req-0", CLASS_A))], CLASSES, [one_device_slice("slice-1", "all", POOL1)], N1)
    assert selector_of(result) is None


def test_already_allocated_devices():
    slices = [one_device_slice("slice-1", NODE1, POOL1)]
    assert allocate([claim("claim-0", exact("req-0", CLASS_A))], CLASSES, slices, N1,
                    allocated=[(DRIVER_A, POOL1, "device-1")]) is None


def test_admin_access_enabled():
    slices = [one_device_slice("slice-1", NODE1, POOL1)]
    result = allocate([claim("claim-0", exact("req-0", CLASS_A, adminAccess=True))], CLASSES, slices, N1,
                      allocated=[(DRIVER_A, POOL1, "device-1"), (DRIVER_A, POOL1, "device-2")])
    assert picks(result) == [[("req-0", DRIVER_A, POOL1, "device-1")]]
    assert result.allocations[0].results[0].admin_access is True


def test_admin_access_disabled():
    with pytest.raises(AllocationError, match="admin access is requested, but the feature is disabled"):
        allocate([claim("claim-0", exact("req-0", CLASS_A, adminAccess=True))], CLASSES,
                 [one_device_slice("slice-1", NODE1, POOL1)], N1, features=Features(admin_access=False))


ATTRS = {"driverVersion": {"version": "1.0.0"}, "numa": {"int": 1}, "stringAttribute": {"string": "stringAttributeValue"},
         "boolAttribute": {"bool": True}}


def test_with_constraint():
    constraints = [{"matchAttribute": f"{DRIVER_A}/{a}"} for a in ("numa", "driverVersion", "stringAttribute", "boolAttribute")]
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, device("device-1", None, ATTRS), device("device-2", None, ATTRS))]
    claims = [claim("claim-0", exact("req-0", CLASS_A), exact("req-1", CLASS_A), constraints=constraints)]
    assert picks(allocate(claims, CLASSES, slices, N1)) == [
        [("req-0", DRIVER_A, POOL1, "device-1"), ("req-1", DRIVER_A, POOL1, "device-2")]]


@pytest.mark.parametrize("attribute,other", [("numa", {"int": 2}), ("stringAttribute", {"string": "other"}),
                                             ("boolAttribute", {"bool": False}), ("driverVersion", {"version": "2.0.0"})])
def test_with_constraint_not_matching_attribute(attribute, other):
    changed = {**ATTRS, attribute: other}
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, device("device-1", None, ATTRS), device("device-2", None, changed))]
    claims = [claim("claim-0", exact("req-0", CLASS_A), exact("req-1", CLASS_A),
                    constraints=[{"matchAttribute": f"{DRIVER_A}/{attribute}"}])]
    assert allocate(claims, CLASSES, slices, N1) is None


def test_with_constraint_non_existent_attribute():
    slices = [one_device_slice("slice-1", NODE1, POOL1)]
    claims = [claim("claim-0", exact("req-0", CLASS_A), constraints=[{"matchAttribute": f"{DRIVER_A}/NonExistentAttribute"}])]
    assert allocate(claims, CLASSES, slices, N1) is None


def test_with_constraint_for_request_retry():
    def dev(name, version, text):
        return device(name, None, {"driverVersion": {"version": version}, "stringAttribute": {"string": text}})
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, dev("device-1", "1.0.0", "a"), dev("device-2", "2.0.0", "b"),
                             dev("device-3", "3.0.0", "b"))]
    claims = [claim("claim-0", exact("req-0", CLASS_A), exact("req-1", CLASS_A),
                    constraints=[{"requests": ["req-0"], "matchAttribute": f"{DRIVER_A}/driverVersion"},
                                 {"matchAttribute": f"{DRIVER_A}/stringAttribute"}])]
    assert picks(allocate(claims, CLASSES, slices, N1)) == [
        [("req-0", DRIVER_A, POOL1, "device-2"), ("req-1", DRIVER_A, POOL1, "device-3")]]


def test_with_distinct_constraints():
    def dev(name, version, numa, flag):
        return device(name, None, {"driverVersion": {"version": version}, "numa": {"int": numa},
                                   "boolAttribute": {"bool": flag}}, allowMultipleAllocations=True)
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, dev("device-1", "1.0.0", 0, True),
                             dev("device-2", "1.0.1", 1, False), dev("device-3", "1.0.2", 2, True),
                             dev("device-4", "1.0.0", 3, True))]
    constraints = [{"distinctAttribute": f"{DRIVER_A}/boolAttribute", "requests": ["req-0", "req-1"]},
                   {"distinctAttribute": f"{DRIVER_A}/driverVersion", "requests": ["req-0", "req-1", "req-2"]},
                   {"distinctAttribute": f"{DRIVER_A}/numa", "requests": ["req-0", "req-1", "req-2", "req-3"]}]
    claims = [claim("claim-0", *(exact(f"req-{i}", CLASS_A) for i in range(4)), constraints=constraints)]
    result = allocate(claims, CLASSES, slices, N1)
    assert picks(result) == [[(f"req-{i}", DRIVER_A, POOL1, f"device-{i + 1}") for i in range(4)]]
    assert all(r.share_id and r.consumed_capacity == () for r in result.allocations[0].results)


def test_distinct_attribute_quirk_compares_only_the_last_device_of_a_request():
    # constraint.go keeps one value per request name: req-0's second device replaces the first one's value, so
    # req-1 may reuse the value of req-0's FIRST device.
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, *(device(f"device-{i}", None, {"numa": {"int": n}})
                                                              for i, n in enumerate((0, 1, 0))))]
    claims = [claim("claim-0", exact("req-0", CLASS_A, 2), exact("req-1", CLASS_A),
                    constraints=[{"distinctAttribute": f"{DRIVER_A}/numa"}])]
    assert picks(allocate(claims, CLASSES, slices, N1)) == [
        [("req-0", DRIVER_A, POOL1, "device-0"), ("req-0", DRIVER_A, POOL1, "device-1"), ("req-1", DRIVER_A, POOL1, "device-2")]]


def test_prioritized_list_first_unavailable():
    classes = [device_class(CLASS_A, DRIVER_A), device_class(CLASS_B, DRIVER_B)]
    claims = [claim("claim-0", first_available("req-0", sub("subReq-0", CLASS_B), sub("subReq-1", CLASS_A)))]
    result = allocate(claims, classes, [one_device_slice("slice-1", NODE1, POOL1)], N1)
    assert picks(result) == [[("req-0/subReq-1", DRIVER_A, POOL1, "device-1")]]
    assert result.subrequests == ((("req-0", 1),),) and result.score == 7


def test_prioritized_list_disabled():
    claims = [claim("claim-0", first_available("req-0", sub("subReq-0", CLASS_A)))]
    with pytest.raises(AllocationError, match="has subrequests, but the DRAPrioritizedList feature is disabled"):
        allocate(claims, CLASSES, [one_device_slice("slice-1", NODE1, POOL1)], N1, features=Features(prioritized_list=False))


def test_prioritized_list_with_backtracking():
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, device("device-1", {"memory": "8Gi"})),
              resource_slice("slice-2", NODE1, POOL2, DRIVER_A, device("device-2", {"memory": "4Gi"}))]
    claims = [claim("claim-0",
                    first_available("req-0", sub("subReq-0", CLASS_A, selectors=[{"cel": {"expression": MEM.format("8Gi")}}]),
                                    sub("subReq-1", CLASS_A, selectors=[{"cel": {"expression": MEM.format("4Gi")}}])),
                    exact("req-1", CLASS_A, 1, MEM.format("8Gi")))]
    result = allocate(claims, CLASSES, slices, N1)
    assert picks(result) == [[("req-0/subReq-1", DRIVER_A, POOL2, "device-2"), ("req-1", DRIVER_A, POOL1, "device-1")]]
    assert result.score == 7


def _counter_devices(*memories, **extra):
    """upstream `device(name, fromCounters, nil).withDeviceCounterConsumption(...)`: capacity = the counters."""
    return [device(f"device-{i + 1}", {"memory": m},
                   consumesCounters=[{"counterSet": "counter-set-1", "counters": {"memory": {"value": m}}}], **extra)
            for i, m in enumerate(memories)]


def _counter_slice(name="slice-2", memory="8Gi", where=NODE1):
    return resource_slice(name, where, POOL1, DRIVER_A, count=2,
                          sharedCounters=[{"name": "counter-set-1", "counters": {"memory": {"value": memory}}}])


def test_partitionable_devices_multiple_devices():
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, *_counter_devices("4Gi", "6Gi", "4Gi"), count=2), _counter_slice()]
    result = allocate([claim("claim-0", exact("req-0", CLASS_A), exact("req-1", CLASS_A))], CLASSES, slices, N1)
    assert picks(result) == [[("req-0", DRIVER_A, POOL1, "device-1"), ("req-1", DRIVER_A, POOL1, "device-3")]]


def test_partitionable_devices_no_capacity_available():
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, *_counter_devices("4Gi", "16Gi"), count=2),
              _counter_slice(memory="18Gi")]
    assert allocate([claim("claim-0", exact("req-0", CLASS_A))], CLASSES, slices, N1,
                    allocated=[(DRIVER_A, POOL1, "device-2")]) is None


def test_partitionable_devices_disabled_device_consumes_counters():
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, *_counter_devices("4Gi"), count=2), _counter_slice()]
    assert allocate([claim("claim-0", exact("req-0", CLASS_A))], CLASSES, slices, N1,
                    features=Features(partitionable_devices=False)) is None


@pytest.mark.parametrize("features", [Features(), RELEASE_137], ids=["1.36", "1.37"])
def test_partitionable_devices_per_device_node_selection_nodename(features):
    one, two = _counter_devices("4Gi", "6Gi")
    slices = [resource_slice("slice-1", "per-device", POOL1, DRIVER_A, {**one, "nodeName": NODE1},
                             {**two, "nodeName": NODE2}, count=2),
              _counter_slice(memory="18Gi", where="per-device")]
    claims = [claim("claim-0", first_available("req-0",
                                               sub("subReq-0", CLASS_A, selectors=[{"cel": {"expression": MEM.format("6Gi")}}]),
                                               sub("subReq-1", CLASS_A, selectors=[{"cel": {"expression": MEM.format("4Gi")}}])))]
    result = allocate(claims, CLASSES, slices, N1, features=features)
    assert picks(result) == [[("req-0/subReq-1", DRIVER_A, POOL1, "device-1")]]
    assert selector_of(result) == LOCAL1


TAINT_NO_SCHEDULE = {"key": "taint-key", "value": "taint-value", "effect": "NoSchedule"}
TAINT_NO_EXECUTE = {"key": "taint-key", "value": "taint-value-2", "effect": "NoExecute"}
TOLERATION_NO_EXECUTE = {"operator": "Equal", "key": "taint-key", "value": "taint-value-2", "effect": "NoExecute"}
TAINTED = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, device("device-1", taints=[TAINT_NO_SCHEDULE]),
                          device("device-2", taints=[TAINT_NO_EXECUTE]))]


def test_tainted_two_devices():
    assert allocate([claim("claim-0", exact("req-0", CLASS_A))], CLASSES, TAINTED, N1) is None


def test_tainted_two_devices_tolerated():
    result = allocate([claim("claim-0", exact("req-0", CLASS_A, tolerations=[TOLERATION_NO_EXECUTE]))], CLASSES, TAINTED, N1)
    assert picks(result) == [[("req-0", DRIVER_A, POOL1, "device-2")]]
    [r] = result.allocations[0].results
    assert [(t.key, t.value, t.effect) for t in r.tolerations] == [("taint-key", "taint-value-2", "NoExecute")]


def test_tainted_two_devices_prioritized_list_tolerated():
    claims = [claim("claim-0", first_available("req-0", sub("subReq-0", CLASS_A),
                                               sub("subReq-1", CLASS_A, tolerations=[TOLERATION_NO_EXECUTE])))]
    assert picks(allocate(claims, CLASSES, TAINTED, N1)) == [[("req-0/subReq-1", DRIVER_A, POOL1, "device-2")]]


def test_tainted_no_effect():
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, device("device-1", taints=[{**TAINT_NO_SCHEDULE, "effect": "None"}]))]
    assert picks(allocate([claim("claim-0", exact("req-0", CLASS_A))], CLASSES, slices, N1)) == [
        [("req-0", DRIVER_A, POOL1, "device-1")]]


def test_tainted_disabled():
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, device("device-1", taints=[TAINT_NO_SCHEDULE, TAINT_NO_EXECUTE]))]
    assert picks(allocate([claim("claim-0", exact("req-0", CLASS_A))], CLASSES, slices, N1,
                          features=Features(device_taints=False))) == [[("req-0", DRIVER_A, POOL1, "device-1")]]


def test_invalid_cel_one_device():
    claims = [claim("claim-0", exact("req-0", CLASS_A, 1, "noSuchVar"))]
    with pytest.raises(AllocationError, match="^claim default/claim-0: selector #0: CEL compile error: undeclared reference to 'noSuchVar'"):
        allocate(claims, CLASSES, [one_device_slice("slice-1", NODE1, POOL1)], N1, strict=False)


def test_too_many_devices_single_request():
    # v1.36.5 and v1.37.2 word the limit per request (v1.36.3: "number of requested devices 33 exceeds ...")
    with pytest.raises(AllocationError, match="^claim default/claim-0, request req-0: adding 33 devices exceeds the "
                                              "claim limit of 32, with 0 already accounted for$"):
        allocate([claim("claim-0", exact("req-0", CLASS_A, 33))], CLASSES, [one_device_slice("slice-1", NODE1, POOL1)], N1)


def test_too_many_devices_second_request_names_it():
    # the request that passes the limit is named, with what the earlier requests already asked for
    claims = [claim("claim-0", exact("req-0", CLASS_A, 20), exact("req-1", CLASS_A, 13))]
    with pytest.raises(AllocationError, match="^claim default/claim-0, request req-1: adding 13 devices exceeds the "
                                              "claim limit of 32, with 20 already accounted for$"):
        allocate(claims, CLASSES, [one_device_slice("slice-1", NODE1, POOL1)], N1)


def test_too_many_devices_stops_before_later_requests():
    # checked before the next request is looked at: req-1's unknown class is not what the claim fails on
    claims = [claim("claim-0", exact("req-0", CLASS_A, 33), exact("req-1", "no-such-class"))]
    with pytest.raises(AllocationError, match="request req-0: adding 33 devices exceeds the claim limit of 32"):
        allocate(claims, CLASSES, [one_device_slice("slice-1", NODE1, POOL1)], N1)


def test_too_many_devices_first_available_counts_its_smallest_choice():
    # a firstAvailable request adds the smallest count among its subrequests: 30 + min(5, 2) = 32 is within the limit
    fits = [claim("claim-0", exact("req-0", CLASS_A, 30), first_available("req-1", sub("big", CLASS_A, 5),
                                                                          sub("small", CLASS_A, 2)))]
    assert allocate(fits, CLASSES, [one_device_slice("slice-1", NODE1, POOL1)], N1) is None  # too few devices here
    over = [claim("claim-0", exact("req-0", CLASS_A, 30), first_available("req-1", sub("big", CLASS_A, 5),
                                                                          sub("small", CLASS_A, 3)))]
    with pytest.raises(AllocationError, match="request req-1: adding 3 devices exceeds the claim limit of 32, with 30"):
        allocate(over, CLASSES, [one_device_slice("slice-1", NODE1, POOL1)], N1)


def test_binding_conditions_pool_goes_last():
    # pools holding devices with binding conditions are tried after the others (pools_incubating.go).
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, device("device-1", bindingConditions=["ready"])),
              one_device_slice("slice-2", NODE1, POOL2)]
    result = allocate([claim("claim-0", exact("req-0", CLASS_A))], CLASSES, slices, N1)
    assert picks(result) == [[("req-0", DRIVER_A, POOL2, "device-1")]]


@pytest.mark.parametrize("on_device,expected", [
    (False, "claim default/claim-0: selector #0: CEL runtime error: no such key: missing"),
    (True, "claim default/claim-0: selector #0 on device driver-a/pool-1/device-1: CEL runtime error: no such key: "
           "missing. consider using CEL optional chaining (.? followed by orValue()) or guarding the check with has() "
           "for optional fields"),
])
def test_cel_runtime_error_message_per_release(on_device, expected):
    claims = [claim("claim-0", exact("req-0", CLASS_A, 1, f'device.attributes["{DRIVER_A}"].missing == 1'))]
    with pytest.raises(AllocationError) as err:
        allocate(claims, CLASSES, [one_device_slice("slice-1", NODE1, POOL1)], N1,
                 features=Features(cel_error_on_device=on_device))
    assert str(err.value) == expected


def _config(driver, attribute):
    return {"opaque": {"driver": driver, "parameters": {attribute: attribute + "Value"}}}


def _configs(result):
    return [(c.source, c.requests, c.opaque.driver, c.opaque.parameters) for c in result.allocations[0].config]


def test_with_class_device_config():
    classes = [device_class(CLASS_A, DRIVER_A, config=[_config(DRIVER_A, "classAttribute")])]
    result = allocate([claim("claim-0", exact("req-0", CLASS_A))], classes, [one_device_slice("slice-1", NODE1, POOL1)], N1)
    assert _configs(result) == [("FromClass", ("req-0",), DRIVER_A, {"classAttribute": "classAttributeValue"})]


def test_with_class_device_config_with_multiple_request_and_configs():
    classes = [device_class(CLASS_A, DRIVER_A, config=[_config(DRIVER_A, "classAttribute-A")]),
               device_class(CLASS_B, DRIVER_B, config=[_config(DRIVER_B, "classAttribute-B")])]
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, device("device-0"), device("device-1")),
              one_device_slice("slice-2", NODE1, POOL1, DRIVER_B)]
    claims = [claim("claim-0", exact("req-0", CLASS_A), exact("req-1", CLASS_A), exact("req-2", CLASS_B))]
    result = allocate(claims, classes, slices, N1)
    assert picks(result) == [[("req-0", DRIVER_A, POOL1, "device-0"), ("req-1", DRIVER_A, POOL1, "device-1"),
                              ("req-2", DRIVER_B, POOL1, "device-1")]]
    assert _configs(result) == [("FromClass", ("req-0", "req-1"), DRIVER_A, {"classAttribute-A": "classAttribute-AValue"}),
                                ("FromClass", ("req-2",), DRIVER_B, {"classAttribute-B": "classAttribute-BValue"})]


def test_claim_with_device_config():
    one = claim("claim-0", exact("req-0", CLASS_A))
    one["spec"]["devices"]["config"] = [_config(DRIVER_A, "deviceAttribute")]
    result = allocate([one], CLASSES, [one_device_slice("slice-1", NODE1, POOL1)], N1)
    assert _configs(result) == [("FromClaim", (), DRIVER_A, {"deviceAttribute": "deviceAttributeValue"})]


@pytest.mark.parametrize("features,expected", [
    (Features(), [(("req-0", "req-1"),), (("req-0", "req-1"),)]),
    (RELEASE_137, [((),)]),
], ids=["1.36-once-per-named-request", "1.37-once-and-cleared-when-it-names-every-request"])
def test_claim_config_naming_several_requests(features, expected):
    # allocator_incubating.go: v0.36.0 `continue`s after adding a config for one request; master `break`s and then
    # clears the request list of a config that covers every request of the claim.
    two = claim("claim-0", exact("req-0", CLASS_A), exact("req-1", CLASS_A))
    two["spec"]["devices"]["config"] = [{"requests": ["req-0", "req-1"], **_config(DRIVER_A, "a")}]
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, device("device-0"), device("device-1"))]
    result = allocate([two], CLASSES, slices, N1, features=features)
    assert [(c.requests,) for c in result.allocations[0].config] == expected


@pytest.mark.parametrize("features,found", [(Features(), True), (RELEASE_137, False)], ids=["1.36", "1.37"])
def test_shared_allocations_consume_counters_from_1_37(features, found):
    # master's internal.IsDeviceAllocated counts a device held through a share ID against its counter set.
    devices = _counter_devices("6Gi", "6Gi")
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, *devices, count=2), _counter_slice()]
    result = allocate([claim("claim-0", exact("req-0", CLASS_A))], CLASSES, slices, N1, features=features,
                      allocated_capacity=[((DRIVER_A, POOL1, "device-1"), {"memory": Fraction(6 * 2**30)})])
    assert (result is not None) == found


def _many(name, where, pool, driver, count):
    """upstream `sliceWithMultipleDevices`: device-0 ... device-<count-1>."""
    return resource_slice(name, where, pool, driver, *(device(f"device-{i}") for i in range(count)))


def _calls(claims, classes, slices):
    from drahelp import parsed
    from wasplan.engine.dra import Allocator
    allocator = Allocator([parsed(s) for s in slices], [parsed(c) for c in classes])
    result = allocator.allocate(N1, [parsed(c) for c in claims])
    return result, allocator.calls


def test_prioritized_list_max_allocation_limit_request():
    claims = [claim("claim-0", first_available("req-0", sub("subReq-0", CLASS_A, 32), sub("subReq-1", CLASS_A, 16)),
                    first_available("req-1", sub("subReq-0", CLASS_A, 32), sub("subReq-1", CLASS_A, 16)))]
    result, calls = _calls(claims, CLASSES, [_many("slice-1", NODE1, POOL1, DRIVER_A, 64)])
    assert picks(result) == [[("req-0/subReq-1", DRIVER_A, POOL1, f"device-{i}") for i in range(16)]
                             + [("req-1/subReq-1", DRIVER_A, POOL1, f"device-{i}") for i in range(16, 32)]]
    assert calls == 75  # upstream's expectNumAllocateOneInvocations


def test_prioritized_list_max_allocation_allocation_mode_all():
    classes = [device_class(CLASS_A, DRIVER_A), device_class(CLASS_B, DRIVER_B)]
    claims = [claim("claim-0", first_available("req-0", sub("subReq-0", CLASS_A, 0, allocationMode="All"),
                                               sub("subReq-1", CLASS_A, 2)),
                    exact("req-1", CLASS_B, 2))]
    slices = [_many("slice-1", NODE1, POOL1, DRIVER_A, 31), _many("slice-2", NODE1, POOL2, DRIVER_B, 2)]
    result, calls = _calls(claims, classes, slices)
    assert picks(result) == [[("req-0/subReq-1", DRIVER_A, POOL1, "device-0"), ("req-0/subReq-1", DRIVER_A, POOL1, "device-1"),
                              ("req-1", DRIVER_B, POOL2, "device-0"), ("req-1", DRIVER_B, POOL2, "device-1")]]
    assert calls == 42  # upstream's expectNumAllocateOneInvocations


def test_prioritized_list_too_many_in_first_subrequest():
    classes = [device_class(CLASS_A, DRIVER_A), device_class(CLASS_B, DRIVER_B)]
    claims = [claim("claim-0", first_available("req-0", sub("subReq-0", CLASS_B, 500), sub("subReq-1", CLASS_A, 1)))]
    result = allocate(claims, classes, [one_device_slice("slice-1", NODE1, POOL1)], N1)
    assert picks(result) == [[("req-0/subReq-1", DRIVER_A, POOL1, "device-1")]]


def test_check_combinations_within_single_request_single_pool_single_slice():
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, *(device(f"device-{i}") for i in range(1, 5)))]
    result, calls = _calls([claim("claim-0", exact("req-0", CLASS_A, 5))], CLASSES, slices)
    assert (result, calls) == (None, 16)  # combinations, not permutations: upstream counts 16 invocations


def test_check_combinations_within_single_request_single_pool_multiple_slices():
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, device("device-1"), device("device-2"), count=2),
              resource_slice("slice-2", NODE1, POOL1, DRIVER_A, device("device-3"), device("device-4"), count=2)]
    result, calls = _calls([claim("claim-0", exact("req-0", CLASS_A, 5))], CLASSES, slices)
    assert (result, calls) == (None, 16)


def test_no_allocation_from_incomplete_pools():
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, device("device-1"), count=2)]
    assert allocate([claim("claim-0", exact("req-0", CLASS_A))], CLASSES, slices, N1) is None


def test_all_devices_plus_another():
    classes = [device_class(CLASS_A, DRIVER_A), device_class(CLASS_B, DRIVER_B)]
    claims = [claim("claim-0", exact("req-0", CLASS_A, None, allocationMode="All")), claim("claim-1", exact("req-0", CLASS_B))]
    slices = [one_device_slice("slice-1", NODE1, POOL1), one_device_slice("slice-1", NODE1, POOL1, DRIVER_B)]
    assert picks(allocate(claims, classes, slices, N1)) == [[("req-0", DRIVER_A, POOL1, "device-1")],
                                                            [("req-0", DRIVER_B, POOL1, "device-1")]]


TWO_DEVICES = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, device("device-1"), device("device-2"))]


def test_separate_claims_share_device_admin_access():
    claims = [claim(f"claim-{i}", exact("req-0", CLASS_A, adminAccess=True)) for i in range(2)]
    result = allocate(claims, CLASSES, TWO_DEVICES, N1)
    assert picks(result) == [[("req-0", DRIVER_A, POOL1, "device-1")]] * 2
    assert [a.results[0].admin_access for a in result.allocations] == [True, True]


def test_admin_access_claims_device_allocating_for_non_admin_access():
    claims = [claim("claim-0", exact("req-0", CLASS_A)), claim("claim-1", exact("req-0", CLASS_A, adminAccess=True))]
    result = allocate(claims, CLASSES, TWO_DEVICES, N1)
    assert picks(result) == [[("req-0", DRIVER_A, POOL1, "device-1")]] * 2
    assert [a.results[0].admin_access for a in result.allocations] == [None, True]


def test_count_devices_some_allocated_admin_access():
    result = allocate([claim("claim-0", exact("req-0", CLASS_A, 2, adminAccess=True))], CLASSES, TWO_DEVICES, N1,
                      allocated=[(DRIVER_A, POOL1, "device-1")])
    assert picks(result) == [[("req-0", DRIVER_A, POOL1, "device-1"), ("req-0", DRIVER_A, POOL1, "device-2")]]


TAINTED_ONE = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, device("device-1", taints=[TAINT_NO_SCHEDULE]))]


def test_tainted_admin_access():
    claims = [claim("claim-0", exact("req-0", CLASS_A, adminAccess=True))]
    assert allocate(claims, CLASSES, TAINTED_ONE, N1, allocated=[(DRIVER_A, POOL1, "device-1")]) is None


def test_tainted_admin_access_disabled():
    claims = [claim("claim-0", exact("req-0", CLASS_A, adminAccess=True))]
    result = allocate(claims, CLASSES, TAINTED_ONE, N1, allocated=[(DRIVER_A, POOL1, "device-1")],
                      features=Features(device_taints=False))
    assert picks(result) == [[("req-0", DRIVER_A, POOL1, "device-1")]]


def test_tainted_all_devices_single():
    claims = [claim("claim-0", exact("req-0", CLASS_A, None, allocationMode="All"))]
    assert allocate(claims, CLASSES, TAINTED_ONE, N1) is None
    assert picks(allocate(claims, CLASSES, TAINTED_ONE, N1, features=Features(device_taints=False))) == [
        [("req-0", DRIVER_A, POOL1, "device-1")]]  # upstream "tainted-all-devices-single-disabled"


def test_with_constraint_not_matching_int_attribute_all_devices():
    # a device of an `All` request that breaks a constraint is an error, not a miss (allocateDevice with must=true)
    slices = [resource_slice("slice-1", NODE1, POOL1, DRIVER_A, device("device-1", None, {"numa": {"int": 1}}),
                             device("device-2", None, {"numa": {"int": 2}}))]
    claims = [claim("claim-0", exact("req-0", CLASS_A, None, allocationMode="All"),
                    constraints=[{"matchAttribute": f"{DRIVER_A}/numa"}])]
    with pytest.raises(AllocationError, match="^claim default/claim-0, request req-0: cannot add device "
                                              "driver-a/pool-1/device-2 because a claim constraint would not be satisfied$"):
        allocate(claims, CLASSES, slices, N1)
