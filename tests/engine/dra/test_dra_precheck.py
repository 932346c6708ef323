"""The vectorised pre-check against the search: wherever it claims to be exact, its per-node verdict must equal
`Allocator.allocate` on that node (a property test over random node-local clusters, claims and in-use devices),
and it must decline (exact=False) for the shapes it does not cover."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from drahelp import (
    CLASS_A, CLASS_B, DRIVER_A, DRIVER_B, claim, device, device_class, exact, label_selector, node, parsed, resource_slice,
)
from wasplan.cluster.devices import DeviceResult
from wasplan.engine.dra import Allocator, InUseLedger, NodeUnschedulable
from wasplan.engine.dra.precheck import Precheck

CLASSES = [device_class(CLASS_A, DRIVER_A), device_class(CLASS_B, DRIVER_B)]
SELECTORS = ['device.attributes["driver-a"].model == "a"', 'device.attributes["driver-a"].model == "b"',
             'has(device.attributes["driver-a"].model)']
TAINT = {"key": "k", "value": "v", "effect": "NoSchedule"}

devices_st = st.lists(st.tuples(st.sampled_from(["a", "b", None]), st.booleans()), max_size=4)
slice_st = st.tuples(st.sampled_from([DRIVER_A, DRIVER_B]), devices_st, st.sampled_from(["ok", "incomplete", "duplicate"]),
                     st.sampled_from(["local", "local", "all", "region-a", "region-b"]))
request_st = st.tuples(st.sampled_from([CLASS_A, CLASS_B]), st.integers(1, 3), st.sampled_from([None, 0, 1, 2]),
                       st.booleans())


def _where(n: int, reach: str):
    if reach == "local":
        return f"node-{n}"
    return "all" if reach == "all" else label_selector("region", reach)


def _slices(cluster):
    out = []
    for n, slices in enumerate(cluster):
        for k, (driver, devs, state, reach) in enumerate(slices):
            items = [device(f"d{j}", None, {"model": {"string": m}} if m else None, **({"taints": [TAINT]} if t else {}))
                     for j, (m, t) in enumerate(devs)]
            if state == "duplicate" and items:
                items.append(dict(items[0]))
            out.append(resource_slice(f"n{n}-s{k}", _where(n, reach), f"node-{n}-{k}", driver, *items,
                                      count=2 if state == "incomplete" else 1))
    return out


def _claims(requests):
    out = []
    for i, group in enumerate(requests):
        reqs = []
        for j, (cls, count, sel, tolerate) in enumerate(group):
            extra = {"tolerations": [{"key": "k", "operator": "Exists"}]} if tolerate else {}
            reqs.append(exact(f"r{j}", cls, count, *([SELECTORS[sel]] if sel is not None else []), **extra))
        out.append(parsed(claim(f"c{i}", *reqs)))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cluster=st.lists(st.lists(slice_st, max_size=3), min_size=1, max_size=4),
       requests=st.lists(st.lists(request_st, min_size=1, max_size=2), min_size=1, max_size=2),
       used=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2), st.integers(0, 3)), max_size=4))
def test_precheck_agrees_with_the_search(cluster, requests, used):
    nodes = [node(f"node-{n}", "region-a" if n % 2 else "region-b") for n in range(len(cluster))]
    ledger = InUseLedger()
    allocator = Allocator([parsed(s) for s in _slices(cluster)], [parsed(c) for c in CLASSES], ledger)
    pre = Precheck(allocator, nodes)
    driver = {0: DRIVER_A, 1: DRIVER_B}
    ledger.add(DeviceResult("x", driver[n % 2], f"node-{n}-{k}", f"d{d}") for n, k, d in used)
    claims = _claims(requests)
    result = pre.check(claims)
    if not result.exact:
        return
    for i, n in enumerate(nodes):
        try:
            found = allocator.allocate(n, claims) is not None
            invalid = False
        except NodeUnschedulable:
            found, invalid = False, True
        assert bool(result.feasible[i]) == found, (i, result)
        assert bool(result.invalid[i]) == invalid


def test_precheck_declines_per_device_node_selection():
    slices = [resource_slice("s", "per-device", "p", DRIVER_A, device("d0", allNodes=True))]
    allocator = Allocator([parsed(s) for s in slices], [parsed(c) for c in CLASSES])
    result = Precheck(allocator, [node("node-0", "r")]).check(_claims([[(CLASS_A, 1, None, False)]]))
    assert (result.exact, result.reason) == (False, "ResourceSlice s selects nodes per device or shares counters")


def test_precheck_counts_a_network_attached_device_for_every_node_that_reaches_it():
    slices = [resource_slice("net", label_selector("region", "a"), "net", DRIVER_A, device("d0")),
              resource_slice("local", "node-2", "local", DRIVER_A, device("d0"))]
    allocator = Allocator([parsed(s) for s in slices], [parsed(c) for c in CLASSES])
    pre = Precheck(allocator, [node("node-0", "a"), node("node-1", "b"), node("node-2", "a")])
    claims = _claims([[(CLASS_A, 2, None, False)]])
    assert pre.check(claims).feasible.tolist() == [False, False, True]
    assert pre.check(_claims([[(CLASS_A, 1, None, False)]])).feasible.tolist() == [True, False, True]
    allocator.ledger.add([DeviceResult("r", DRIVER_A, "net", "d0")])
    assert pre.check(_claims([[(CLASS_A, 1, None, False)]])).feasible.tolist() == [False, False, True]


def test_precheck_declines_constraints_and_overlapping_requests():
    slice_ = resource_slice("s", "node-0", "p", DRIVER_A, device("d0", None, {"model": {"string": "a"}}),
                            device("d1", None, {"model": {"string": "b"}}))
    allocator = Allocator([parsed(slice_)], [parsed(c) for c in CLASSES])
    pre = Precheck(allocator, [node("node-0", "r")])
    overlapping = _claims([[(CLASS_A, 1, 0, False), (CLASS_A, 1, 2, False)]])
    assert pre.check(overlapping).reason == "requests with overlapping but different device sets"
    constrained = [parsed(claim("c", exact("r0", CLASS_A), constraints=[{"matchAttribute": "driver-a/model"}]))]
    assert pre.check(constrained).reason == "claim default/c has constraints"


def test_precheck_follows_the_ledger():
    allocator = Allocator([parsed(resource_slice("s", "node-0", "p", DRIVER_A, device("d0")))], [parsed(c) for c in CLASSES])
    pre = Precheck(allocator, [node("node-0", "r"), node("node-1", "r")])
    claims = _claims([[(CLASS_A, 1, None, False)]])
    assert pre.check(claims).feasible.tolist() == [True, False]
    taken = [DeviceResult("r0", DRIVER_A, "p", "d0")]
    allocator.ledger.add(taken)
    assert pre.check(claims).feasible.tolist() == [False, False]
    allocator.ledger.remove(taken)
    assert pre.check(claims).feasible.tolist() == [True, False]
