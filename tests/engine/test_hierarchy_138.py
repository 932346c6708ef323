"""1.38's runtime hierarchy checks across a CompositePodGroup tree (validatePodGroupHierarchy,
pkg/scheduler/schedule_one_podgroup.go of v1.38.0-beta.0; engine/cycle/hierarchy.py).

Each case is a real tree (a Workload, a gang CompositePodGroup `top` with minGroupCount 2, two gang PodGroups
`a` and `b`, one pod each, on two 4-CPU nodes) with one thing wrong, planned as the pods arrive together. The
expected messages, reasons and statuses are what the 1.38 oracle printed for the same files
(`oracle plan --k8s-version 1.38 --arrival batch`): every queued pod Pending with reason SchedulerError and the
check's message, every PodGroup of the tree PodGroupError, every CompositePodGroup CompositePodGroupError
(handlePodGroupFailureBeforeScheduling, updatePodGroupConditionWithError), whatever group the check named.
"""

from __future__ import annotations

import pytest

from drascenes import plan

CLUSTER = "".join(f"""---
apiVersion: v1
kind: Node
metadata: {{name: {n}, labels: {{kubernetes.io/hostname: {n}}}}}
status: {{allocatable: {{cpu: "4", memory: 8Gi, pods: "110"}}}}
""" for n in ("n1", "n2"))

CLASSES = """---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: zero-never}
value: 0
preemptionPolicy: Never
"""


def _workload(name: str = "w") -> str:
    return f"""---
apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata: {{name: {name}, namespace: default}}
spec:
  compositePodGroupTemplates:
  - name: top
    schedulingPolicy: {{gang: {{minGroupCount: 2}}}}
    podGroupTemplates:
    - name: leaf
      schedulingPolicy: {{gang: {{minCount: 1}}}}
"""


def _composite(name: str, parent: str | None = None, extra: str = "", policy: str = "gang: {minGroupCount: 2}") -> str:
    up = f"\n  parentCompositePodGroupName: {parent}" if parent else ""
    return f"""---
apiVersion: scheduling.k8s.io/v1beta1
kind: CompositePodGroup
metadata: {{name: {name}, namespace: default}}
spec:
  workloadRef: {{workloadName: w, templateName: top}}{up}
  schedulingPolicy: {{{policy}}}{extra}
"""


def _group(name: str, parent: str, extra: str = "", policy: str = "gang: {minCount: 1}", workload: str = "w") -> str:
    return f"""---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: {name}, namespace: default}}
spec:
  workloadRef: {{workloadName: {workload}, templateName: leaf}}
  parentCompositePodGroupName: {parent}
  schedulingPolicy: {{{policy}}}{extra}
"""


def _pod(name: str, group: str, extra: str = "") -> str:
    return f"""---
apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: default}}
spec:
  schedulingGroup: {{podGroupName: {group}}}{extra}
  containers: [{{name: c, image: x, resources: {{requests: {{cpu: "1"}}}}}}]
"""


def _pair(b_group: str = "", b_pod: str = "", top: str = "", b_policy: str = "gang: {minCount: 1}",
          a_group: str = "") -> str:
    """The tree top -> (a, b) with one pod each; the arguments add fields to b, its pod, top and a."""
    return (CLASSES + _workload() + _composite("top", extra=top) + _group("a", "top", a_group)
            + _group("b", "top", b_group, b_policy) + _pod("a-0", "a") + _pod("b-0", "b", b_pod))


TOP, A, B = '"compositepodgroup/default/top"', '"podgroup/default/a"', '"podgroup/default/b"'
CASES = {
    "group priority": (
        _pair(b_group="\n  priorityClassName: high", b_pod="\n  priorityClassName: high"),
        "all pod groups in a hierarchy should have the same priority as the root pod group's priority, "
        f"got 1000 ({B}) and 0 ({TOP})"),
    "workload": (
        CLASSES + _workload() + _workload("w2") + _composite("top") + _group("a", "top")
        + _group("b", "top", workload="w2") + _pod("a-0", "a") + _pod("b-0", "b"),
        f'pod group workload does not match root workload, got: "w2" ({B}) and "w" ({TOP})'),
    "gang parent, basic child": (
        _pair(b_policy="basic: {}"), f"gang parent {TOP} cannot have basic child {B}"),
    "all parent, single child": (
        _pair(top="\n  disruptionMode: {all: {}}", a_group="\n  disruptionMode: {all: {}}",
              b_group="\n  disruptionMode: {single: {}}"),
        f"parent {TOP} with All disruption mode cannot have child {B} with Single disruption mode"),
    "group preemption policy": (
        _pair(b_group="\n  priorityClassName: zero-never", b_pod="\n  priorityClassName: zero-never"),
        f"all pod groups in a hierarchy should have the same preemption policy, got Never ({B}) and "
        "PreemptLowerPriority"),
    "pod preemption policy": (
        _pair(b_pod="\n  priorityClassName: zero-never"),
        'all pods in a pod group hierarchy should have the same preemption policy, got Never ("b-0") and '
        "PreemptLowerPriority"),
    "pod priority": (
        _pair(b_pod="\n  priorityClassName: high"),
        "all pods in a pod group hierarchy should have the same priority as the root pod group's priority, "
        f'got 1000 ("b-0") and 0 ({TOP})'),
    "composite priority": (
        CLASSES + _workload() + _composite("top")
        + _composite("mid", "top", "\n  priorityClassName: high", "gang: {minGroupCount: 1}")
        + _group("a", "top") + _group("b", "mid") + _pod("a-0", "a") + _pod("b-0", "b"),
        "all pod groups in a hierarchy should have the same priority as the root pod group's priority, "
        f'got 1000 ("compositepodgroup/default/mid") and 0 ({TOP})'),
    "too deep": (
        CLASSES + _workload() + _composite("top", policy="basic: {}") + _composite("m1", "top", policy="basic: {}")
        + _composite("m2", "m1", policy="basic: {}") + _composite("m3", "m2", policy="basic: {}")
        + _group("a", "m3") + _pod("a-0", "a"),
        'hierarchy depth exceeds maximum allowed depth 4 at "compositepodgroup/default/m3"'),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_failed_hierarchy_check_fails_the_whole_tree_as_1_38_does(tmp_path, case):
    manifests, message = CASES[case]
    out = plan(tmp_path, CLUSTER, manifests, "1.38", arrival="batch").plan.to_dict()
    assert {(p["name"], p["status"], p["reason"], p["message"]) for p in out["pods"]} == {
        (p["name"], "Pending", "SchedulerError", message) for p in out["pods"]}
    assert out["pods"]
    for group in out["podGroups"]:
        assert (group["status"], group["condition"]["reason"], group["message"]) == (
            "Unschedulable", "PodGroupError", message), group["name"]
    for tree in out["compositePodGroups"]:
        assert (tree["status"], tree["condition"], tree["message"]) == (
            "Unschedulable", {"type": "CompositePodGroupInitiallyScheduled", "status": "False",
                              "reason": "CompositePodGroupError"}, message), tree["name"]
        assert [(c["result"], c["message"]) for c in tree["children"]] == [("Failed", message)] * len(tree["children"])


def test_a_sound_tree_is_scheduled(tmp_path):
    out = plan(tmp_path, CLUSTER, _pair(), "1.38", arrival="batch").plan.to_dict()
    assert {p["name"]: p["status"] for p in out["pods"]} == {"a-0": "Bound", "b-0": "Bound"}
    assert out["compositePodGroups"][0]["condition"]["reason"] == "Scheduled"


STANDALONE = CLASSES + """---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: g, namespace: default}
spec:
  priorityClassName: high
  schedulingPolicy: {gang: {minCount: 1}}
""" + _pod("m0", "g")


@pytest.mark.parametrize("version, message", [
    ("1.37", "all pods in a single pod group should have the same priority as the pod group's priority, got 0 and "
             "1000"),
    ("1.38", "all pods in a pod group hierarchy should have the same priority as the root pod group's priority, "
             'got 0 ("m0") and 1000 ("podgroup/default/g")')])
def test_the_pods_of_a_group_failing_its_check_read_scheduler_error(tmp_path, version, message):
    """An error before the cycle is fwk.AsStatus(err) on every queued pod (v1.37.2 and v1.38.0-beta.0
    handlePodGroupFailureBeforeScheduling): the pod's PodScheduled reason is SchedulerError (both oracles)."""
    (pod,) = plan(tmp_path, CLUSTER, STANDALONE, version, arrival="batch").plan.to_dict()["pods"]
    assert (pod["status"], pod["reason"], pod["message"]) == ("Pending", "SchedulerError", message)
