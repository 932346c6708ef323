"""Topology-aware placement scenarios with exact domains, nodes and messages.

Follows test/integration/scheduler/topology_aware_scheduling/tas_test.go (1.36, v1alpha2): nodes of 2 CPU
labelled `rack`/`zone`, gang pods of 1 CPU ("large" pods 2 CPU), and the placement algorithm of
pkg/scheduler/schedule_one_podgroup.go (`0/<P> placements are available, first placement status: ...`) with
the generator of pkg/scheduler/framework/plugins/topologyaware/topology_placement.go. Nodes here carry no
memory, as in tas_test, so the bin-packing score is the cpu ratio alone (G4: rack-1 3/4 beats rack-2 3/6;
G5: rack-2 (2+3)/6 beats rack-1 3/4 and rack-3 (1+3)/6). Within a rack, nodes follow the per-pod scorers
(LeastAllocated spreads; a tie goes to the node whose name sorts first).
"""

import pytest
from builders import basic, gang, node, pod
from enginehelp import by_name, groups, run

from wasplan.engine.cycle.domains import most_allocated


def rack_node(name, rack, zone="zone-1"):
    return node(name, cpu="2", memory=None, labels={"rack": rack, "zone": zone})


def gang_pods(names, group, cpu="1"):
    return [pod(n, cpu=cpu, group=group) for n in names]


def nodes_of(plan, names):
    placed = by_name(plan)
    return [placed[n].node for n in names]


def test_gang_fits_only_in_one_rack():
    cluster = [rack_node("node1-rack1", "rack-1"), rack_node("node2-rack1", "rack-1"),
               rack_node("node3-rack1", "rack-1"), rack_node("node4-rack2", "rack-2"),
               rack_node("node5-rack2", "rack-2"), rack_node("node6-zone2", "rack-3", "zone-2"),
               pod("existing1", cpu="2", node_name="node4-rack2")]
    plan = run(cluster, [gang("pg1", 3, topology_keys=["rack"]), *gang_pods(["p1", "p2", "p3"], "pg1")])
    assert nodes_of(plan, ["p1", "p2", "p3"]) == ["node1-rack1", "node2-rack1", "node3-rack1"]
    g = groups(plan)["pg1"]
    assert (g.status, g.placement.topology_key, g.placement.domain) == ("Scheduled", "rack", "rack-1")
    assert plan.to_dict()["podGroups"][0]["placement"] == {"topologyKey": "rack", "domain": "rack-1"}


NO_RACK = [rack_node("node1-rack1", "rack-1"), rack_node("node2-rack1", "rack-1"),
           rack_node("node3-rack2", "rack-2"), rack_node("node4-zone2", "rack-3", "zone-2")]


# 1.37: the status carries errPodGroupUnschedulable and workload-aware preemption runs (DynamicResources'
# PodGroupPostFilter passes over a constrained group); 1.36 refuses it, and each member's PostFilter says why
FAILED_137 = ("pod group is unschedulable, 0/3 placements are available, first placement status: minCount (3) cannot be "
              "satisfied: 2 scheduled, 0 remaining, pod group preemption: No preemption victims found for incoming "
              "preemptor")
FAILED_136 = ("0/3 placements are available, first placement status: pod group is unschedulable, workload aware "
              "preemption is not supported for pod groups with scheduling constraints")


@pytest.mark.parametrize("version, msg, fitted, refusal", [
    ("1.37", FAILED_137, None, ""),
    ("1.36", FAILED_136, "waiting for minCount pods from a gang to be scheduled",
     " no new claims to deallocate, preemption: not eligible due to placement-based pod group scheduling limitation"),
])
def test_no_rack_fits_although_the_cluster_has_room(version, msg, fitted, refusal):
    plan = run(NO_RACK, [gang("pg1", 3, topology_keys=["rack"]), *gang_pods(["p1", "p2", "p3"], "pg1", "2")],
               version=version)
    placed = by_name(plan)
    assert [placed[p].status for p in ("p1", "p2", "p3")] == ["Pending"] * 3
    # the first placement (rack-1, two nodes) held two members (told the group's status, 1.36: their Permit
    # message); the third one's own FitError counts that rack's nodes only. 1.37 tries them in queue order; 1.36
    # tries p3 first, as the member that completed the quorum entered activeQ first
    told = f"pod group is unschedulable, {fitted or msg}"
    no_room = "0/2 nodes are available: 2 Insufficient cpu." + refusal
    expected = [told, told, no_room] if version == "1.37" else [told, no_room, told]
    assert [placed[p].message for p in ("p1", "p2", "p3")] == expected
    g = groups(plan)["pg1"]
    assert (g.status, g.message, g.placement, g.condition.reason) == ("Unschedulable", msg, None, "Unschedulable")


def test_two_gangs_fill_racks_in_turn():
    cluster = [rack_node("node1-rack1", "rack-1"), rack_node("node2-rack1", "rack-1"),
               rack_node("node3-rack1", "rack-1"), rack_node("node4-rack2", "rack-2"),
               rack_node("node5-rack2", "rack-2")]
    plan = run(cluster, [gang("pg1", 3, topology_keys=["rack"]), *gang_pods(["p1", "p2", "p3"], "pg1", "2"),
                         gang("pg2", 2, topology_keys=["rack"]), *gang_pods(["p4", "p5"], "pg2")])
    assert nodes_of(plan, ["p1", "p2", "p3"]) == ["node1-rack1", "node2-rack1", "node3-rack1"]
    assert nodes_of(plan, ["p4", "p5"]) == ["node4-rack2", "node5-rack2"]
    assert (groups(plan)["pg1"].placement.domain, groups(plan)["pg2"].placement.domain) == ("rack-1", "rack-2")


def test_gang_grows_inside_the_rack_its_bound_members_pin():
    cluster = [rack_node("node1-rack1", "rack-1"), rack_node("node2-rack1", "rack-1"),
               rack_node("node3-rack1", "rack-1"), rack_node("node4-rack2", "rack-2"),
               rack_node("node5-rack2", "rack-2"), rack_node("node6-rack3", "rack-3", "zone-2")]
    plan = run(cluster, [gang("pg1", 3, topology_keys=["rack"]),
                         *gang_pods(["p1", "p2", "p3", "p4", "p5"], "pg1")])
    # rack-2 wins the first cycle (3/4 of its cpu against 3/6 on rack-1); p4 and p5 arrive later, pinned there
    assert nodes_of(plan, ["p1", "p2", "p3", "p4"]) == ["node4-rack2", "node5-rack2", "node4-rack2", "node5-rack2"]
    p5 = by_name(plan)["p5"]
    assert (p5.status, p5.message) == ("Pending", "0/2 nodes are available: 2 Insufficient cpu.")
    g = groups(plan)["pg1"]  # the condition stays True (never regressed), so the later failure leaves no message
    assert (g.status, g.placement.domain, g.condition.status, g.message) == ("Scheduled", "rack-2", "True", "")


def test_bin_packing_arithmetic_of_tas_test_g4_g5():
    no_memory = 0
    assert most_allocated([3000, 600 * 2**20], [4000, no_memory]) == 75  # G4 rack-1
    assert most_allocated([3000, 600 * 2**20], [6000, no_memory]) == 50  # G4 rack-2
    assert [most_allocated([r, 0], [a, 0]) for r, a in ((3000, 4000), (5000, 6000), (4000, 6000))] == [75, 83, 66]
    assert most_allocated([3000, 2**30], [4000, 4 * 2**30]) == (75 + 25) // 2
    assert most_allocated([9000, 0], [4000, 0]) == 100  # requests beyond allocatable count as full


def test_placement_score_prefers_the_fuller_rack_g4():
    cluster = [rack_node("node1-rack1", "rack-1"), rack_node("node2-rack1", "rack-1"),
               rack_node("node3-rack2", "rack-2", "zone-2"), rack_node("node4-rack2", "rack-2", "zone-2"),
               rack_node("node5-rack2", "rack-2", "zone-2"), rack_node("node6-rack3", "rack-3", "zone-2")]
    plan = run(cluster, [gang("pg1", 3, topology_keys=["rack"]), *gang_pods(["p1", "p2", "p3"], "pg1")])
    assert nodes_of(plan, ["p1", "p2", "p3"]) == ["node1-rack1", "node2-rack1", "node1-rack1"]
    assert groups(plan)["pg1"].placement.domain == "rack-1"


def test_placement_score_counts_existing_requests_g5():
    racks = [("node1-rack1", "rack-1"), ("node2-rack1", "rack-1"), ("node3-rack2", "rack-2"),
             ("node4-rack2", "rack-2"), ("node5-rack2", "rack-2"), ("node6-rack3", "rack-3"),
             ("node7-rack3", "rack-3"), ("node8-rack3", "rack-3"), ("node9-rack4", "rack-4")]
    cluster = [rack_node(n, r) for n, r in racks]
    cluster += [pod("existing1", cpu="2", node_name="node3-rack2"), pod("existing2", cpu="1", node_name="node8-rack3")]
    plan = run(cluster, [gang("pg1", 3, topology_keys=["rack"]), *gang_pods(["p1", "p2", "p3"], "pg1")])
    assert nodes_of(plan, ["p1", "p2", "p3"]) == ["node4-rack2", "node5-rack2", "node4-rack2"]
    assert groups(plan)["pg1"].placement.domain == "rack-2"


def test_two_gangs_with_different_topology_keys():
    cluster = [rack_node("node1-rack1", "rack-1"), rack_node("node2-rack1", "rack-1"),
               rack_node("node3-rack2", "rack-2"), rack_node("node4-zone2", "rack-3", "zone-2"),
               rack_node("node5-zone2", "rack-3", "zone-2"), rack_node("node6-zone2", "rack-3", "zone-2")]
    plan = run(cluster, [gang("pg1", 3, topology_keys=["rack"]), *gang_pods(["p1", "p2", "p3"], "pg1", "2"),
                         gang("pg2", 3, topology_keys=["zone"]), *gang_pods(["p4", "p5", "p6"], "pg2", "2")])
    assert nodes_of(plan, ["p1", "p2", "p3"]) == ["node4-zone2", "node5-zone2", "node6-zone2"]
    assert nodes_of(plan, ["p4", "p5", "p6"]) == ["node1-rack1", "node2-rack1", "node3-rack2"]
    g = groups(plan)
    assert (g["pg1"].placement.topology_key, g["pg1"].placement.domain) == ("rack", "rack-3")
    assert (g["pg2"].placement.topology_key, g["pg2"].placement.domain) == ("zone", "zone-1")


def test_basic_group_136_first_pod_decides_the_rack():
    """tas_test basic: 'Scores are first calculated when scheduling the first pod' — rack-1 1/4 beats 1/6."""
    cluster = [rack_node("node1-rack1", "rack-1"), rack_node("node2-rack1", "rack-1"),
               rack_node("node3-rack2", "rack-2", "zone-2"), rack_node("node4-rack2", "rack-2", "zone-2"),
               rack_node("node5-rack2", "rack-2", "zone-2")]
    plan = run(cluster, [basic("pg1", topology_keys=["rack"]), *gang_pods(["p1", "p2", "p3"], "pg1")],
               version="1.36")
    assert nodes_of(plan, ["p1", "p2", "p3"]) == ["node1-rack1", "node2-rack1", "node1-rack1"]
    assert groups(plan)["pg1"].placement.domain == "rack-1"


def test_basic_group_136_first_pod_decides_the_rack_with_existing_pods():
    """rack-1 2/6, rack-2 3/6, rack-3 1/8 for the first pod: rack-2; later pods stay there."""
    names = [("node1-rack1", "rack-1"), ("node2-rack1", "rack-1"), ("node3-rack1", "rack-1"),
             ("node4-rack2", "rack-2"), ("node5-rack2", "rack-2"), ("node6-rack2", "rack-2"),
             ("node7-rack3", "rack-3"), ("node8-rack3", "rack-3"), ("node9-rack3", "rack-3"),
             ("node10-rack3", "rack-3")]
    cluster = [rack_node(n, r) for n, r in names]
    cluster += [pod(f"existing{i}", cpu="1", node_name=n)
                for i, n in enumerate(["node1-rack1", "node5-rack2", "node6-rack2"], 1)]
    plan = run(cluster, [basic("pg1", topology_keys=["rack"]), *gang_pods(["p1", "p2", "p3"], "pg1")],
               version="1.36")
    assert nodes_of(plan, ["p1", "p2", "p3"]) == ["node4-rack2", "node4-rack2", "node5-rack2"]


def test_members_bound_in_two_racks_are_a_scheduler_error():
    cluster = [rack_node("node1-rack1", "rack-1"), rack_node("node2-rack2", "rack-2"),
               gang("pg1", 2, topology_keys=["rack"]),
               pod("b1", cpu="1", group="pg1", node_name="node1-rack1"),
               pod("b2", cpu="1", group="pg1", node_name="node2-rack2")]
    plan = run(cluster, [pod("p3", cpu="1", group="pg1")])
    msg = ("cannot determine domain for already scheduled pods: "
           "more than 1 domain found for pod group: rack-1, rack-2")
    assert (by_name(plan)["p3"].status, by_name(plan)["p3"].message) == ("Pending", msg)
    g = groups(plan)["pg1"]
    assert (g.condition.reason, g.message, g.placement) == ("SchedulerError", msg, None)


def test_gate_off_or_no_key_keeps_the_plain_group_algorithm():
    cluster = [rack_node("node1-rack1", "rack-1"), rack_node("node2-rack2", "rack-2")]
    arrivals = [gang("pg1", 2, topology_keys=["rack"]), *gang_pods(["p1", "p2"], "pg1", "2")]
    off = run(cluster, arrivals, gates="TopologyAwareWorkloadScheduling=false")
    assert nodes_of(off, ["p1", "p2"]) == ["node1-rack1", "node2-rack2"]
    assert groups(off)["pg1"].placement is None
    on = run(cluster, arrivals)
    assert groups(on)["pg1"].message == ("pod group is unschedulable, 0/2 placements are available, first placement "
                                         "status: minCount (2) cannot be satisfied: 1 scheduled, 0 remaining, pod "
                                         "group preemption: No preemption victims found for incoming preemptor")
    plain = run(cluster, [gang("pg1", 2), *gang_pods(["p1", "p2"], "pg1", "2")])
    assert nodes_of(plain, ["p1", "p2"]) == ["node1-rack1", "node2-rack2"]


def test_preemption_refusal_for_constrained_groups():
    """v1.36.5 schedule_one_podgroup.go runWorkloadAwarePreemption: a PodGroup with a topology constraint gets no
    workload-aware preemption; v1.37.2 has no such refusal (its PodGroupPostFilter runs for every group)."""
    from enginehelp import options
    from wasplan.engine.cycle.placement import NO_PREEMPTION_MSG, preemption_refusal
    from wasplan.engine.cache.world import GroupState

    racked, plain = GroupState(gang("r", 2, topology_keys=["rack"]), 0, 0), GroupState(gang("p", 2), 0, 1)
    assert preemption_refusal(racked, options("1.36")) == NO_PREEMPTION_MSG
    assert NO_PREEMPTION_MSG == "workload aware preemption is not supported for pod groups with scheduling constraints"
    assert preemption_refusal(plain, options("1.36")) is None
    assert preemption_refusal(racked, options("1.37")) is None
    assert preemption_refusal(racked, options("1.36", gates="TopologyAwareWorkloadScheduling=false")) is None


def test_no_node_has_the_key():
    plan = run([rack_node("node1-rack1", "rack-1")],
               [gang("pg1", 1, topology_keys=["row"]), pod("p1", cpu="1", group="pg1")])
    p1 = by_name(plan)["p1"]
    assert (p1.status, p1.message) == ("Pending", '0/0 placements are available: no node has the label "row"')


def test_spread_constraints_count_inside_the_placement():
    """AssumePlacement leaves only the placement's nodes in the snapshot, so PodTopologySpread's domains and its
    global minimum are the placement's: rack-2's single node is a domain of its own and takes all four pods,
    while counting the whole cluster (rack-1's empty nodes at 0) would allow one pod per node and no rack."""
    from builders import spread
    cluster = [node(n, cpu="8", memory=None, labels={"rack": r}) for n, r in
               (("n1", "rack-1"), ("n2", "rack-1"), ("n3", "rack-2"))]
    members = [pod(f"p{i}", cpu="1", group="pg1", labels={"app": "x"},
                   spread=[spread("kubernetes.io/hostname", match={"app": "x"})]) for i in range(4)]
    plan = run(cluster, [gang("pg1", 4, topology_keys=["rack"]), *members])
    # both racks are feasible inside their placement; rack-2 packs better (4/8 of its CPU against 4/16)
    assert nodes_of(plan, [f"p{i}" for i in range(4)]) == ["n3"] * 4
    assert groups(plan)["pg1"].placement.domain == "rack-2"


def test_pod_affinity_sees_only_pods_inside_the_placement():
    """A cache pod on rack-2 is in the same zone as rack-1, but rack-1's placement snapshot does not hold it:
    required zone affinity to it fails there, so the gang lands on rack-2 although rack-1 would pack better."""
    from wasplan.cluster.model import Affinity, LabelSelector, PodAffinityTerm
    near_cache = Affinity(pod_required=(PodAffinityTerm(LabelSelector((("app", "cache"),)), "zone"),))
    cluster = [rack_node("n1", "rack-1"), rack_node("n2", "rack-2"), rack_node("n3", "rack-2"),
               pod("cache", cpu="100m", labels={"app": "cache"}, node_name="n3")]
    members = [pod(f"p{i}", cpu="1", group="pg1", affinity=near_cache) for i in range(2)]
    plan = run(cluster, [gang("pg1", 2, topology_keys=["rack"]), *members])
    assert nodes_of(plan, ["p0", "p1"]) == ["n2", "n3"]
    assert groups(plan)["pg1"].placement.domain == "rack-2"
