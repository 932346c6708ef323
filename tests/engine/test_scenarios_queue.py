"""Queue order, arrival modes and release/gate differences.

Follows engine-semantics §1.2-1.4: PrioritySort (priority, then queue timestamp), sequential vs batch creation,
1.37 PodGroup entities ordered by the group's priority and first pod (interleaving_test.go: "gang is scheduled
before newer, equal priority standalone pods"), 1.36 GangScheduling off => members scheduled pod by pod,
GenericWorkload off => groups ignored, and podgroup_test "standalone pod schedules immediately while gang is gated".
"""

from builders import basic, gang, node, pod, pods, priority_class
from enginehelp import by_name, groups, run

ONE_SLOT = [node("n0", gpu=1)]


def test_priority_order_in_batch_mode():
    plan = run(ONE_SLOT, [pod("low", gpu=1, priority=1), pod("high", gpu=1, priority=100)], arrival="batch")
    placed = by_name(plan)
    assert (placed["high"].status, placed["low"].status) == ("Bound", "Pending")
    assert placed["low"].message == ("0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: "
                                     "0/1 nodes are available: 1 No preemption victims found for incoming pod.")


def test_sequential_arrival_first_come_first_served_without_preemption():
    plan = run(ONE_SLOT, [pod("low", gpu=1, priority=1), pod("high", gpu=1, priority=100)], preemption=False)
    assert (by_name(plan)["low"].status, by_name(plan)["high"].status) == ("Bound", "Pending")
    assert by_name(plan)["high"].message == ("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.")


def test_sequential_arrival_later_higher_priority_pod_preempts():
    plan = run(ONE_SLOT, [pod("low", gpu=1, priority=1), pod("high", gpu=1, priority=100)])
    low, high = by_name(plan)["low"], by_name(plan)["high"]
    assert (low.status, low.node, low.reason) == ("Preempted", "n0", "PreemptionByScheduler")
    assert (high.status, high.node, high.nominated_node) == ("Bound", "n0", "n0")


def test_priority_class_resolves_priority():
    arrivals = [priority_class("urgent", 1000), pod("a", gpu=1), pod("b", gpu=1, priority_class="urgent")]
    plan = run(ONE_SLOT, arrivals, arrival="batch")
    assert by_name(plan)["b"].status == "Bound"


def test_equal_priority_creation_order():
    plan = run(ONE_SLOT, [pod("b-first", gpu=1), pod("a-second", gpu=1)], arrival="batch")
    assert by_name(plan)["b-first"].status == "Bound"


def test_gang_entity_ordered_before_newer_standalone_pod_137():
    cluster = [node("n0", gpu=2)]
    arrivals = [gang("g", 2), *pods("g", 2, gpu=1, group="g"), pod("s", gpu=1)]
    plan = run(cluster, arrivals, arrival="batch")
    placed = by_name(plan)
    assert (placed["g-0"].status, placed["g-1"].status, placed["s"].status) == ("Bound", "Bound", "Pending")


def test_standalone_pod_schedules_while_gang_is_gated():
    plan = run(ONE_SLOT, [gang("g", 2), pod("g-0", gpu=1, group="g"), pod("s", gpu=1)])
    placed = by_name(plan)
    assert (placed["g-0"].status, placed["s"].status) == ("Gated", "Bound")


def test_1_36_without_gang_scheduling_places_members_pod_by_pod():
    cluster = [node("n0", gpu=2)]
    arrivals = [gang("g", 3), *pods("g", 3, gpu=1, group="g")]
    plan = run(cluster, arrivals, version="1.36", gates="GangScheduling=false")
    statuses = [by_name(plan)[f"g-{i}"].status for i in range(3)]
    assert statuses == ["Bound", "Bound", "Pending"]  # no all-or-nothing
    assert groups(plan)["g"].condition is None
    gang_plan = run(cluster, arrivals, version="1.36")
    assert [by_name(gang_plan)[f"g-{i}"].status for i in range(3)] == ["Pending"] * 3


def test_generic_workload_off_ignores_groups():
    plan = run(ONE_SLOT, [pod("g-0", gpu=1, group="missing")], gates="GenericWorkload=false")
    assert by_name(plan)["g-0"].status == "Bound"


def test_1_36_condition_type_and_1_37_latch():
    cluster = [node("n0", gpu=2)]
    arrivals = [gang("g", 2), *pods("g", 2, gpu=1, group="g"), pod("g-late", gpu=1, group="g")]
    for version, ctype in (("1.36", "PodGroupScheduled"), ("1.37", "PodGroupInitiallyScheduled")):
        plan = run(cluster, arrivals, version=version)
        g = groups(plan)["g"]
        # the late pod does not fit, yet the condition written True on the first cycle stays True
        assert (g.condition.type, g.condition.status, g.status) == (ctype, "True", "Scheduled")
        assert by_name(plan)["g-late"].status == "Pending"


def test_1_37_partial_success_needs_a_new_member():
    cluster = [node("n0", gpu=1)]
    existing = [*cluster, gang("g", 1), pod("g-0", gpu=1, group="g", node_name="n0")]
    plan = run(existing, [pod("g-1", gpu=1, group="g")])
    placed = by_name(plan)["g-1"]
    assert (placed.status, placed.message) == ("Pending", "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.")


def test_same_inputs_same_plan():
    arrivals = [gang("g", 2), *pods("g", 3, gpu=1, group="g"), pod("s", cpu="1")]
    first = run([node("n0", gpu=2), node("n1", gpu=1)], arrivals).to_dict()
    second = run([node("n0", gpu=2), node("n1", gpu=1)], arrivals).to_dict()
    assert first == second


def test_gang_entity_takes_the_timestamp_of_its_first_pod():
    cluster = [node("n0", gpu=2)]
    arrivals = [gang("g", 2), pod("g-0", gpu=1, group="g"), pod("s", gpu=1), pod("s2", gpu=1),
                pod("g-1", gpu=1, group="g")]
    plan = run(cluster, arrivals, arrival="batch")
    placed = by_name(plan)
    assert [placed[n].status for n in ("g-0", "g-1", "s", "s2")] == ["Bound", "Bound", "Pending", "Pending"]


def test_1_37_rejects_members_whose_priority_differs_from_the_group():
    plan = run(ONE_SLOT, [gang("g", 1, priority=10), pod("g-0", gpu=1, group="g", priority=5)])
    p = by_name(plan)["g-0"]
    assert (p.status, p.message) == ("Pending", "all pods in a single pod group should have the same priority "
                                                "as the pod group's priority, got 5 and 10")
    assert by_name(run(ONE_SLOT, [gang("g", 1, priority=10), pod("g-0", gpu=1, group="g", priority=5)],
                       version="1.36"))["g-0"].status == "Bound"


def test_pending_pod_being_deleted_is_skipped():
    doomed = pod("doomed", gpu=1)
    doomed.terminating = True
    plan = run(ONE_SLOT, [doomed, pod("next", gpu=1)])
    assert (by_name(plan)["doomed"].status, by_name(plan)["next"].status) == ("Pending", "Bound")


def test_basic_group_partial_success_interleaved_with_standalone_pods():
    """interleaving_test.go "basic policy pod group allows partial scheduling interleaved with standalone pod"."""
    arrivals = [pod("s1", cpu="1", priority=10), basic("pg", priority=10),
                *[pod(f"b{i}", cpu="2", group="pg", priority=10) for i in (1, 2, 3)], pod("s2", cpu="1", priority=10)]
    plan = run([node("node1", cpu="4")], arrivals, arrival="batch")
    status = {p.name: p.status for p in plan.pods}
    assert status == {"s1": "Bound", "b1": "Bound", "b2": "Pending", "b3": "Pending", "s2": "Bound"}


def test_oversized_high_priority_pod_does_not_block_a_gang():
    """interleaving_test.go: the standalone pod fails, the lower-priority gang still schedules."""
    arrivals = [pod("high-s1", cpu="100", priority=100), gang("pg-low", 3, priority=10),
                *[pod(f"low-g{i}", cpu="1", group="pg-low", priority=10) for i in (1, 2, 3)]]
    plan = run([node("node1", cpu="4")], arrivals, arrival="batch")
    assert {p.name: p.status for p in plan.pods} == {"high-s1": "Pending", "low-g1": "Bound", "low-g2": "Bound",
                                                      "low-g3": "Bound"}
