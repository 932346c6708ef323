"""Preemption reads a victim's start time from `status.startTime`, as upstream does
(pkg/scheduler/util/utils.go GetPodStartTime, used by pkg/scheduler/framework/preemption/preemption.go to break a
tie between candidate nodes and by the victim order): the node whose highest-priority victim started latest is
chosen. The creation time plays no part; a pod without a start time counts as started last.

Seen while writing the differential tests against upstream (tests/oracle): wasplan used creationTimestamp.
"""

from scaffold import node, plan_json, pod, priority_classes, stream

CLUSTER = stream(priority_classes(high=1000), node("n0", "2", "4Gi"), node("n1", "2", "4Gi"))


def victim(name: str, node: str, created: str, started: str | None) -> str:
    status = f"\nstatus: {{phase: Running, startTime: '{started}'}}" if started else ""
    return f"""---
apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: default, creationTimestamp: '{created}'}}
spec:
  nodeName: {node}
  containers: [{{name: main, image: app:1, resources: {{requests: {{cpu: "2"}}}}}}]{status}
"""


PREEMPTOR = pod("urgent", "2", priority="high")


def preempted(tmp_path, victims: str) -> tuple[str, str]:
    doc = plan_json(tmp_path, CLUSTER + victims, PREEMPTOR)
    (preemption,) = doc["preemptions"]
    (gone,) = preemption["victims"]
    return gone["name"], gone["node"]


def test_the_victim_that_started_last_goes_although_it_was_created_first(tmp_path):
    victims = (victim("early-created", "n0", "2026-01-01T00:00:00Z", "2026-01-01T05:00:00Z")
               + victim("late-created", "n1", "2026-01-01T03:00:00Z", "2026-01-01T04:00:00Z"))
    assert preempted(tmp_path, victims) == ("early-created", "n0")


def test_a_pod_without_a_start_time_counts_as_started_last(tmp_path):
    victims = (victim("started", "n0", "2026-01-01T03:00:00Z", "2026-01-01T04:00:00Z")
               + victim("not-started", "n1", "2026-01-01T00:00:00Z", None))
    assert preempted(tmp_path, victims) == ("not-started", "n1")
