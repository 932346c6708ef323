"""CompositePodGroup trees: quorum at PreEnqueue, the recursive greedy algorithm, reverts, placements.

Follows test/integration/scheduler/podgroup/cpg_test.go (TestCPGHierarchicalScheduling: one node of 20 CPU,
cpg-root gang minGroupCount 2 over cpg-sub1 (gang 2: pg1, pg2, pg3 of 100-CPU pods), cpg-sub2 (basic: pg4
basic, pg5 gang 3) and cpg-sub3 (gang 2: pg6, pg7 of 100-CPU pods); TestCPGMinGroupCount) and the recursive
algorithm of pkg/scheduler/schedule_one_podgroup.go (compositePodGroupSchedulingDefaultAlgorithm, the
PlacementFeasible message of gangscheduling's getMinCount for composites), as summarised in
engine-semantics §1.3.4 and §1.10. The pods of a tree are created together (`arrival="batch"`), as the
integration test's single "Create Pods" step does before the scheduler sees the root. Every group and composite
goes through the placement algorithm (CompositePodGroup needs TopologyAwareWorkloadScheduling): one without a
topology key has one placement, so its failure reads `0/1 placements are available, first placement status: ...`.
"""

from builders import basic, composite, gang, node, pod
from enginehelp import by_name, groups, run

FIT_ERROR = "0/1 nodes are available: 1 Insufficient cpu."
ONE_PLACEMENT = "0/1 placements are available, first placement status: "
FAILED = "pod group is unschedulable, " + ONE_PLACEMENT  # v1.37.2 builds it with errPodGroupUnschedulable


def cpg_pods(group, *cpus):
    return [pod(f"{group}-pod-{i}", cpu=c, group=group) for i, c in enumerate(cpus)]


def hierarchical_tree():
    objects = [composite("cpg-root", 2), composite("cpg-sub1", 2, parent="cpg-root"),
               composite("cpg-sub2", parent="cpg-root"), composite("cpg-sub3", 2, parent="cpg-root")]
    objects += [gang(g, 3, parent="cpg-sub1") for g in ("pg1", "pg2", "pg3")]
    objects += [basic("pg4", parent="cpg-sub2"), gang("pg5", 3, parent="cpg-sub2")]
    objects += [gang(g, 3, parent="cpg-sub3") for g in ("pg6", "pg7")]
    pods = [*cpg_pods("pg1", 1, 1, 1), *cpg_pods("pg2", 1, 1, 1), *cpg_pods("pg3", 100, 100, 100),
            *cpg_pods("pg4", 1, 1, 1), *cpg_pods("pg5", 1, 1, 1), *cpg_pods("pg6", 1, 1, 1),
            *cpg_pods("pg7", 100, 100, 100)]
    return objects, pods


def test_failed_child_is_reverted_and_the_root_succeeds_with_min_group_count():
    objects, pods = hierarchical_tree()
    plan = run([node("node1", cpu="20", memory=None)], [*objects, *pods], arrival="batch")
    placed = by_name(plan)
    for g in ("pg1", "pg2", "pg4", "pg5"):
        assert [placed[f"{g}-pod-{i}"].node for i in range(3)] == ["node1"] * 3
    sub3_msg = FAILED + "minCount (2) cannot be satisfied: 1 scheduled, 0 remaining"
    gang_msg = FAILED + "minCount (3) cannot be satisfied: 0 scheduled, 2 remaining"
    # pg6 fit, then was reverted with cpg-sub3
    assert [placed[f"pg6-pod-{i}"].message for i in range(3)] == [f"pod group is unschedulable, {sub3_msg}"] * 3
    for g in ("pg3", "pg7"):
        assert [placed[f"{g}-pod-{i}"].message for i in range(3)] == [FIT_ERROR, gang_msg, gang_msg]
        assert {placed[f"{g}-pod-{i}"].status for i in range(3)} == {"Pending"}
    g = groups(plan)
    assert {n: g[n].condition.status for n in g} == {"pg1": "True", "pg2": "True", "pg3": "False", "pg4": "True",
                                                     "pg5": "True", "pg6": "False", "pg7": "False"}
    trees = {c.name: c for c in plan.composites}
    assert (trees["cpg-root"].status, trees["cpg-sub3"].status, trees["cpg-sub3"].message) == \
        ("Scheduled", "Unschedulable", sub3_msg)
    assert [(c.name, c.result) for c in trees["cpg-root"].children] == \
        [("cpg-sub1", "Scheduled"), ("cpg-sub2", "Scheduled"), ("cpg-sub3", "Failed")]
    assert [(c.name, c.result) for c in trees["cpg-sub3"].children] == [("pg6", "Reverted"), ("pg7", "Failed")]
    assert [(c.name, c.result) for c in trees["cpg-sub1"].children] == \
        [("pg1", "Scheduled"), ("pg2", "Scheduled"), ("pg3", "Failed")]


def test_tree_waits_for_quorum_from_the_root():
    objects = [composite("root", 2), gang("a", 2, parent="root"), gang("b", 2, parent="root")]
    plan = run([node("node1", cpu="20")], [*objects, *cpg_pods("a", 1, 1), *cpg_pods("b", 1)])
    msg = 'waiting for composite pod group "root" tree to meet quorum'
    assert {(p.status, p.message) for p in plan.pods} == {("Gated", msg)}
    plan = run([node("node1", cpu="20")], [*objects, *cpg_pods("a", 1, 1), *cpg_pods("b", 1, 1)])
    assert {p.status for p in plan.pods} == {"Bound"}


def test_gate_off_makes_every_pod_group_stand_alone():
    objects = [composite("root", 2), gang("a", 2, parent="root"), gang("b", 2, parent="root")]
    plan = run([node("node1", cpu="20")], [*objects, *cpg_pods("a", 1, 1), *cpg_pods("b", 1)],
               gates="CompositePodGroup=false")
    placed = by_name(plan)
    assert [placed[p].status for p in ("a-pod-0", "a-pod-1", "b-pod-0")] == ["Bound", "Bound", "Gated"]
    assert plan.composites == ()


def zone_cluster(zone2_existing_cpu):
    nodes = [node(n, cpu="2", memory=None, labels={"zone": z}) for n, z in
             (("z1-a", "zone-1"), ("z1-b", "zone-1"), ("z2-a", "zone-2"), ("z2-b", "zone-2"))]
    existing = [pod("busy-1", cpu="2", node_name="z1-b")]
    if zone2_existing_cpu:
        existing.append(pod("busy-2", cpu=zone2_existing_cpu, node_name="z2-b"))
    return nodes + existing


ZONE_TREE = [composite("job", 2, topology_keys=["zone"]), gang("a", 2, parent="job"), gang("b", 2, parent="job")]


def test_composite_takes_the_zone_with_room_for_both_children():
    plan = run(zone_cluster(None), [*ZONE_TREE, *cpg_pods("a", 1, 1), *cpg_pods("b", 1, 1)], arrival="batch")
    placed = by_name(plan)
    assert [placed[p].node for p in ("a-pod-0", "a-pod-1", "b-pod-0", "b-pod-1")] == ["z2-a", "z2-b", "z2-a", "z2-b"]
    job = {c.name: c for c in plan.composites}["job"]
    assert (job.status, job.placement.topology_key, job.placement.domain) == ("Scheduled", "zone", "zone-2")


def test_composite_whose_zones_have_no_room_for_both_children():
    plan = run(zone_cluster("1"), [*ZONE_TREE, *cpg_pods("a", 1, 1), *cpg_pods("b", 1, 1)], arrival="batch")
    placed = by_name(plan)
    root_msg = ("pod group is unschedulable, 0/2 placements are available, first placement status: "
                "minCount (2) cannot be satisfied: 1 scheduled, 0 remaining")
    # first placement zone-1 (2 CPU free): a takes both CPUs of z1-a and counts; b's first pod finds no room
    assert [placed[p].message for p in ("a-pod-0", "a-pod-1")] == [f"pod group is unschedulable, {root_msg}"] * 2
    assert [placed[p].message for p in ("b-pod-0", "b-pod-1")] == [
        "0/2 nodes are available: 2 Insufficient cpu.",
        FAILED + "minCount (2) cannot be satisfied: 0 scheduled, 1 remaining"]
    assert {p.status for p in plan.pods if p.pod_group} == {"Pending"}
    job = {c.name: c for c in plan.composites}["job"]
    assert (job.status, job.message, job.placement) == ("Unschedulable", root_msg, None)
    assert [(c.name, c.result) for c in job.children] == [("a", "Reverted"), ("b", "Failed")]


# ---- test/integration/scheduler/topology_aware_scheduling/cpg_tas_test.go (TestCPGTopologyAwareScheduling) ----
def tas_node(name, rack, zone="zone-1"):
    return node(name, cpu="2", memory=None, labels={"rack": rack, "zone": zone})


def test_parent_rack_constraint_keeps_both_children_in_one_rack():
    cluster = [tas_node("node1-z1-r1", "rack-1"), tas_node("node2-z1-r1", "rack-1"),
               tas_node("node3-z1-r2", "rack-2"), tas_node("node4-z1-r2", "rack-2"),
               pod("existing", cpu="2", node_name="node4-z1-r2")]
    tree = [composite("cpg-root", 2, topology_keys=["rack"]), gang("pg1", 2, parent="cpg-root"),
            gang("pg2", 2, parent="cpg-root")]
    plan = run(cluster, [*tree, *cpg_pods("pg1", 1, 1), *cpg_pods("pg2", 1, 1)], arrival="batch")
    placed = by_name(plan)
    assert [placed[p].node for p in ("pg1-pod-0", "pg1-pod-1", "pg2-pod-0", "pg2-pod-1")] == \
        ["node1-z1-r1", "node2-z1-r1", "node1-z1-r1", "node2-z1-r1"]
    assert {c.name: c for c in plan.composites}["cpg-root"].placement.domain == "rack-1"


def test_bound_member_of_the_tree_pins_the_parent_rack():
    cluster = [tas_node("node1-z1-r1", "rack-1"), tas_node("node2-z1-r1", "rack-1"),
               tas_node("node3-z1-r2", "rack-2"), tas_node("node4-z1-r2", "rack-2"),
               composite("cpg-root", 2, topology_keys=["rack"]), gang("pg1", 2, parent="cpg-root"),
               gang("pg2", 2, parent="cpg-root"), pod("existing", cpu="1", group="pg1", node_name="node4-z1-r2")]
    plan = run(cluster, [pod("p1", cpu="1", group="pg1"), *cpg_pods("pg2", 1, 1)], arrival="batch")
    placed = by_name(plan)
    assert [placed[p].node for p in ("p1", "pg2-pod-0", "pg2-pod-1")] == ["node3-z1-r2", "node3-z1-r2", "node4-z1-r2"]
    assert {c.name: c for c in plan.composites}["cpg-root"].placement.domain == "rack-2"


def test_zone_for_the_parent_and_a_rack_for_each_child():
    cluster = [tas_node("node1-z1-r1", "rack-1"), tas_node("node2-z1-r2", "rack-2"),
               tas_node("node3-z2-r1", "rack-1", "zone-2"), tas_node("node4-z2-r1", "rack-1", "zone-2"),
               pod("existing-z2", cpu="1", node_name="node3-z2-r1")]
    tree = [composite("cpg-root", 2, topology_keys=["zone"]), gang("pg1", 2, parent="cpg-root", topology_keys=["rack"]),
            gang("pg2", 2, parent="cpg-root", topology_keys=["rack"])]
    plan = run(cluster, [*tree, *cpg_pods("pg1", 1, 1), *cpg_pods("pg2", 1, 1)], arrival="batch")
    placed = by_name(plan)
    # zone-2 has 3 free CPUs: pg1 fits in its rack-1, pg2 then finds one CPU; zone-1 holds pg1 on rack-1 (a score
    # tie with rack-2, broken by name) and pg2 on rack-2
    assert [placed[p].node for p in ("pg1-pod-0", "pg1-pod-1", "pg2-pod-0", "pg2-pod-1")] == \
        ["node1-z1-r1", "node1-z1-r1", "node2-z1-r2", "node2-z1-r2"]
    g = groups(plan)
    assert [(g[n].placement.topology_key, g[n].placement.domain) for n in ("pg1", "pg2")] == \
        [("rack", "rack-1"), ("rack", "rack-2")]
    assert {c.name: c for c in plan.composites}["cpg-root"].placement.domain == "zone-1"


def test_pods_created_before_their_group_wait_for_the_tree():
    objects = [composite("root", 2), gang("a", 1, parent="root"), gang("b", 1, parent="root")]
    plan = run([node("node1", cpu="20")], [*cpg_pods("a", 1), *objects[:2]])
    assert (plan.pods[0].status, plan.pods[0].message) == \
        ("Gated", 'waiting for composite pod group "root" tree to meet quorum')
    plan = run([node("node1", cpu="20")], [*cpg_pods("a", 1), *objects, *cpg_pods("b", 1)])
    assert [p.status for p in plan.pods] == ["Bound", "Bound"]


def test_retry_after_partial_success_keeps_a_settled_subtree():
    """A basic root succeeds with one child; the failed child is retried at once (partial success) while the
    settled rack-constrained subtree has nothing queued any more: it counts as scheduled, pinned to its rack, and the
    retry places nothing new, so the earlier success stays what the plan reports."""
    cluster = [tas_node("n1", "rack-1"), tas_node("n2", "rack-1"), tas_node("n3", "rack-2")]
    tree = [composite("root"), composite("sub", 1, parent="root", topology_keys=["rack"]),
            gang("a", 2, parent="sub"), gang("b", 1, parent="root")]
    plan = run(cluster, [*tree, *cpg_pods("a", 1, 1), *cpg_pods("b", 3)], arrival="batch")
    placed = by_name(plan)
    assert [placed["a-pod-0"].node, placed["a-pod-1"].node] == ["n3", "n3"]  # rack-2 packs best (2/2 CPU)
    assert (placed["b-pod-0"].status, placed["b-pod-0"].message) == \
        ("Pending", "0/3 nodes are available: 3 Insufficient cpu.")
    trees = {c.name: c for c in plan.composites}
    assert (trees["root"].status, trees["sub"].placement.domain) == ("Scheduled", "rack-2")


def test_invalid_hierarchies_are_not_scheduled():
    """Parents in a cycle, or more than 4 levels counting the PodGroups (api-reference §4.3 runtime checks, the
    bounds lint's WAS410/WAS411 use): the scheduler marks the hierarchy Invalid and schedules none of it."""
    cycle = [composite("a", parent="b"), composite("b", parent="a"), basic("g", parent="a")]
    plan = run([node("node1", cpu="20")], [*cycle, *cpg_pods("g", 1)])
    assert (plan.pods[0].status, plan.pods[0].message) == \
        ("Gated", 'composite pod group "a" hierarchy is invalid (its parents form a cycle); none of it is scheduled')
    deep = [composite("l1"), composite("l2", parent="l1"), composite("l3", parent="l2"),
            composite("l4", parent="l3"), basic("g", parent="l4")]
    plan = run([node("node1", cpu="20")], [*deep, *cpg_pods("g", 1)])
    assert plan.pods[0].message == ('composite pod group "l1" hierarchy is invalid (more than 4 levels counting '
                                    'the PodGroups); none of it is scheduled')
    ok = [composite("l1"), composite("l2", parent="l1"), composite("l3", parent="l2"), basic("g", parent="l3")]
    assert run([node("node1", cpu="20")], [*ok, *cpg_pods("g", 1)]).pods[0].status == "Bound"
