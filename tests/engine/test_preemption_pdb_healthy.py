"""A PodDisruptionBudget's allowance counts the pods running in the input, not the pods the plan binds.

The disruption controller counts only Ready pods as healthy (pkg/controller/disruption/disruption.go
countHealthyPods) and DefaultPreemption reads its status (pkg/scheduler/framework/preemption/preemption.go
filterPodsWithPDBViolation); a pod the scheduler just bound is not Ready. So with minAvailable 2 and two web
pods running, evicting either breaks the budget, although a third web pod was bound earlier in the plan.
Victims that break a budget are reprieved first (SelectVictimsOnNode), so web-a stays and cache goes.

Seen in the differential tests against upstream (generated seed 51, 1.37): wasplan counted the web pod it had
bound, found one disruption allowed, and evicted web-a. The expected plan was checked against the oracle.
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
value: 100
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {allocatable: {cpu: "3", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2}}
status: {allocatable: {cpu: "1", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: batch, namespace: default}
spec:
  nodeName: n1
  priorityClassName: low
  containers: [{name: main, image: app:1, resources: {requests: {cpu: 1500m}}}]
status: {phase: Running, startTime: '2026-01-01T01:00:00Z'}
---
apiVersion: v1
kind: Pod
metadata: {name: cache, namespace: default}
spec:
  nodeName: n1
  priorityClassName: mid
  containers: [{name: main, image: app:1, resources: {requests: {cpu: "1"}}}]
status: {phase: Running, startTime: '2026-01-01T01:10:00Z'}
---
apiVersion: v1
kind: Pod
metadata: {name: web-a, namespace: default, labels: {app: web}}
spec:
  nodeName: n1
  priorityClassName: mid
  containers: [{name: main, image: app:1, resources: {requests: {cpu: 500m}}}]
status: {phase: Running, startTime: '2026-01-01T01:20:00Z'}
---
apiVersion: v1
kind: Pod
metadata: {name: web-b, namespace: default, labels: {app: web}}
spec:
  nodeName: n2
  priorityClassName: mid
  containers: [{name: main, image: app:1, resources: {requests: {cpu: 250m}}}]
status: {phase: Running, startTime: '2026-01-01T01:20:00Z'}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: default}
spec:
  selector: {matchLabels: {app: web}}
  minAvailable: 2
"""

# web-c is bound by the plan (to n2, the only node with room); then urgent needs 2 cpu of n1
MANIFESTS = """\
apiVersion: v1
kind: Pod
metadata: {name: web-c, namespace: default, labels: {app: web}}
spec:
  priorityClassName: high
  containers: [{name: main, image: app:1, resources: {requests: {cpu: 500m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: urgent, namespace: default}
spec:
  priorityClassName: high
  containers: [{name: main, image: app:1, resources: {requests: {cpu: "2"}}}]
"""


@pytest.mark.parametrize("arrival", ["sequential", "batch"])
def test_a_pod_bound_by_the_plan_does_not_raise_the_budget(tmp_path, arrival):
    (tmp_path / "cluster.yaml").write_text(CLUSTER)
    (tmp_path / "pods.yaml").write_text(MANIFESTS)
    result = CliRunner().invoke(app, ["plan", str(tmp_path / "pods.yaml"), "--cluster", str(tmp_path / "cluster.yaml"),
                                      "--arrival", arrival, "-o", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    pods = {p["name"]: (p["status"], p["node"]) for p in doc["pods"]}
    assert pods["web-c"] == ("Bound", "n2")
    assert pods["urgent"] == ("Bound", "n1")
    (preemption,) = doc["preemptions"]
    assert sorted(v["name"] for v in preemption["victims"]) == ["batch", "cache"]
    assert pods["web-a"] == ("AlreadyBound", "n1")
