"""A preemptor with host ports: every candidate node gets its dry run, because NodePorts filters before
NodeResourcesFit.

Upstream's SelectVictimsOnNode removes every lower-priority pod from the node and runs the filters; the status
it reports for a node that still fails is the first failing plugin's, in the profile's filter order, where
NodePorts precedes NodeResourcesFit (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
SelectVictimsOnNode, pkg/scheduler/apis/config/v1/default_plugins.go). wasplan settles a node short of
resources even with those pods gone by a vector test and reported NodeResourcesFit's reason; for a preemptor
whose host port a pod of higher priority holds there, upstream reports the port. Checked against the 1.36
oracle: `node(s) didn't have free ports for the requested pod ports` after `preemption:`, where wasplan said
`Insufficient cpu`.
"""

import pytest

from scaffold import node, plan_json, pod, priority_classes, stream

CLUSTER = stream(priority_classes(low=10, mid=500, high=1000), node("n1", "2"), """\
apiVersion: v1
kind: Pod
metadata: {name: holder, namespace: default}
spec:
  nodeName: n1
  priorityClassName: high
  containers: [{name: main, image: app:1, ports: [{containerPort: 80, hostPort: 8080}], resources: {requests: {cpu: "1"}}}]
status: {phase: Running, startTime: '2026-01-01T00:00:00Z'}
""", pod("low", "1", node="n1", priority="low", started="2026-01-01T00:00:00Z"))

# needs n1's 2 cpu (evicting low frees only 1) and holder's port 8080 (holder outranks it)
WEB = """\
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec:
  priorityClassName: mid
  containers: [{name: main, image: app:1, ports: [{containerPort: 80, hostPort: PORT}], resources: {requests: {cpu: "2"}}}]
"""


def plan(tmp_path, release: str, port: int) -> dict:
    doc = plan_json(tmp_path, CLUSTER, WEB.replace("PORT", str(port)), "--k8s-version", release, code=1)
    return {p["name"]: p for p in doc["pods"]}


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_a_node_short_of_resources_reports_the_port_its_dry_run_fails_on_first(tmp_path, release):
    web = plan(tmp_path, release, 8080)["web"]
    assert (web["status"], web["reason"]) == ("Pending", "Unschedulable")
    ports = "1 node(s) didn't have free ports for the requested pod ports."
    assert web["message"].startswith(f"0/1 nodes are available: {ports} ")
    assert web["message"].endswith(f"preemption: 0/1 nodes are available: {ports}")


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_with_its_port_free_the_same_node_reports_the_missing_cpu(tmp_path, release):
    web = plan(tmp_path, release, 9090)["web"]
    assert web["message"].endswith("preemption: 0/1 nodes are available: 1 Insufficient cpu.")
