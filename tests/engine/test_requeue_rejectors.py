"""A pod whose last attempt only NodeResourcesFit rejected is not retried when another pod binds, even if that pod
would satisfy its pod affinity: upstream consults the queueing hints of the attempt's rejector plugins alone
(Diagnosis.UnschedulablePlugins, pkg/scheduler/schedule_one.go; backend/queue/scheduling_queue.go
isPodWorthRequeuing), and NodeResourcesFit's hint ignores a pod being added. Its preemption's verdicts (here the
pod affinity that fails on every node once the victims are gone) name no rejector.

Minimised from a generated case the differential tests against upstream found (tests/oracle, seed 59 on 1.36,
sequential arrival): wasplan retried the pod when web-near bound, and its preemption then evicted filler.
"""

import pytest

from scaffold import node, plan_json, pod, priority_classes, stream

# every node short of cpu for needy; only zone z1 (b) holds a web pod until web-near binds on c (zone z0)
CLUSTER = stream(priority_classes(mid=100), node("a", "2", zone="z0", capacity=True),
                 node("b", "2", zone="z1", capacity=True), node("c", "2", zone="z0", capacity=True),
                 pod("filler", "2", node="a", app="batch", started="2026-01-01T00:00:00Z"),
                 pod("web-far", "1", node="b", app="web", started="2026-01-01T00:00:00Z"),
                 pod("filler2", "1500m", node="c", app="batch", started="2026-01-01T00:00:00Z"))

# needy first: rejected by NodeResourcesFit alone; web-near then binds on c
PODS = """\
apiVersion: v1
kind: Pod
metadata: {name: needy, namespace: default, labels: {app: api}}
spec:
  priorityClassName: mid
  containers: [{name: main, image: app:1, resources: {requests: {cpu: 1500m}}}]
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: web}}
        topologyKey: topology.kubernetes.io/zone
---
apiVersion: v1
kind: Pod
metadata: {name: web-near, namespace: default, labels: {app: web}}
spec:
  nodeSelector: {kubernetes.io/hostname: c}
  containers: [{name: main, image: app:1, resources: {requests: {cpu: 500m}}}]
"""


@pytest.mark.parametrize("arrival", ["sequential", "batch"])
def test_a_bound_pod_does_not_requeue_a_pod_only_resources_rejected(tmp_path, arrival):
    doc = plan_json(tmp_path, CLUSTER, PODS, "--k8s-version", "1.36", "--arrival", arrival, code=None)
    pods = {p["name"]: p for p in doc["pods"]}
    assert doc["preemptions"] == []
    assert (pods["web-near"]["status"], pods["web-near"]["node"]) == ("Bound", "c")
    assert pods["filler"]["status"] == "AlreadyBound"
    assert pods["needy"]["status"] == "Pending"
    assert pods["needy"]["message"] == (
        "0/3 nodes are available: 3 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are "
        "available: 3 node(s) didn't match pod affinity rules.")
