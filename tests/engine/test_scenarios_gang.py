"""PodGroup scenarios with exact nodes and messages.

Follows test/integration/scheduler/podgroup/podgroup_test.go (1.36: "gang fits", "gang waits for quorum",
"minCount is scheduled, but one pod from a gang remain unschedulable", basic partial placement) and the 1.37
PlacementFeasible behaviour of pkg/scheduler/framework/plugins/gangscheduling (`minCount (m) cannot be
satisfied: s scheduled, r remaining`), as summarised in engine-semantics §1.3, §1.6-1.8. Member messages follow
submitPodGroupAlgorithmResult in pkg/scheduler/schedule_one_podgroup.go: a member that fitted in a rejected group
gets "pod group is unschedulable, " + (1.36: its Permit message; 1.37: the group's status), one the cycle never
reached gets the group's status, one that did not fit its FitError. With TopologyAwareWorkloadScheduling on (the
default profile) every group goes through podGroupSchedulingPlacementAlgorithm: a group without a topology key
has one placement, so a failed group's status reads `0/1 placements are available, first placement status: ...`.
"""

from builders import basic, gang, node, pod, pods
from enginehelp import by_name, groups, run

GPU_NODES = [node(f"n{i}", cpu="16", gpu=2) for i in range(4)]
NO_ROOM = "0/4 nodes are available: 4 Insufficient nvidia.com/gpu."
ONE_PLACEMENT = "0/1 placements are available, first placement status: "
FAILED_137 = "pod group is unschedulable, " + ONE_PLACEMENT  # v1.37.2 builds the status with errPodGroupUnschedulable
# v1.37.2's PodGroupPostFilter plugins, appended to the group's status: DynamicResources', then DefaultPreemption's
NOTHING_TO_EVICT = ("deallocation and deletion of ResourceClaims completed, pod group preemption: No preemption "
                    "victims found for incoming preemptor")


def test_gang_fits_all_or_nothing_on_distinct_nodes():
    plan = run(GPU_NODES, [gang("g", 4), *pods("g", 4, gpu=2, group="g")])
    placed = by_name(plan)
    # each member takes a whole node's GPUs; equal scores go to the first name that is still free
    assert [placed[f"g-{i}"].node for i in range(4)] == ["n0", "n1", "n2", "n3"]
    assert all(p.status == "Bound" for p in plan.pods)
    g = groups(plan)["g"]
    assert (g.status, g.condition.type, g.condition.status, g.condition.reason) == \
        ("Scheduled", "PodGroupInitiallyScheduled", "True", "Scheduled")


def test_gang_that_does_not_fit_binds_nothing_137():
    plan = run(GPU_NODES, [gang("g", 5), *pods("g", 5, gpu=2, group="g")])
    placed = by_name(plan)
    assert [placed[f"g-{i}"].status for i in range(5)] == ["Pending"] * 5
    msg = f"{FAILED_137}minCount (5) cannot be satisfied: 4 scheduled, 0 remaining, {NOTHING_TO_EVICT}"
    # members that fitted are told the group failed (submitPodGroupAlgorithmResult), the last one its FitError
    assert [placed[f"g-{i}"].message for i in range(5)] == [f"pod group is unschedulable, {msg}"] * 4 + [NO_ROOM]
    g = groups(plan)["g"]
    assert (g.status, g.message, g.condition.status, g.condition.reason) == ("Unschedulable", msg, "False",
                                                                              "Unschedulable")


def test_1_37_stops_early_once_min_count_is_out_of_reach():
    small = [node("n0", gpu=2)]
    plan = run(small, [gang("g", 3), *pods("g", 4, gpu=2, group="g")])
    placed = by_name(plan)
    # g-0 fits, g-1 fails (1 + 2 remaining = 3, still possible), g-2 fails (1 + 1 < 3): stop; g-3 never tried
    msg = FAILED_137 + "minCount (3) cannot be satisfied: 1 scheduled, 1 remaining"
    one_node = "0/1 nodes are available: 1 Insufficient nvidia.com/gpu."
    # g-3 gets a copy of the status taken before the PodGroupPostFilter added to it (completePodGroupAlgorithmResult)
    assert [placed[f"g-{i}"].message for i in range(4)] == [f"pod group is unschedulable, {msg}, {NOTHING_TO_EVICT}",
                                                             one_node, one_node, msg]


def test_gang_that_does_not_fit_binds_nothing_136():
    plan = run(GPU_NODES, [gang("g", 5), *pods("g", 5, gpu=2, group="g")], version="1.36")
    placed = by_name(plan)
    fitted = "pod group is unschedulable, waiting for minCount pods from a gang to be scheduled"  # + Permit's Wait
    # 1.36 runs DefaultPreemption's PostFilter for each member; with WorkloadAwarePreemption on it declines
    no_room = f"{NO_ROOM} no new claims to deallocate, preemption: not eligible due to workload aware preemption enabled"
    # g-4 completes the quorum and enters activeQ first (v1.36.5 moveToActiveQ stamps InitialAttemptTimestamp
    # then), so the 1.36 cycle tries g-4, g-0, g-1, g-2, g-3 and the last one finds no room
    assert [placed[f"g-{i}"].message for i in range(5)] == [fitted] * 3 + [no_room, fitted]
    g = groups(plan)["g"]
    assert (g.condition.type, g.condition.status, g.message) == (
        "PodGroupScheduled", "False", ONE_PLACEMENT + "pod group is unschedulable, No preemption victims found for "
        "incoming preemptor")


def test_gang_waits_for_quorum():
    plan = run(GPU_NODES, [gang("g", 4), *pods("g", 3, gpu=1, group="g")])
    for p in plan.pods:
        assert (p.status, p.message) == ("Gated", "waiting for minCount pods from a gang to appear in scheduling queue")
    g = groups(plan)["g"]
    assert (g.status, g.condition) == ("WaitingForPods", None)


def test_pods_wait_for_their_pod_group_then_schedule_when_it_appears():
    plan = run(GPU_NODES, pods("g", 2, gpu=1, group="g"))
    assert {(p.status, p.message) for p in plan.pods} == \
        {("Gated", 'waiting for pod\'s pod group "g" to appear in scheduling queue')}
    plan = run(GPU_NODES, [*pods("g", 2, gpu=1, group="g"), gang("g", 2)])
    assert [p.status for p in plan.pods] == ["Bound", "Bound"]


def test_pods_before_and_after_their_group_all_wait_for_quorum():
    early, late = pods("g", 4, gpu=1, group="g")[:2], pods("g", 4, gpu=1, group="g")[2:3]
    plan = run(GPU_NODES, [*early, gang("g", 4), *late])
    assert [(p.name, p.status, p.message) for p in plan.pods] == [
        (f"g-{i}", "Gated", "waiting for minCount pods from a gang to appear in scheduling queue") for i in range(3)]


def test_two_competing_gangs_first_complete_gang_wins():
    cluster = [node(f"n{i}", gpu=2) for i in range(3)]
    a, b = pods("a", 3, gpu=2, group="a"), pods("b", 3, gpu=2, group="b")
    interleaved = [gang("b", 3), gang("a", 3), b[0], a[0], b[1], a[1], a[2], b[2]]
    plan = run(cluster, interleaved)
    placed = by_name(plan)
    assert [placed[f"a-{i}"].status for i in range(3)] == ["Bound"] * 3
    assert [placed[f"b-{i}"].status for i in range(3)] == ["Pending"] * 3
    # the group's PodGroupPostFilter (workload-aware preemption) finds nothing of lower priority to evict
    assert groups(plan)["b"].message == (FAILED_137 + "minCount (3) cannot be satisfied: 0 scheduled, 2 remaining, "
                                         + NOTHING_TO_EVICT)


def test_gang_with_more_pods_than_min_count_binds_what_fits():
    cluster = [node(f"n{i}", gpu=2) for i in range(3)]
    plan = run(cluster, [gang("g", 3), *pods("g", 4, gpu=2, group="g")])
    placed = by_name(plan)
    assert [(placed[f"g-{i}"].status, placed[f"g-{i}"].node) for i in range(4)] == \
        [("Bound", "n0"), ("Bound", "n1"), ("Bound", "n2"), ("Pending", None)]
    assert placed["g-3"].message == "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."
    assert groups(plan)["g"].status == "Scheduled"


def test_basic_group_partial_placement():
    cluster = [node(f"n{i}", gpu=1) for i in range(3)]
    plan = run(cluster, [basic("b"), *pods("b", 5, gpu=1, group="b")])
    placed = by_name(plan)
    assert [(placed[f"b-{i}"].status, placed[f"b-{i}"].node) for i in range(5)] == \
        [("Bound", "n0"), ("Bound", "n1"), ("Bound", "n2"), ("Pending", None), ("Pending", None)]
    assert placed["b-4"].message == "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."
    assert groups(plan)["b"].status == "Scheduled" and groups(plan)["b"].min_count == 0


def test_already_bound_members_count_and_stay_put():
    cluster = [node(f"n{i}", gpu=2) for i in range(3)]
    existing = [*cluster, gang("g", 3), pod("g-0", gpu=2, group="g", node_name="n2"),
                pod("g-1", gpu=2, group="g", node_name="n1")]
    plan = run(existing, [pod("g-2", gpu=2, group="g")])
    placed = by_name(plan)
    assert [(placed[n].status, placed[n].node) for n in ("g-0", "g-1", "g-2")] == \
        [("AlreadyBound", "n2"), ("AlreadyBound", "n1"), ("Bound", "n0")]


def test_scheduling_gates_hold_the_pod():
    plan = run(GPU_NODES, [pod("p", gates=("example.com/wait",))])
    p = plan.pods[0]
    assert (p.status, p.reason, p.message) == ("Gated", "SchedulingGated",
                                               "Scheduling is blocked due to non-empty scheduling gates")


def test_group_bound_before_the_plan_without_condition_reads_as_scheduled():
    existing = [*GPU_NODES, gang("g", 2), pod("g-0", gpu=1, group="g", node_name="n0"),
                pod("g-1", gpu=1, group="g", node_name="n1")]
    g = groups(run(existing, []))["g"]
    assert (g.status, g.condition) == ("Scheduled", None)
