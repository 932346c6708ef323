"""A pod that preempted waits, nominated, while the pods queued behind it are scheduled, as upstream does.

Upstream requeues the preemptor into the backoffQ (its victims' deletion is an event of its own cycle, its 1 s
backoff has not run out), which is popped only when activeQ is empty (pkg/scheduler/backend/queue/
scheduling_queue.go AddUnschedulableIfNotPresent, active_queue.go pop). Meanwhile every other pod's Filter counts
it on its nominated node when that pod's priority is not above its own (pkg/scheduler/framework/runtime/
framework.go RunFilterPluginsWithNominatedPods), and Score does not count it. Then the preemptor's retry takes
its nominated node.

Seen in the differential tests against upstream (generated seeds 3 and 51, 1.37): wasplan retried the
preemptor at once and bound it, so a pod of the same priority queued after it was scored with the preemptor on
the node and went elsewhere. The expected plans were checked against the oracle (1.36 and 1.37).
"""

import pytest

from scaffold import LOW_MID_HIGH, node, plan_json, pod, stream

CLUSTER = stream(LOW_MID_HIGH, node("n1", "4"), node("n2", "2"),
                 pod("old", "4", node="n1", priority="low", memory="1Gi", started="2026-01-01T00:00:00Z"))

# urgent fits only on n1, once old is gone; peer has urgent's priority, lesser a lower one.
MANIFESTS = stream(pod("urgent", "3", priority="high", memory="1Gi"), pod("peer", "1", priority="high", memory="1Gi"),
                   pod("lesser", "2", priority="mid", memory="1Gi"))


def plan(tmp_path, release: str, arrival: str, cluster: str = CLUSTER, manifests: str = MANIFESTS, code: int = 0) -> dict:
    return plan_json(tmp_path, cluster, manifests, "--k8s-version", release, "--arrival", arrival, code=code)


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_pods_queued_behind_a_preemptor_are_scored_without_it_and_filtered_with_it(tmp_path, release):
    doc = plan(tmp_path, release, "batch")
    pods = {p["name"]: (p["status"], p["node"], p["nominatedNode"]) for p in doc["pods"]}
    assert pods == {
        "old": ("Preempted", "n1", None),
        # urgent's retry comes last and takes its nominated node by the fast path
        "urgent": ("Bound", "n1", "n1"),
        # scored without urgent: n1 is the emptier node; filtered with it: 1 cpu of n1 is left, enough
        "peer": ("Bound", "n1", None),
        # filtered with urgent (priority 1000 >= 100) on n1: 4 - 3 - 1 leaves no room for 2 cpu there
        "lesser": ("Bound", "n2", None),
    }
    (preemption,) = doc["preemptions"]
    assert preemption["preemptor"]["name"] == "urgent"
    assert [v["name"] for v in preemption["victims"]] == ["old"]


# two equal preemptors; first evicts low-1 (low-1b is reprieved) and is nominated to n1, which n1 then holds for
# second: its dry run counts first there (upstream's SelectVictimsOnNode filters with nominated pods), so
# evicting low-1b would not make room on n1, and second evicts mid-2 on n2 rather than take first's room
TWO_NODES = CLUSTER.split("---\napiVersion: v1\nkind: Node")[0] + """\
---
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {allocatable: {cpu: "3", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2}}
status: {allocatable: {cpu: "3", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: low-1, namespace: default}
spec:
  nodeName: n1
  priorityClassName: low
  containers: [{name: main, image: app:1, resources: {requests: {cpu: "2"}}}]
status: {phase: Running, startTime: '2026-01-01T00:00:00Z'}
---
apiVersion: v1
kind: Pod
metadata: {name: low-1b, namespace: default}
spec:
  nodeName: n1
  priorityClassName: low
  containers: [{name: main, image: app:1, resources: {requests: {cpu: "1"}}}]
status: {phase: Running, startTime: '2026-01-01T00:00:00Z'}
---
apiVersion: v1
kind: Pod
metadata: {name: mid-2, namespace: default}
spec:
  nodeName: n2
  priorityClassName: mid
  containers: [{name: main, image: app:1, resources: {requests: {cpu: "3"}}}]
status: {phase: Running, startTime: '2026-01-01T00:00:00Z'}
"""

TWO_PREEMPTORS = stream(pod("first", "2", priority="high"), pod("second", "3", priority="high"))


def test_a_preemptors_dry_run_counts_the_pods_nominated_before_it(tmp_path):
    doc = plan(tmp_path, "1.37", "batch", TWO_NODES, TWO_PREEMPTORS)  # sequential: first binds before second exists
    pods = {p["name"]: (p["status"], p["node"]) for p in doc["pods"]}
    assert pods == {"low-1": ("Preempted", "n1"), "low-1b": ("AlreadyBound", "n1"), "mid-2": ("Preempted", "n2"),
                    "first": ("Bound", "n1"), "second": ("Bound", "n2")}
    assert [(p["preemptor"]["name"], [v["name"] for v in p["victims"]]) for p in doc["preemptions"]] == [
        ("first", ["low-1"]), ("second", ["mid-2"])]


# A term that selects no pod: it changes no verdict, but a nominated pod carrying it takes the general paths (one
# filter pass per node holding it; the preemptor's dry run places it on its node) instead of the vector ones
# (a pod judged by resources alone counts it by its requests). Both must reach the same plan.
NO_OP_TERM = """\
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {labelSelector: {matchLabels: {app: nothing}}, topologyKey: kubernetes.io/hostname}
"""


def with_term(manifests: str, name: str) -> str:
    head = f"metadata: {{name: {name}, namespace: default}}\nspec:\n"
    assert head in manifests
    return manifests.replace(head, head + NO_OP_TERM)


@pytest.mark.parametrize("term", [False, True], ids=["requests-only", "with-terms"])
def test_nominated_pods_counted_by_their_requests_or_placed_give_one_plan(tmp_path, term):
    doc = plan(tmp_path, "1.37", "batch", TWO_NODES, with_term(TWO_PREEMPTORS, "first") if term else TWO_PREEMPTORS)
    assert [(p["preemptor"]["name"], [v["name"] for v in p["victims"]]) for p in doc["preemptions"]] == [
        ("first", ["low-1"]), ("second", ["mid-2"])]
    pods = {p["name"]: (p["status"], p["node"], p["nominatedNode"]) for p in doc["pods"]}
    assert pods["first"] == ("Bound", "n1", "n1") and pods["second"] == ("Bound", "n2", "n2")


# n1 is held for urgent (3 of its 4 cpu) once it has preempted; waiter (same priority, 2 cpu) is queued behind it,
# so its Filter counts urgent there and finds no room (without urgent, n1's 4 free cpu would take it); nothing
# below its priority is left to evict. urgent's binding does not retry a pod only short of resources, so the
# message is the one of that attempt
ONE_NODE = CLUSTER.replace("""---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2}}
status: {allocatable: {cpu: "2", memory: 8Gi, pods: "110"}}
""", "")
HELD = MANIFESTS.split("---\n")[0] + """---
apiVersion: v1
kind: Pod
metadata: {name: waiter, namespace: default}
spec:
  priorityClassName: high
  containers: [{name: main, image: app:1, resources: {requests: {cpu: "2", memory: 1Gi}}}]
"""


@pytest.mark.parametrize("term", [False, True], ids=["requests-only", "with-terms"])
def test_a_node_held_by_a_nominated_pod_reports_the_reasons_counted_with_it(tmp_path, term):
    doc = plan(tmp_path, "1.37", "batch", ONE_NODE, with_term(HELD, "urgent") if term else HELD, code=1)
    pods = {p["name"]: p for p in doc["pods"]}
    assert (pods["urgent"]["status"], pods["urgent"]["node"]) == ("Bound", "n1")
    assert (pods["waiter"]["status"], pods["waiter"]["reason"]) == ("Pending", "Unschedulable")
    assert pods["waiter"]["message"] == ("0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are "
                                         "available: 1 No preemption victims found for incoming pod.")
