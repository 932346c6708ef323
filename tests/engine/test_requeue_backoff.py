"""A pod an event moves back waits in the backoffQ behind the pods never tried, and a preemptor waiting there with it
goes first by priority: the victim's deletion lets `spreader` fit on n2 for a moment, but `preemptor` (nominated on
n1, same labels) binds first and the zone is full again.

Upstream (pkg/scheduler/backend/queue, v1.36.5 and v1.37.2): movePodsToActiveOrBackoffQueue sends a pod whose
backoff (1 s, doubling per failure) has not elapsed to the backoffQ, isPodBackingoff; the backoffQ is popped
only when activeQ is empty (SchedulerPopFromBackoffQ) and orders pods of one backoff window as activeQ does,
priority first (backoff_queue.go lessBackoffCompletedWithPriority). The oracle plans these files alike (seed 23,
1.36 sequential, of tests/oracle/gen, minimised to this). wasplan used to put the moved pod straight in activeQ,
so `spreader` took n2 before the preemptor's retry.
"""

from __future__ import annotations

import pytest

from scaffold import node, plan_json, priority_classes, stream

CLUSTER = stream(priority_classes(high=1000), node("n1", "4", zone="z0", capacity=True),
                 node("n2", "4", zone="z0", capacity=True), """\
apiVersion: v1
kind: Node
metadata: {name: n3, labels: {kubernetes.io/hostname: n3, topology.kubernetes.io/zone: z1}}
spec:
  taints: [{key: dedicated, value: gpu, effect: NoSchedule}]
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}, capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: victim, namespace: default, labels: {app: web}}
spec:
  nodeName: n1
  containers: [{name: c, image: app:1, resources: {requests: {cpu: "4"}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: neighbour, namespace: default, labels: {app: web}}
spec:
  nodeName: n2
  priorityClassName: high
  priority: 1000
  containers: [{name: c, image: app:1, resources: {requests: {cpu: "1"}}}]
""")

MANIFESTS = """\
# spread: at most 2 more app=web pods in a zone than in the emptiest; z1 (tainted n3) counts, as
# nodeTaintsPolicy is Ignore, and holds none
apiVersion: v1
kind: Pod
metadata: {name: spreader, namespace: default, labels: {app: web}}
spec:
  containers: [{name: c, image: app:1, resources: {requests: {cpu: "1"}}}]
  topologySpreadConstraints:
  - {maxSkew: 2, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule,
     labelSelector: {matchLabels: {app: web}}, nodeTaintsPolicy: Ignore}
---
apiVersion: v1
kind: Pod
metadata: {name: preemptor, namespace: default, labels: {app: web}}
spec:
  priorityClassName: high
  containers: [{name: c, image: app:1, resources: {requests: {cpu: "4"}}}]
"""

DRA_POST_FILTER = {"1.36": "no new claims to deallocate, ", "1.37": ""}


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_a_moved_pod_waits_behind_a_higher_priority_preemptor(tmp_path, release):
    plan = plan_json(tmp_path, CLUSTER, MANIFESTS, "--k8s-version", release, "--arrival", "sequential", code=1)
    assert [(p["name"], p["status"], p["node"]) for p in plan["pods"]] == [
        ("neighbour", "AlreadyBound", "n2"), ("preemptor", "Bound", "n1"), ("spreader", "Pending", None),
        ("victim", "Preempted", "n1")]
    spreader = next(p for p in plan["pods"] if p["name"] == "spreader")
    assert spreader["message"] == (
        "0/3 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match pod topology spread constraints, "
        "1 node(s) had untolerated taint(s). " + DRA_POST_FILTER[release] + "preemption: 0/3 nodes are available: "
        "1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.")
    assert [(p["preemptor"]["name"], [v["name"] for v in p["victims"]]) for p in plan["preemptions"]] == [
        ("preemptor", ["victim"])]
