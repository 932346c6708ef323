"""A CompositePodGroup child whose pods arrive one at a time (1.37, sequential arrival).

A basic root's quorum is met as soon as one child has minCount pods (v1.37.2 gangscheduling.go
isCPGTreeReady), so a later child's first pod passes PreEnqueue alone and the tree is attempted with it.
podGroupSchedulingDefaultAlgorithm (schedule_one_podgroup.go) then stops that gang at the PlacementFeasible
check made before any member is tried (`0 scheduled, 1 remaining` is short of minCount 2); the status is built
with errPodGroupUnschedulable, so the placements message quotes it as `pod group is unschedulable`. The tree
backs off; the child's next pod joins it and the retry binds both (generated seeds 39, 44 and 48).
"""

from __future__ import annotations

from wasplan.api.releases import default_gates, get_release
from wasplan.pipeline.plan import run_plan
from wasplan.pipeline.requests import PlanRequest

NODE = """\
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"""

RACKS = "".join(f"""---
apiVersion: v1
kind: Node
metadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}, example.com/rack: {rack}}}}}
status: {{allocatable: {{cpu: "4", memory: 8Gi, pods: "110"}}}}
""" for name, rack in (("n1", "r1"), ("n2", "r2")))

ROOT = """\
apiVersion: scheduling.k8s.io/v1alpha3
kind: Workload
metadata: {name: wl, namespace: default}
spec:
  compositePodGroupTemplates:
  - name: stage
    schedulingPolicy: {basic: {}}
    podGroupTemplates:
    - name: shard
      schedulingPolicy: {gang: {minCount: 2}}
    - name: racked
      schedulingPolicy: {gang: {minCount: 2}}
      schedulingConstraints:
        topology:
        - {key: example.com/rack}
---
apiVersion: scheduling.k8s.io/v1alpha3
kind: CompositePodGroup
metadata: {name: stage, namespace: default}
spec:
  workloadRef: {workloadName: wl, templateName: stage}
  schedulingPolicy: {basic: {}}
"""


def shard(name: str, pods: int, racked: bool = False) -> str:
    """A gang of minCount 2 under `stage` with `pods` pods; `racked`: all in one example.com/rack."""
    constraint = "  schedulingConstraints:\n    topology:\n    - {key: example.com/rack}\n" if racked else ""
    out = f"""---
apiVersion: scheduling.k8s.io/v1alpha3
kind: PodGroup
metadata: {{name: {name}, namespace: default}}
spec:
  workloadRef: {{workloadName: wl, templateName: {"racked" if racked else "shard"}}}
  parentCompositePodGroupName: stage
  schedulingPolicy: {{gang: {{minCount: 2}}}}
{constraint}"""
    for i in range(pods):
        out += f"""---
apiVersion: v1
kind: Pod
metadata: {{name: {name}-{i}, namespace: default}}
spec:
  schedulingGroup: {{podGroupName: {name}}}
  containers: [{{name: c, image: app:1, resources: {{requests: {{cpu: "1"}}}}}}]
"""
    return out


def plan(tmp_path, cluster: str, manifests: str, arrival: str = "sequential"):
    (tmp_path / "cluster.yaml").write_text(cluster)
    (tmp_path / "tree.yaml").write_text(manifests)
    run = run_plan(PlanRequest([str(tmp_path / "tree.yaml")], [str(tmp_path / "cluster.yaml")],
                               default_gates(get_release("1.37")), arrival=arrival))
    assert not run.invalid, run.diagnostics
    return run.plan


def pods(p) -> dict[str, tuple]:
    return {x.name: (str(x.status), x.node, x.message) for x in p.pods}


def conditions(p) -> dict[str, tuple]:
    return {g.name: (g.condition.status, g.condition.reason, g.condition.message) for g in p.pod_groups}


SHORT = "pod group is unschedulable, 0/{n} placements are available, first placement status: pod group is unschedulable"


def test_child_completed_one_pod_at_a_time_binds(tmp_path):
    p = plan(tmp_path, NODE, ROOT + shard("a", 2) + shard("b", 2))
    assert pods(p) == {f"{g}-{i}": ("Bound", "n1", f"Successfully assigned default/{g}-{i} to n1")
                       for g in ("a", "b") for i in range(2)}
    assert {name: c[:2] for name, c in conditions(p).items()} == {"a": ("True", "Scheduled"),
                                                                  "b": ("True", "Scheduled")}


def test_child_short_of_its_min_count_fails_before_any_member_is_tried(tmp_path):
    p = plan(tmp_path, NODE, ROOT + shard("a", 2) + shard("b", 1))
    assert pods(p)["b-0"] == ("Pending", None, SHORT.format(n=1))
    # a keeps the True condition it was given (updatePodGroupCondition does not lower it); b's message would carry
    # upstream's ", pod group preemption: ..." too, which wasplan does not model for trees (preemption/driver.py)
    assert {name: c[:2] for name, c in conditions(p).items()} == {"a": ("True", "Scheduled"),
                                                                  "b": ("False", "Unschedulable")}
    assert conditions(p)["b"][2].startswith(SHORT.format(n=1))


def test_short_child_with_a_topology_key_fails_in_every_placement(tmp_path):
    p = plan(tmp_path, RACKS, ROOT + shard("a", 2) + shard("b", 1, racked=True))
    assert pods(p)["b-0"] == ("Pending", None, SHORT.format(n=2))
    assert [pods(p)[f"a-{i}"][0] for i in range(2)] == ["Bound", "Bound"]


def running(name: str) -> str:
    """The child `name` with its two pods already running on n1 (part of the cluster snapshot)."""
    return shard(name, 2).replace("spec:\n  schedulingGroup", "spec:\n  nodeName: n1\n  schedulingGroup")


def test_sibling_running_before_the_plan_gets_the_failed_cycle_s_condition(tmp_path):
    # a's pods ran before the plan, so a has no condition; the tree's cycle places nothing new and fails,
    # and upstream hands the root's status to a as well (completeCompositePodGroupAlgorithmResultMap)
    p = plan(tmp_path, NODE + "---\n" + ROOT + running("a"), shard("b", 1))
    assert pods(p)["b-0"] == ("Pending", None, SHORT.format(n=1))
    assert conditions(p)["a"] == ("False", "Unschedulable", "pod group is unschedulable")
    assert str({g.name: g for g in p.pod_groups}["a"].status) == "Unschedulable"


def test_sibling_running_before_the_plan_gets_the_scheduled_cycle_s_condition(tmp_path):
    p = plan(tmp_path, NODE + "---\n" + ROOT + running("a"), shard("b", 2))
    assert [pods(p)[f"b-{i}"][:2] for i in range(2)] == [("Bound", "n1"), ("Bound", "n1")]
    assert conditions(p) == {"a": ("True", "Scheduled", ""), "b": ("True", "Scheduled", "")}
