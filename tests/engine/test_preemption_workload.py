"""Workload-aware preemption scenarios: exact victims, nominations and the bindings after the victims are gone.

Follows test/integration/scheduler/preemption/podgrouppreemption_test.go (gang preemption across nodes, whole
victim groups with disruptionMode PodGroup/all, "Insufficient Resources (No Preemption)", "Priority divergence
in PodGroups" (1.36), "PodGroup with PreemptNever preemption policy does not perform preemption", "Partial
Preemption"), the 1.37 fixed-assignment reprieve (KEP-5710 beta) and the 1.36 re-run reprieve, the 1.36
refusal for groups with scheduling constraints, and pod-by-pod member preemption when the 1.36
WorkloadAwarePreemption gate is off (engine-semantics §1.6, §1.12).
"""

from builders import basic, gang, node, pdb, pod, pods
from enginehelp import by_name, groups, run

from wasplan.engine.cycle.placement import NO_PREEMPTION_MSG as TOPOLOGY_MSG


def victims(plan):
    return [(p.preemptor_kind, p.preemptor_name, [(v.name, v.node, v.pod_group) for v in p.victims])
            for p in plan.preemptions]


def four_full_nodes():
    return [*(node(f"n{i}", cpu="4") for i in range(4)),
            *(pod(f"low-{i}", cpu="4", priority=0, node_name=f"n{i}") for i in range(4))]


def test_gang_preempts_exactly_the_pods_it_needs_across_nodes():
    plan = run(four_full_nodes(), [gang("g", 2, priority=100), *pods("g", 2, cpu="4", priority=100, group="g")])
    placed = by_name(plan)
    assert victims(plan) == [("PodGroup", "g", [("low-0", "n0", None), ("low-1", "n1", None)])]
    assert [(placed[f"g-{i}"].status, placed[f"g-{i}"].node, placed[f"g-{i}"].nominated_node)
            for i in range(2)] == [("Bound", "n0", "n0"), ("Bound", "n1", "n1")]
    assert [placed[f"low-{i}"].status for i in range(4)] == ["Preempted", "Preempted", "AlreadyBound", "AlreadyBound"]
    assert placed["low-0"].message == "Preempted by podgroup default/g on node n0"
    assert groups(plan)["g"].status == "Scheduled"


def test_victim_group_with_disruption_mode_all_is_evicted_whole():
    existing = [node("n0", cpu="4"), node("n1", cpu="4"), gang("v", 2, priority=0, disruption="all"),
                pod("v-0", cpu="2", priority=0, group="v", node_name="n0"),
                pod("v-1", cpu="2", priority=0, group="v", node_name="n1"),
                pod("s-0", cpu="2", priority=0, node_name="n0"), pod("s-1", cpu="2", priority=0, node_name="n1")]
    plan = run(existing, [gang("g", 1, priority=100), pod("g-0", cpu="4", priority=100, group="g")])
    assert victims(plan) == [("PodGroup", "g", [("s-0", "n0", None), ("v-0", "n0", "default/v"),
                                                ("v-1", "n1", "default/v")])]
    assert by_name(plan)["s-1"].status == "AlreadyBound"
    assert by_name(plan)["g-0"].node == "n0"


def test_partial_preemption_keeps_the_more_important_victims():
    existing = [node("n0", cpu="4"), pod("a", cpu="2", priority=50, node_name="n0"),
                pod("b", cpu="2", priority=10, node_name="n0")]
    plan = run(existing, [gang("g", 1, priority=100), pod("g-0", cpu="2", priority=100, group="g")])
    assert victims(plan) == [("PodGroup", "g", [("b", "n0", None)])]
    assert (by_name(plan)["a"].status, by_name(plan)["g-0"].node) == ("AlreadyBound", "n0")


def test_pdb_violating_units_are_reprieved_first():
    existing = [node("n0", cpu="4"), pod("web", cpu="2", priority=5, node_name="n0", labels={"app": "web"}),
                pod("db", cpu="2", priority=5, node_name="n0", labels={"app": "db"}),
                pdb("db-pdb", {"app": "db"}, max_unavailable=0)]
    plan = run(existing, [gang("g", 1, priority=100), pod("g-0", cpu="2", priority=100, group="g")])
    assert victims(plan) == [("PodGroup", "g", [("web", "n0", None)])]


def test_group_priority_overrides_pod_priority_in_136_both_ways():
    existing = [node("n0", cpu="4"), pod("mid", cpu="4", priority=50, node_name="n0")]
    arrivals = [gang("g", 1, priority=100), pod("g-0", cpu="4", priority=0, group="g")]
    plan = run(existing, arrivals, version="1.36")
    assert victims(plan) == [("PodGroup", "g", [("mid", "n0", None)])]
    assert by_name(plan)["g-0"].node == "n0"
    # a victim group evicted as a whole (disruptionMode PodGroup) counts with its group's priority 0 for a group
    # preemptor, although its pod says 1000; DefaultPreemption in 1.36 reads pod priorities only
    victim_group = [node("n0", cpu="4"), gang("v", 1, priority=0, disruption="all"),
                    pod("v-0", cpu="4", priority=1000, group="v", node_name="n0")]
    plan = run(victim_group, [gang("g", 1, priority=100), pod("g-0", cpu="4", priority=0, group="g")],
               version="1.36")
    assert victims(plan) == [("PodGroup", "g", [("v-0", "n0", "default/v")])]
    plan = run(victim_group, [pod("p", cpu="4", priority=100)], version="1.36")
    assert plan.preemptions == ()


def test_136_wap_judges_a_single_mode_group_member_by_its_own_priority():
    existing = [node("n0", cpu="4"), gang("v", 1, priority=0),
                pod("v-0", cpu="4", priority=1000, group="v", node_name="n0")]
    plan = run(existing, [gang("g", 1, priority=100), pod("g-0", cpu="4", priority=100, group="g")],
               version="1.36")
    assert plan.preemptions == ()


def test_137_rejects_a_group_whose_pods_disagree_on_priority():
    plan = run([node("n0", cpu="4")], [gang("g", 1, priority=100), pod("g-0", cpu="1", priority=0, group="g")])
    assert by_name(plan)["g-0"].message == ("all pods in a single pod group should have the same priority as the "
                                            "pod group's priority, got 0 and 100")


def test_group_priority_too_low_evicts_nothing():
    existing = [node("n0", cpu="4"), pod("busy", cpu="4", priority=10, node_name="n0")]
    plan = run(existing, [gang("g", 1, priority=5), pod("g-0", cpu="4", priority=5, group="g")])
    assert plan.preemptions == ()
    assert groups(plan)["g"].message == (
        "pod group is unschedulable, 0/1 placements are available, first placement status: minCount (1) cannot be "
        "satisfied: 0 scheduled, 0 remaining, deallocation and deletion of ResourceClaims completed, pod group "
        "preemption: No preemption victims found for incoming preemptor")


def test_preemption_that_cannot_help_the_gang_evicts_nothing():
    existing = [*(node(f"n{i}", cpu="4") for i in range(3)), pod("l0", cpu="4", priority=0, node_name="n0"),
                pod("l1", cpu="4", priority=0, node_name="n1"), pod("vip", cpu="4", priority=500, node_name="n2")]
    plan = run(existing, [gang("g", 3, priority=100), *pods("g", 3, cpu="4", priority=100, group="g")])
    assert plan.preemptions == ()
    # the verdict is the group algorithm's own status with the victims removed (v1.37.2 selectVictimsOnDomain)
    failed = ("pod group is unschedulable, 0/1 placements are available, first placement status: minCount (3) "
              "cannot be satisfied: {}")
    assert groups(plan)["g"].message == (f"{failed.format('0 scheduled, 2 remaining')}, deallocation and deletion "
                                         f"of ResourceClaims completed, pod group preemption: "
                                         f"{failed.format('2 scheduled, 0 remaining')}")
    assert [by_name(plan)[x].status for x in ("l0", "l1", "vip")] == ["AlreadyBound"] * 3


def test_podgroup_preemption_policy_never_137():
    existing = [node("n0", cpu="4"), pod("low", cpu="4", priority=0, node_name="n0")]
    plan = run(existing, [gang("g", 1, priority=100, preemption_policy="Never"),
                          pod("g-0", cpu="4", priority=100, group="g")])
    assert plan.preemptions == ()
    assert groups(plan)["g"].message.endswith("pod group preemption: not eligible due to preemptionPolicy=Never.")


def test_topology_constrained_group_gets_no_preemption_in_136():
    existing = [node("n0", cpu="4", labels={"rack": "r0"}), pod("low", cpu="4", priority=0, node_name="n0")]
    arrivals = [gang("g", 1, priority=100, topology_keys=("rack",)), pod("g-0", cpu="4", priority=100, group="g")]
    plan = run(existing, arrivals, version="1.36")
    assert plan.preemptions == ()
    assert groups(plan)["g"].message == ("0/1 placements are available, first placement status: pod group is "
                                         "unschedulable, " + TOPOLOGY_MSG)


def test_136_without_the_wap_gate_preempts_pod_by_pod_and_binds_after():
    plan = run(four_full_nodes(), [gang("g", 2, priority=100), *pods("g", 2, cpu="4", priority=100, group="g")],
               version="1.36", gates="WorkloadAwarePreemption=false")
    placed = by_name(plan)
    # every node offers one equal victim; the latest-started one goes first (pickOneNodeForPreemption). g-1,
    # whose arrival completes the quorum, enters activeQ first, so the 1.36 cycle tries it first
    assert victims(plan) == [("Pod", "g-1", [("low-3", "n3", None)]), ("Pod", "g-0", [("low-2", "n2", None)])]
    assert [(placed[f"g-{i}"].status, placed[f"g-{i}"].node, placed[f"g-{i}"].nominated_node) for i in range(2)] \
        == [("Bound", "n2", "n2"), ("Bound", "n3", "n3")]
    assert groups(plan)["g"].status == "Scheduled"


def test_136_pod_by_pod_gang_that_stays_short_evicts_nothing():
    cluster = [node("n0", cpu="4"), pod("low-0", cpu="4", priority=0, node_name="n0"),
               node("n1", cpu="4"), pod("vip", cpu="4", priority=500, node_name="n1")]
    plan = run(cluster, [gang("g", 2, priority=100), *pods("g", 2, cpu="4", priority=100, group="g")],
               version="1.36", gates="WorkloadAwarePreemption=false")
    assert plan.preemptions == ()
    # g-1 (it completed the quorum) is tried first and takes n0 by evicting low-0; g-0 then finds nothing
    assert by_name(plan)["g-0"].message.startswith(
        "0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: ")


def test_basic_group_preempts_for_its_members_137():
    arrivals = [basic("b", priority=100), *pods("b", 3, cpu="4", priority=100, group="b")]
    plan = run(four_full_nodes(), arrivals, arrival="batch")
    assert victims(plan) == [("PodGroup", "b", [("low-0", "n0", None), ("low-1", "n1", None),
                                                ("low-2", "n2", None)])]
    assert sorted(p.node for p in plan.pods if p.name.startswith("b-")) == ["n0", "n1", "n2"]
    # arriving one by one, a basic group (no quorum gate) preempts for each member as it comes
    plan = run(four_full_nodes(), arrivals)
    assert victims(plan) == [("PodGroup", "b", [(f"low-{i}", f"n{i}", None)]) for i in range(3)]
    assert sorted(p.node for p in plan.pods if p.name.startswith("b-")) == ["n0", "n1", "n2"]


def _terminating(p):
    p.terminating = True
    return p


def _nominated(p, node_name):
    p.nominated_node_name = node_name
    return p


def test_group_waits_while_a_lower_priority_pod_terminates_on_a_members_nominated_node():
    """Evaluator test "Preemptor group is not eligible if nominated node has terminating pod belonging to a pod
    group of lower priority": the victim pod's own priority is high, its group's is low."""
    existing = [node("n0", cpu="4"), gang("victim-pg", 1, priority=0, disruption="all"),
                _terminating(pod("victim", cpu="4", priority=0, group="victim-pg", node_name="n0"))]
    arrivals = [gang("g", 2, priority=100), pod("g-0", cpu="4", priority=100, group="g"),
                _nominated(pod("g-1", cpu="4", priority=100, group="g"), "n0")]
    plan = run(existing, arrivals)
    assert plan.preemptions == ()
    assert groups(plan)["g"].message.endswith(
        "pod group preemption: not eligible due to a terminating pod on the nominated node.")


def test_a_terminating_pod_on_another_node_does_not_block_preemption():
    existing = [node("n0", cpu="4"), node("n1", cpu="4"),
                _terminating(pod("leaving", cpu="4", priority=0, node_name="n1")),
                pod("other", cpu="4", priority=0, node_name="n0")]
    arrivals = [gang("g", 1, priority=100), _nominated(pod("g-0", cpu="4", priority=100, group="g"), "n0")]
    plan = run(existing, arrivals)
    assert victims(plan) == [("PodGroup", "g", [("other", "n0", None)])]


def test_a_group_evicted_whole_says_so():
    existing = [node("n0", cpu="4"), gang("batch", 2, priority=0, disruption="all"),
                *(pod(f"batch-{i}", cpu="2", priority=0, group="batch", node_name="n0") for i in range(2))]
    plan = run(existing, [gang("train", 1, priority=100), pod("train-0", cpu="1", priority=100, group="train")])
    batch = groups(plan)["batch"]
    assert (batch.status, batch.reason, batch.message) == ("Unschedulable", "PreemptionByScheduler",
                                                           "2 of its pods were preempted")
    assert by_name(plan)["train-0"].node == "n0"


def test_freed_nodes_go_to_the_preempting_group_not_to_an_older_equal_priority_waiter():
    """Upstream counts the members' nominations on the freed node, so an older equal-priority pod that may not
    preempt (preemptionPolicy Never) cannot take it: one victim, the waiter stays pending."""
    existing = [node("n0", cpu="4"), node("n1", cpu="4"), pod("low-0", cpu="4", priority=0, node_name="n0"),
                pod("low-1", cpu="4", priority=0, node_name="n1")]
    arrivals = [pod("waiter", cpu="4", priority=100, preemption_policy="Never"),
                gang("g", 1, priority=100), pod("g-0", cpu="4", priority=100, group="g")]
    plan = run(existing, arrivals)
    assert victims(plan) == [("PodGroup", "g", [("low-0", "n0", None)])]
    assert (by_name(plan)["g-0"].node, by_name(plan)["waiter"].status) == ("n0", "Pending")


def _racked_group_missing_its_ssd_node(version):
    """Generated case seed=47 (1.37, sequential), reduced: a basic group bound to rack r0 through its first member
    gets a member that needs an ssd node; rack r0's only ssd node is full of a lower-priority pod."""
    cluster = [node("n0", cpu="2", labels={"rack": "r0", "disk": "hdd"}),
               node("n1", cpu="2", labels={"rack": "r1", "disk": "ssd"}),
               node("n3", cpu="2", labels={"rack": "r0", "disk": "ssd"}),
               pod("low", cpu="2", priority=0, node_name="n3"),
               pod("g0-0", cpu="500m", priority=100, group="g0", node_name="n0")]
    late = pod("g0-1", cpu="500m", priority=100, group="g0", node_selector={"disk": "ssd"})
    return run(cluster, [basic("g0", priority=100, topology_keys=("rack",)), late], version=version)


def test_137_preempts_for_a_topology_constrained_group_through_its_placement():
    """v1.37.2 has no refusal for constrained groups: DefaultPreemption's PodGroupPostFilter re-runs the placement
    search with every lower-priority pod removed (the bound member keeps the group in rack r0, so the free ssd
    node of rack r1 does not count), evicts the pod on n3 and the member binds there."""
    plan = _racked_group_missing_its_ssd_node("1.37")
    assert victims(plan) == [("PodGroup", "g0", [("low", "n3", None)])]
    assert (by_name(plan)["g0-1"].status, by_name(plan)["g0-1"].node) == ("Bound", "n3")
    assert by_name(plan)["low"].status == "Preempted"


def test_136_refuses_the_same_group_and_its_member_says_why():
    plan = _racked_group_missing_its_ssd_node("1.36")
    assert plan.preemptions == ()
    member = by_name(plan)["g0-1"]
    assert member.status == "Pending" and member.message.endswith(
        " no new claims to deallocate, preemption: not eligible due to placement-based pod group scheduling "
        "limitation")
    assert groups(plan)["g0"].message.endswith(", " + TOPOLOGY_MSG)


def test_137_gang_binds_on_the_nodes_its_preemption_freed():
    """fixtures/explain/preemption (and scenarios/eviction): v1.37.2 evicts all four batch pods and nominates the
    two members to the freed nodes, then requeues the group into its error backoff; the retry once that backoff
    expires binds them there (the oracle waits that backoff out, tests/oracle/test_oracle_gaps.py). wasplan
    retries at once with the same result."""
    existing = [node("gpu-0", cpu="96", gpu=8), node("gpu-1", cpu="96", gpu=8),
                *(pod(f"batch-{i}", cpu="8", gpu=4, priority=1000, namespace="batch", node_name=f"gpu-{i // 2}")
                  for i in range(4))]
    members = [pod(f"urgent-{i}", cpu="16", gpu=8, priority=100000, namespace="ml", group="urgent") for i in range(2)]
    plan = run(existing, [gang("urgent", 2, namespace="ml", priority=100000), *members])
    assert victims(plan) == [("PodGroup", "urgent", [(f"batch-{i}", f"gpu-{i // 2}", None) for i in range(4)])]
    placed = by_name(plan)
    assert [(placed[f"urgent-{i}"].status, placed[f"urgent-{i}"].node, placed[f"urgent-{i}"].nominated_node)
            for i in range(2)] == [("Bound", "gpu-0", "gpu-0"), ("Bound", "gpu-1", "gpu-1")]
    assert groups(plan)["urgent"].status == "Scheduled"


def test_136_basic_group_member_left_over_retries_alone_and_preempts():
    """Wide seed 100008 (issue 30): in 1.36 a basic group whose cycle placed one member succeeds, so no
    workload-aware preemption runs then; the member that did not fit goes to the backoffQ (v1.36.3
    scheduling_queue.go determineSchedulingHintForInFlightPod: queueAfterBackoff for any pod with a scheduling
    group) and its retry, a cycle of that member alone, is a plain Unschedulable one that preempts."""
    existing = [node("n0", cpu="2"), pod("run", cpu="1", priority=0, node_name="n0")]
    arrivals = [basic("w0", priority=100), pod("w0-0", cpu="500m", priority=100, group="w0"),
                pod("w0-1", cpu="1", priority=100, group="w0")]
    plan = run(existing, arrivals, version="1.36", arrival="batch")
    placed = by_name(plan)
    assert victims(plan) == [("PodGroup", "w0", [("run", "n0", None)])]
    assert [(placed[p].status, placed[p].node) for p in ("w0-0", "w0-1", "run")] == [
        ("Bound", "n0"), ("Bound", "n0"), ("Preempted", "n0")]
    assert groups(plan)["w0"].status == "Scheduled"


def test_137_victim_group_returns_when_only_its_other_node_is_overcommitted():
    """Wide seed 100019 (issue 30): the 1.37 reprieve checks a victim unit against the preemptor's assignments
    alone (v1.37.2 podgrouppreemption.go reprieveVictim: Filter per proposed assignment on its node), so a whole
    victim group comes back although one of its nodes, where no preemptor pod goes, runs over capacity."""
    existing = [node("n0", cpu="2"), node("n1", cpu="2"), gang("v", 2, priority=0, disruption="all"),
                pod("big", cpu="2", priority=1000, node_name="n0"),
                pod("v-0", cpu="1", priority=0, group="v", node_name="n0"),
                pod("v-1", cpu="500m", priority=0, group="v", node_name="n1"),
                pod("s", cpu="1", priority=0, node_name="n1")]
    plan = run(existing, [basic("g", priority=100), pod("g-0", cpu="1500m", priority=100, group="g")])
    placed = by_name(plan)
    assert victims(plan) == [("PodGroup", "g", [("s", "n1", None)])]
    assert [(placed[p].status, placed[p].node) for p in ("g-0", "v-0", "v-1", "s")] == [
        ("Bound", "n1"), ("AlreadyBound", "n0"), ("AlreadyBound", "n1"), ("Preempted", "n1")]
