"""The vectorised pre-check against the search: wherever it claims to be exact, its per-node verdict must equal
`Allocator.allocate` on that node (a property test over random node-local clusters, claims and in-use devices),
and it must decline (exact=False) for the shapes it does not cover."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from drahelp import (
    CLASS_A, CLASS_B, DRIVER_A, DRIVER_B, claim, device, device_class, exact, first_available, label_selector, node,
    parsed, resource_slice,
)
from wasplan.cluster.devices import DeviceResult
from wasplan.engine.dra import Allocator, InUseLedger, NodeUnschedulable
from wasplan.engine.dra.precheck import Precheck

CLASSES = [device_class(CLASS_A, DRIVER_A), device_class(CLASS_B, DRIVER_B)]
SELECTORS = ['device.attributes["driver-a"].model == "a"', 'device.attributes["driver-a"].model == "b"',
             'has(device.attributes["driver-a"].model)']
TAINT = {"key": "k", "value": "v", "effect": "NoSchedule"}

devices_st = st.lists(st.tuples(st.sampled_from(["a", "b", None]), st.booleans()), min_size=1, max_size=5)
slice_st = st.tuples(st.sampled_from([DRIVER_A, DRIVER_B]), devices_st, st.sampled_from(["ok", "incomplete", "duplicate"]),
                     st.sampled_from(["local", "local", "all", "region-a", "region-b"]))
spec_st = st.tuples(st.sampled_from([CLASS_A, CLASS_B]), st.integers(1, 2), st.sampled_from([None, 0, 1, 2]),
                    st.booleans())
# a list = firstAvailable; its subrequests pick model a or model b, disjoint sets, so most draws stay exact
sub_st = st.tuples(st.just(CLASS_A), st.integers(1, 2), st.sampled_from([0, 1]), st.booleans())
request_st = st.one_of(spec_st, st.lists(sub_st, min_size=2, max_size=3))


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


def _spec(name, cls, count, sel, tolerate):
    body = {"deviceClassName": cls, "count": count}
    if sel is not None:
        body["selectors"] = [{"cel": {"expression": SELECTORS[sel]}}]
    if tolerate:
        body["tolerations"] = [{"key": "k", "operator": "Exists"}]
    return body


def _claims(requests):
    out = []
    for i, group in enumerate(requests):
        reqs = []
        for j, request in enumerate(group):
            if isinstance(request, list):
                reqs.append(first_available(f"r{j}", *({"name": f"s{k}", **_spec(f"s{k}", *sub)}
                                                       for k, sub in enumerate(request))))
            else:
                reqs.append({"name": f"r{j}", "exactly": _spec(f"r{j}", *request)})
        out.append(parsed(claim(f"c{i}", *reqs)))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cluster=st.lists(st.lists(slice_st, min_size=1, max_size=3), min_size=1, max_size=4),
       requests=st.lists(st.lists(request_st, min_size=1, max_size=2), min_size=1, max_size=2),
       used=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2), st.integers(0, 3)), max_size=4))
def test_precheck_agrees_with_the_search(cluster, requests, used):
    nodes = [node(f"node-{n}", "region-a" if n % 2 else "region-b") for n in range(len(cluster))]
    ledger = InUseLedger()
    allocator = Allocator([parsed(s) for s in _slices(cluster)], [parsed(c) for c in CLASSES], ledger)
    pre = Precheck(allocator, nodes)
    driver = {0: DRIVER_A, 1: DRIVER_B}
    claims = _claims(requests)
    pre.check(claims)  # builds the free counts before the ledger changes, so the update path is exercised
    ledger.add(DeviceResult("x", driver[n % 2], f"node-{n}-{k}", f"d{d}") for n, k, d in used)
    result = pre.check(claims)
    if not result.exact:
        return
    for i, n in enumerate(nodes):
        try:
            found = allocator.allocate(n, claims)
            invalid = False
        except NodeUnschedulable:
            found, invalid = None, True
        assert bool(result.feasible[i]) == (found is not None), (i, result)
        assert bool(result.invalid[i]) == invalid
        if found is not None:
            chosen = {(ci, name): index for ci, per_claim in enumerate(found.subrequests) for name, index in per_claim}
            assert {(ci, name): int(idx[i]) for ci, name, idx in result.subrequests} == chosen
            assert int(result.score[i]) == found.score


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


def test_precheck_scores_first_available_as_the_search_does():
    slices = [resource_slice("s0", "node-0", "p0", DRIVER_A, device("d0", None, {"model": {"string": "b"}})),
              resource_slice("s1", "node-1", "p1", DRIVER_A, device("d0", None, {"model": {"string": "a"}}),
                             device("d1", None, {"model": {"string": "b"}}))]
    allocator = Allocator([parsed(s) for s in slices], [parsed(c) for c in CLASSES])
    pre = Precheck(allocator, [node("node-0", "r"), node("node-1", "r"), node("node-2", "r")])
    claims = _claims([[[(CLASS_A, 1, 0, False), (CLASS_A, 1, 1, False)]]])
    result = pre.check(claims)
    assert result.exact and result.feasible.tolist() == [True, True, False]
    [(ci, name, index)] = result.subrequests
    assert (ci, name, index.tolist(), result.score.tolist()) == (0, "r0", [1, 0, -1], [7, 8, 0])
    assert allocator.allocate(node("node-0", "r"), claims).score == 7


fa_cluster_st = st.lists(st.lists(st.sampled_from(["a", "b"]), min_size=2, max_size=6), min_size=1, max_size=4)
fa_request_st = st.lists(st.tuples(st.integers(1, 2), st.sampled_from([0, 1])), min_size=2, max_size=3)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cluster=fa_cluster_st, first=fa_request_st, second=st.one_of(st.none(), fa_request_st),
       fixed=st.one_of(st.none(), st.tuples(st.integers(1, 2), st.sampled_from([0, 1]))))
def test_precheck_first_available_choices_agree_with_the_search(cluster, first, second, fixed):
    slices = [resource_slice(f"s{n}", f"node-{n}", f"p{n}", DRIVER_A,
                             *(device(f"d{j}", None, {"model": {"string": m}} if m else None) for j, m in enumerate(models)))
              for n, models in enumerate(cluster)]
    nodes = [node(f"node-{n}", "r") for n in range(len(cluster))]
    allocator = Allocator([parsed(s) for s in slices], [parsed(c) for c in CLASSES])
    requests = [[(CLASS_A, count, sel, False) for count, sel in first]]
    if second:
        requests[0].append([(CLASS_A, count, sel, False) for count, sel in second])
    if fixed:
        requests[0].append((CLASS_A, fixed[0], fixed[1], False))
    claims = _claims(requests)
    result = Precheck(allocator, nodes).check(claims)
    assert result.exact, result.reason
    for i, n in enumerate(nodes):
        found = allocator.allocate(n, claims)
        assert bool(result.feasible[i]) == (found is not None)
        if found is not None:
            assert [int(idx[i]) for _, _, idx in result.subrequests] == [index for _, index in found.subrequests[0]]
            assert int(result.score[i]) == found.score
