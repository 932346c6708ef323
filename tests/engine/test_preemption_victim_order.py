"""Which of equal-priority victims without a start time a 1.36 preemption reprieves first.

SelectVictimsOnNode sorts the node's lower-priority pods, in NodeInfo order, with sort.Slice and
MoreImportantPod (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go, pkg/scheduler/util/
utils.go). GetPodStartTime reads "now" for a pod without status.startTime, the first argument first, so the
comparison says the first of two such pods is the more important; Go sorts a short slice by insertion, so those
pods end in reverse NodeInfo order and the pod bound last is reprieved first. v1.37.2 fixes each victim's
earliest start when it builds the victim (framework/preemption/types.go), so there the pod bound first is.

Minimised from a generated case the differential tests against upstream found (tests/oracle, seed 59 on 1.36,
sequential arrival): wasplan reprieved in creation order in both releases.
"""

import pytest

from scaffold import node, plan_json, pod, priority_classes, stream

CLUSTER = stream(priority_classes(mid=100), node("n1", "4"))

# big and small bind first (priority 0, no start time); urgent needs 2 cpu of the 1.9 left: one must go, and
# whichever is reprieved first stays (2 + 2 and 0.1 + 2 both fit, 2 + 0.1 + 2 does not)
PODS = stream(pod("big", "2"), pod("small", "100m"), pod("urgent", "2", priority="mid"))


@pytest.mark.parametrize(("release", "victim", "kept"), [("1.36", "big", "small"), ("1.37", "small", "big")])
def test_the_victim_among_pods_without_a_start_time(tmp_path, release, victim, kept):
    doc = plan_json(tmp_path, CLUSTER, PODS, "--k8s-version", release, "--arrival", "sequential", code=None)
    pods = {p["name"]: (p["status"], p["node"]) for p in doc["pods"]}
    assert [(p["preemptor"]["name"], [v["name"] for v in p["victims"]]) for p in doc["preemptions"]] == [
        ("urgent", [victim])]
    assert pods == {victim: ("Preempted", "n1"), kept: ("Bound", "n1"), "urgent": ("Bound", "n1")}
