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

import json

import pytest
from typer.testing import CliRunner

from wasplan.cli import plan_cmd  # noqa: F401
from wasplan.cli.app import app

CLUSTER = """\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low}
value: 10
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: mid}
value: 500
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {allocatable: {cpu: "2", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: holder, namespace: default}
spec:
  nodeName: n1
  priorityClassName: high
  containers: [{name: main, image: app:1, ports: [{containerPort: 80, hostPort: 8080}], resources: {requests: {cpu: "1"}}}]
status: {phase: Running, startTime: '2026-01-01T00:00:00Z'}
---
apiVersion: v1
kind: Pod
metadata: {name: low, namespace: default}
spec:
  nodeName: n1
  priorityClassName: low
  containers: [{name: main, image: app:1, resources: {requests: {cpu: "1"}}}]
status: {phase: Running, startTime: '2026-01-01T00:00:00Z'}
"""

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
    (tmp_path / "cluster.yaml").write_text(CLUSTER)
    (tmp_path / "web.yaml").write_text(WEB.replace("PORT", str(port)))
    result = CliRunner().invoke(app, ["plan", str(tmp_path / "web.yaml"), "--cluster", str(tmp_path / "cluster.yaml"),
                                      "--k8s-version", release, "-o", "json"])
    assert result.exit_code == 1, result.output
    return {p["name"]: p for p in json.loads(result.output)["pods"]}


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
