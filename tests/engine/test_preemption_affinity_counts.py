"""Preemption judges a preemptor's inter-pod (anti-)affinity with pods counted on every node, as upstream does:
SelectVictimsOnNode runs the Filter plugins on the candidate node with the cycle's PreFilter state, whose
InterPodAffinity counts were taken over the whole snapshot, victims removed
(pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go SelectVictimsOnNode,
pkg/scheduler/framework/plugins/interpodaffinity/filtering.go PreFilter and satisfyPodAffinity).

Minimised from generated cases the differential tests against upstream found (tests/oracle, seeds 23 and 46 on
1.36): wasplan's dry run counted only the candidate node's pods, so the pod the preemptor is affine to, on
another node of the zone, went missing and the node was refused with "didn't match pod affinity rules".
"""

from scaffold import node, plan_json, pod, priority_classes, stream

# a: unschedulable, holds the cache pod; b: same zone, full with a priority-0 batch pod
CLUSTER = stream(priority_classes(mid=100), """\
apiVersion: v1
kind: Node
metadata: {name: a, labels: {kubernetes.io/hostname: a, topology.kubernetes.io/zone: z0}}
spec: {unschedulable: true}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
""", node("b", "2", zone="z0"), pod("cache", "1", node="a", app="cache"), pod("batch", "2", node="b", app="batch"))

PREEMPTOR = """\
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, labels: {app: web}}
spec:
  priorityClassName: mid
  containers: [{name: main, image: app:1, resources: {requests: {cpu: "1"}}}]
  affinity:
    KIND:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: cache}}
        topologyKey: topology.kubernetes.io/zone
"""


def plan(tmp_path, kind: str) -> tuple[dict, int]:
    doc = plan_json(tmp_path, CLUSTER, PREEMPTOR.replace("KIND", kind), "--k8s-version", "1.36", code=None)
    return {p["name"]: p for p in doc["pods"]}, doc["preemptions"]


def test_affinity_to_a_pod_on_another_node_of_the_zone_lets_the_preemptor_evict(tmp_path):
    pods, preemptions = plan(tmp_path, "podAffinity")
    assert [(p["preemptor"]["name"], [(v["name"], v["node"]) for v in p["victims"]]) for p in preemptions] == [
        ("web", [("batch", "b")])]
    assert (pods["web"]["status"], pods["web"]["node"]) == ("Bound", "b")
    assert pods["batch"]["status"] == "Preempted"
    assert pods["cache"]["status"] == "AlreadyBound"


def test_anti_affinity_to_a_pod_on_another_node_of_the_zone_still_refuses(tmp_path):
    pods, preemptions = plan(tmp_path, "podAntiAffinity")
    assert preemptions == []
    assert pods["batch"]["status"] == "AlreadyBound"
    assert pods["web"]["status"] == "Pending"
    assert pods["web"]["message"] == (
        "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable. no new claims to deallocate, "
        "preemption: 0/2 nodes are available: 1 Preemption is not helpful for scheduling, "
        "1 node(s) didn't match pod anti-affinity rules.")
