"""Two 1.37 differences the oracle showed (issue 30 point 5):

- a PodGroup whose pods carry a priority other than the group's fails upstream's validatePodGroup: v1.37.2
  schedule_one_podgroup.go handlePodGroupFailureBeforeScheduling writes `PodGroupInitiallyScheduled` False with
  reason `SchedulerError` and the error as message (updatePodGroupConditionWithError); 1.36 has no such check;
- a topology spread constraint with `labelSelector: {}` counts no running pod (countPodsMatchSelector returns 0
  for an Empty() selector in v1.36.3 and v1.37.2; 1.38 counts them, #141340), while the incoming pod still
  matches itself: a node that holds a pod of the namespace is not skewed (oracle 1.36 binds p on n1)."""

from __future__ import annotations

from drascenes import plan, pods

CLUSTER = """\
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1, zone: a}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2, zone: b}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: old, namespace: default, labels: {app: old}}
spec:
  nodeName: n1
  containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]
"""

MEMBER = """---
apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: default}}
spec:
  schedulingGroup: {{podGroupName: g}}
  containers: [{{name: c, image: x, resources: {{requests: {{cpu: 100m}}}}}}]
"""
GROUP = """\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: g, namespace: default}
spec:
  priorityClassName: high
  schedulingPolicy: {gang: {minCount: 2}}
""" + MEMBER.format(name="m0") + MEMBER.format(name="m1")

PRIORITY_MSG = "all pods in a single pod group should have the same priority as the pod group's priority, got 0 and 1000"

SPREAD = """\
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default, labels: {app: web}}
spec:
  affinity:
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        preference: {matchExpressions: [{key: zone, operator: In, values: [a]}]}
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {}}
  containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]
"""


def test_members_with_another_priority_give_the_group_a_scheduler_error_condition(tmp_path):
    run = plan(tmp_path, CLUSTER, GROUP, "1.37")
    (group,) = run.plan.pod_groups
    assert (group.condition.type, group.condition.status, group.condition.reason, group.message) == (
        "PodGroupInitiallyScheduled", "False", "SchedulerError", PRIORITY_MSG)
    assert pods(run)["m0"] == ("Pending", None, PRIORITY_MSG)


def test_1_38_reports_the_hierarchy_check_as_a_pod_group_error(tmp_path):
    """1.38 validatePodGroupHierarchy (schedule_one_podgroup.go): reason PodGroupError, the pod and the group
    named in the message (checked against the 1.38 oracle)."""
    message = ("all pods in a pod group hierarchy should have the same priority as the root pod group's priority, "
               'got 0 ("m0") and 1000 ("podgroup/default/g")')
    run = plan(tmp_path, CLUSTER, GROUP, "1.38")
    (group,) = run.plan.pod_groups
    assert (group.condition.reason, group.message) == ("PodGroupError", message)
    assert {p[2] for p in pods(run).values() if p[0] == "Pending"} == {message}


def test_an_empty_spread_selector_counts_no_running_pod(tmp_path):
    for version in ("1.36", "1.37"):
        assert pods(plan(tmp_path, CLUSTER, SPREAD, version))["p"][:2] == ("Bound", "n1")


def test_1_38_counts_every_pod_and_keeps_p_off_the_skewed_node(tmp_path):
    """1.38 (podtopologyspread/common.go, #141340): `old` counts in zone a, so n1 would be skewed (1 + 1 - 0)."""
    assert pods(plan(tmp_path, CLUSTER, SPREAD, "1.38"))["p"][:2] == ("Bound", "n2")
