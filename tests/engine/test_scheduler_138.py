"""What the 1.38 scheduler (k8s.io/kubernetes v1.38.0-beta.0) does differently from 1.37 in a plan, each case
checked against the 1.38 oracle (release-1.38.md §4): real manifests in, 1.38's exact statuses and messages out.

- group statuses are podGroupFitErrors (pkg/scheduler/types.go): GangScheduling's PlacementFeasible counts
  unschedulable and not-evaluated members (gangscheduling.go), with the TAS gate on every group is one
  placement at least, and DynamicResources' `deallocation and deletion ...` joins only a group without a
  topology constraint; the members that fitted name their group (schedule_one.go);
- a basic group is held to a threshold of 1 (GenericPodGroup.GetMinCount);
- a node whose topology label value is "" is in no placement (topologyaware/topology_placement.go);
- a PodDisruptionBudget with `selector: {}` covers every pod of its namespace (preemption/util.go, #141785);
- workload-aware preemption ranks nodes by what evicting costs (DefaultPreemption RankNodes, CompareVictimSets);
- (a topology spread constraint with `labelSelector: {}` counting every pod of the namespace, #141340, is in
  test_group_validation_and_empty_spread.py).
"""

from __future__ import annotations

from drascenes import plan, pods
from tests.conftest import FIXTURES
from wasplan.engine.preemption.ranknodes import VictimCost, compare_victim_sets


def _node(name: str, cpu: str, rack: str | None = None) -> str:
    rack_label = "" if rack is None else f', rack: "{rack}"'
    return f"""---
apiVersion: v1
kind: Node
metadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}{rack_label}}}}}
status: {{allocatable: {{cpu: "{cpu}", memory: 8Gi, pods: "110"}}}}
"""


def _group(name: str, policy: str, members: int, cpu: str, topology: bool = False) -> str:
    constraint = "\n  schedulingConstraints: {topology: [{key: rack}]}" if topology else ""
    text = f"""---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: {name}, namespace: default}}
spec:
  schedulingPolicy: {{{policy}}}{constraint}
"""
    return text + "".join(f"""---
apiVersion: v1
kind: Pod
metadata: {{name: {name}-{i}, namespace: default}}
spec:
  schedulingGroup: {{podGroupName: {name}}}
  containers: [{{name: main, image: app:1, resources: {{requests: {{cpu: "{cpu}"}}}}}}]
""" for i in range(members))


THRESHOLD = "scheduling policy's minimum threshold ({}) cannot be satisfied: {} scheduled, {} unschedulable, {} not-evaluated"
PLACEMENTS = "0/{} placements are available, first placement status: "
DRA_DONE = "deallocation and deletion of ResourceClaims completed"
NO_VICTIMS = "pod group preemption: No preemption victims found for incoming preemptor"
INSUFFICIENT = "0/{} nodes are available: {} Insufficient cpu."


def _groups(run) -> dict[str, tuple]:
    return {g.name: (str(g.status), g.condition.reason, g.message) for g in run.plan.pod_groups}


def test_a_gang_short_of_room_counts_its_unschedulable_members(tmp_path):
    run = plan(tmp_path, _node("n0", "4"), _group("trio", "gang: {minCount: 3}", 3, "2"), "1.38", arrival="batch")
    assert _groups(run)["trio"] == ("Unschedulable", "Unschedulable", PLACEMENTS.format(1)
                                    + f"{THRESHOLD.format(3, 2, 1, 0)}, {DRA_DONE}, {NO_VICTIMS}")
    assert pods(run) == {"trio-0": ("Pending", None, 'parent pod group "trio" is unschedulable'),
                         "trio-1": ("Pending", None, 'parent pod group "trio" is unschedulable'),
                         "trio-2": ("Pending", None, INSUFFICIENT.format(1, 1))}


def test_the_same_gang_under_1_37_keeps_its_wording(tmp_path):
    run = plan(tmp_path, _node("n0", "4"), _group("trio", "gang: {minCount: 3}", 3, "2"), "1.37", arrival="batch")
    assert pods(run)["trio-0"][2].startswith("pod group is unschedulable, ")


def test_a_constrained_gang_reads_its_placements_without_the_claims_text(tmp_path):
    cluster = _node("n0", "4", "r1") + _node("n1", "4", "r2")
    run = plan(tmp_path, cluster, _group("trio", "gang: {minCount: 3}", 3, "2", topology=True), "1.38",
               arrival="batch")
    assert _groups(run)["trio"][2] == PLACEMENTS.format(2) + f"{THRESHOLD.format(3, 2, 1, 0)}, {NO_VICTIMS}"


def test_a_basic_group_whose_members_all_fail_misses_its_threshold_of_one(tmp_path):
    run = plan(tmp_path, _node("n0", "4"), _group("solo", "basic: {}", 2, "9"), "1.38", arrival="batch")
    assert _groups(run)["solo"][2] == PLACEMENTS.format(1) + f"{THRESHOLD.format(1, 0, 2, 0)}, {DRA_DONE}, {NO_VICTIMS}"
    assert {p[2] for p in pods(run).values()} == {INSUFFICIENT.format(1, 1)}


def test_a_node_with_an_empty_topology_value_is_in_no_placement(tmp_path):
    # n0 (rack "") has room for both members, n1 (rack r1) for one: 1.37 placed the gang on n0, 1.38 cannot
    cluster = _node("n0", "4", "") + _node("n1", "2", "r1")
    manifests = _group("pair", "gang: {minCount: 2}", 2, "2", topology=True)
    assert {p[1] for p in pods(plan(tmp_path, cluster, manifests, "1.37", arrival="batch")).values()} == {"n0"}
    run = plan(tmp_path, cluster, manifests, "1.38", arrival="batch")
    assert _groups(run)["pair"][2] == PLACEMENTS.format(1) + f"{THRESHOLD.format(2, 1, 1, 0)}, {NO_VICTIMS}"
    assert pods(run)["pair-1"] == ("Pending", None, INSUFFICIENT.format(1, 1))


PDB = FIXTURES / "scenarios" / "pdb-empty-selector"


def test_an_empty_pdb_selector_guards_every_pod_of_its_namespace(tmp_path):
    # 1.37 ignores the budget and evicts the lowest-priority victim (guarded, on n0); 1.38 sees that eviction
    # break the budget and takes n1, whose victim no budget covers
    cluster, urgent = (PDB / "cluster.yaml").read_text(), (PDB / "urgent.yaml").read_text()
    assert pods(plan(tmp_path, cluster, urgent, "1.37"))["urgent"][:2] == ("Bound", "n0")
    assert pods(plan(tmp_path, cluster, urgent, "1.38"))["urgent"][:2] == ("Bound", "n1")


CHEAPEST = FIXTURES / "scenarios" / "wap-cheapest-node"


def test_workload_aware_preemption_takes_the_node_whose_victims_cost_least(tmp_path):
    cluster, solo = (CHEAPEST / "cluster.yaml").read_text(), (CHEAPEST / "solo.yaml").read_text()
    before = pods(plan(tmp_path, cluster, solo, "1.37"))
    assert (before["solo-0"][:2], before["costly"][0]) == (("Bound", "n0"), "Preempted")
    after = pods(plan(tmp_path, cluster, solo, "1.38"))
    assert (after["solo-0"][:2], after["cheap"][0], after["costly"][0]) == (("Bound", "n1"), "Preempted",
                                                                           "AlreadyBound")


def test_victim_sets_compare_budgets_first_then_priority_by_priority():
    cheap, costly = VictimCost(5, 1, 1, 0), VictimCost(50, 1, 1, 0)
    guarded = VictimCost(5, 1, 1, 1)
    assert compare_victim_sets([], [cheap]) < 0  # a free node is rank 0
    assert compare_victim_sets([cheap], [costly]) < 0
    assert compare_victim_sets([costly], [guarded]) < 0  # a budget broken outweighs priority
    assert compare_victim_sets([cheap, cheap], [cheap]) > 0  # more pods at the same priority
    # the same pods in one group victim against two pod victims: fewer victims of a higher type rank last
    assert compare_victim_sets([VictimCost(5, 2, 2, 0)], [cheap, cheap]) > 0


COMPOSITE = FIXTURES / "explain" / "composite"


def test_a_failed_tree_names_its_composite_and_gets_its_condition(tmp_path):
    """1.38 (schedule_one_podgroup.go completeCompositePodGroupAlgorithmResultMap, buildAncestorFailureStatus,
    updateInitiallyScheduledCondition): pipeline-shard-0 fitted but its parent failed, so it names the ancestor;
    pipeline-shard-1 keeps its own reason; the CompositePodGroup gets CompositePodGroupInitiallyScheduled."""
    run = plan(tmp_path, (COMPOSITE / "cluster.yaml").read_text(), (COMPOSITE / "gang.yaml").read_text(), "1.38")
    # every group of the failed tree carries what the root's PodGroupPostFilter said: nothing of lower priority
    # runs (applyPodGroupPostFilterResult; the oracle's messages, word for word)
    groups = _groups(run)
    assert groups["pipeline-shard-0"][2] == f'ancestor composite pod group "pipeline-stage" is unschedulable, {NO_VICTIMS}'
    assert groups["pipeline-shard-1"][2] == f"{PLACEMENTS.format(1)}{THRESHOLD.format(2, 1, 1, 0)}, {NO_VICTIMS}"
    assert {name: message for name, (_, _, message) in pods(run).items()} == {
        "shard-0-0": 'parent pod group "pipeline-shard-0" is unschedulable',
        "shard-0-1": 'parent pod group "pipeline-shard-0" is unschedulable',
        "shard-1-0": 'parent pod group "pipeline-shard-1" is unschedulable',
        "shard-1-1": "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."}
    (tree,) = run.plan.to_dict()["compositePodGroups"]
    assert tree["condition"] == {"type": "CompositePodGroupInitiallyScheduled", "status": "False",
                                 "reason": "Unschedulable"}
    # the composite's own status (the condition upstream writes; the oracle's `message` is its first failed child's)
    assert tree["message"] == f"{PLACEMENTS.format(1)}{THRESHOLD.format(2, 1, 1, 0)}, {NO_VICTIMS}"


def test_a_failed_tree_whose_class_never_preempts_says_so_on_every_group(tmp_path):
    """The root's preemptionPolicy Never (from its class, admission): GenerateVictims (framework/preemption/
    manager.go) refuses, and every group of the tree reads it (checked against the 1.38 oracle)."""
    never = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: zero-never}\nvalue: 0\n" \
            "preemptionPolicy: Never\n---\n"
    manifests = never + (COMPOSITE / "gang.yaml").read_text().replace(
        "spec:\n  workloadRef:", "spec:\n  priorityClassName: zero-never\n  workloadRef:").replace(
        "spec:\n  schedulingGroup:", "spec:\n  priorityClassName: zero-never\n  schedulingGroup:")
    groups = _groups(plan(tmp_path, (COMPOSITE / "cluster.yaml").read_text(), manifests, "1.38"))
    refusal = "pod group preemption: not eligible due to preemptionPolicy=Never."
    assert groups["pipeline-shard-0"][1:] == (
        "Unschedulable", f'ancestor composite pod group "pipeline-stage" is unschedulable, {refusal}')
    assert groups["pipeline-shard-1"][2] == f"{PLACEMENTS.format(1)}{THRESHOLD.format(2, 1, 1, 0)}, {refusal}"


def _racks(count: int) -> str:
    return "".join(_node(f"n{i:02d}", "4", f"r{i:02d}") for i in range(count))


def test_where_1_38_would_sample_placements_the_plan_says_so(tmp_path):
    """60 one-node racks: pct = max(5, 100 - 60·9/500) = 99, so upstream stops after 59 of 60 feasible
    placements (algorithm_podgroup.go numFeasiblePlacementsToFind); wasplan scores all 60 (WAS730)."""
    pair = _group("pair", "gang: {minCount: 2}", 2, "1", topology=True)
    run = plan(tmp_path, _racks(60), pair, "1.38")
    (warning,) = [d for d in run.diagnostics if d.code == "WAS730"]
    assert warning.message == ("PodGroup default/pair: kube-scheduler 1.38 samples placements and would stop after "
                               "59 feasible of its 60, tried in random order; wasplan scored all 60")
    assert not [d for d in plan(tmp_path, _racks(60), pair, "1.37").diagnostics if d.code == "WAS730"]
    # below 56 nodes in all the placements every one is tried: nothing to say
    assert not [d for d in plan(tmp_path, _racks(55), pair, "1.38").diagnostics if d.code == "WAS730"]
