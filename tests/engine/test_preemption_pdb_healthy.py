"""A PodDisruptionBudget's allowance counts the pods running in the input, not the pods the plan binds.

The disruption controller counts only Ready pods as healthy (pkg/controller/disruption/disruption.go
countHealthyPods) and DefaultPreemption reads its status (pkg/scheduler/framework/preemption/preemption.go
filterPodsWithPDBViolation); a pod the scheduler just bound is not Ready. So with minAvailable 2 and two web
pods running, evicting either breaks the budget, although a third web pod was bound earlier in the plan.
Victims that break a budget are reprieved first (SelectVictimsOnNode), so web-a stays and cache goes.

Seen in the differential tests against upstream (generated seed 51, 1.37): wasplan counted the web pod it had
bound, found one disruption allowed, and evicted web-a. The expected plan was checked against the oracle.
"""

import pytest

from scaffold import LOW_MID_HIGH, node, plan_json, pod, stream

CLUSTER = stream(LOW_MID_HIGH, node("n1", "3"), node("n2", "1"),
                 pod("batch", "1500m", node="n1", priority="low", started="2026-01-01T01:00:00Z"),
                 pod("cache", "1", node="n1", priority="mid", started="2026-01-01T01:10:00Z"),
                 pod("web-a", "500m", node="n1", priority="mid", app="web", started="2026-01-01T01:20:00Z"),
                 pod("web-b", "250m", node="n2", priority="mid", app="web", started="2026-01-01T01:20:00Z"), """\
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: default}
spec:
  selector: {matchLabels: {app: web}}
  minAvailable: 2
""")

# web-c is bound by the plan (to n2, the only node with room); then urgent needs 2 cpu of n1
MANIFESTS = stream(pod("web-c", "500m", priority="high", app="web"), pod("urgent", "2", priority="high"))


@pytest.mark.parametrize("arrival", ["sequential", "batch"])
def test_a_pod_bound_by_the_plan_does_not_raise_the_budget(tmp_path, arrival):
    doc = plan_json(tmp_path, CLUSTER, MANIFESTS, "--arrival", arrival)
    pods = {p["name"]: (p["status"], p["node"]) for p in doc["pods"]}
    assert pods["web-c"] == ("Bound", "n2")
    assert pods["urgent"] == ("Bound", "n1")
    (preemption,) = doc["preemptions"]
    assert sorted(v["name"] for v in preemption["victims"]) == ["batch", "cache"]
    assert pods["web-a"] == ("AlreadyBound", "n1")
