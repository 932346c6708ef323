"""The in-use ledger the engine drives from Reserve/Unreserve: add and remove are exact inverses, admin access
blocks nothing, shared devices aggregate consumed capacity, and the allocator sees every change."""

from fractions import Fraction

import pytest

from drahelp import CLASS_A, DRIVER_A, NODE1, POOL1, REGION1, claim, device, device_class, exact, node, parsed, resource_slice
from wasplan.cluster.devices import DeviceResult
from wasplan.engine.dra import Allocator, InUseLedger

GPU0 = DeviceResult("r", DRIVER_A, POOL1, "device-0")
ADMIN = DeviceResult("r", DRIVER_A, POOL1, "device-1", admin_access=True)
SHARED = DeviceResult("r", DRIVER_A, POOL1, "device-2", share_id="a", consumed_capacity=(("memory", Fraction(4)),))


def test_add_and_remove_are_inverses():
    ledger = InUseLedger()
    ledger.add([GPU0, ADMIN, SHARED, SHARED])
    assert ledger.allocated == {(DRIVER_A, POOL1, "device-0"): 1}
    assert ledger.capacity == {(DRIVER_A, POOL1, "device-2"): {"memory": Fraction(8)}}
    assert not ledger.in_use((DRIVER_A, POOL1, "device-1")) and not ledger.in_use((DRIVER_A, POOL1, "device-2"))
    ledger.remove([SHARED])
    assert ledger.consumed((DRIVER_A, POOL1, "device-2")) == {"memory": Fraction(4)}
    ledger.remove([GPU0, ADMIN, SHARED])
    assert (ledger.allocated, ledger.capacity) == ({}, {})


def test_removing_what_was_never_added_is_an_error():
    with pytest.raises(ValueError, match="device driver-a/pool-1/device-0 removed more often than added"):
        InUseLedger().remove([GPU0])


def test_allocator_follows_reserve_and_unreserve():
    slices = [resource_slice("s", NODE1, POOL1, DRIVER_A, device("device-0"), device("device-1"))]
    allocator = Allocator([parsed(s) for s in slices], [parsed(device_class(CLASS_A, DRIVER_A))])
    one = parsed(claim("c", exact("r", CLASS_A)))
    n1 = node(NODE1, REGION1)
    first = allocator.allocate(n1, [one]).allocations[0].results
    allocator.ledger.add(first)  # Reserve
    second = allocator.allocate(n1, [one]).allocations[0].results
    allocator.ledger.add(second)
    assert [r.device for r in first + second] == ["device-0", "device-1"]
    assert allocator.allocate(n1, [one]) is None
    allocator.ledger.remove(first)  # Unreserve
    assert [r.device for r in allocator.allocate(n1, [one]).allocations[0].results] == ["device-0"]


def test_extended_resource_classes():
    from wasplan.engine.dra.extended import extended_resource_classes

    def cls(name, created=None):
        meta = {"name": name, **({"creationTimestamp": created} if created else {})}
        return parsed({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": meta,
                       "spec": {"extendedResourceName": "example.com/gpu"}})

    classes = [cls("old", "2026-01-01T00:00:00Z"), cls("new-b", "2026-02-01T00:00:00Z"),
               cls("new-a", "2026-02-01T00:00:00Z"), cls("untimed")]
    mapping = extended_resource_classes(classes)
    assert {k: v.name for k, v in mapping.items()} == {
        "example.com/gpu": "new-a", "deviceclass.resource.kubernetes.io/old": "old",
        "deviceclass.resource.kubernetes.io/new-b": "new-b", "deviceclass.resource.kubernetes.io/new-a": "new-a",
        "deviceclass.resource.kubernetes.io/untimed": "untimed"}


def test_selector_results_are_shared_by_devices_that_look_the_same_to_the_selector():
    from wasplan.engine.dra import SelectorCache
    devices = [parsed(resource_slice(f"s{i}", f"node-{i}", f"p{i}", DRIVER_A,
                                     device("d0", None, {"model": {"string": "a100"}, "uuid": {"string": f"u{i}"}}),
                                     device("d1", None, {"model": {"string": "h100"}, "uuid": {"string": f"v{i}"}})))
               for i in range(50)]
    cache = SelectorCache()
    hits = [cache.matches("claim ns/c", ('device.attributes["driver-a"].model == "a100"',), (DRIVER_A, s.pool, d.name), d)
            for s in devices for d in s.devices]
    assert hits == [True, False] * 50 and cache.evaluations == 2
    assert cache.matches("claim ns/c", ('device.attributes["driver-a"].uuid == "u7"',), (DRIVER_A, "p7", "d0"),
                         devices[7].devices[0]) is True
