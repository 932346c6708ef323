"""Preemption judges a preemptor's topology spread with pods counted on every node, as upstream does: its
SelectVictimsOnNode runs the filters with the cycle's PreFilter state, which counts matching pods across the
whole snapshot (pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go SelectVictimsOnNode,
podtopologyspread/filtering.go). Removing a pod that is not counted cannot mend a skew towards another zone, so
upstream preempts nobody there.

Minimised from a case the differential tests against upstream found (tests/oracle): wasplan counted only the
node under consideration and evicted a pod for nothing.
"""

from scaffold import node, plan_json, pod, priority_classes, stream

CLUSTER = stream(priority_classes(mid=100), node("a", "4", zone="z0"), """\
apiVersion: v1
kind: Node
metadata: {name: b, labels: {kubernetes.io/hostname: b, topology.kubernetes.io/zone: z1}}
spec:
  taints: [{key: dedicated, value: infra, effect: NoSchedule}]
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
""", pod("web-running", "1", node="a", priority="mid", app="web"), pod("batch", "3", node="a", app="batch"))

PREEMPTOR = """\
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, labels: {app: web}}
spec:
  priorityClassName: mid
  containers: [{name: main, image: app:1, resources: {requests: {cpu: "1"}}}]
  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: DoNotSchedule
    labelSelector: {matchLabels: {app: web}}
"""


def plan(tmp_path, preemptor: str) -> dict:
    return plan_json(tmp_path, CLUSTER, preemptor, code=1)


def test_no_victim_when_the_spread_skew_points_at_another_zone(tmp_path):
    doc = plan(tmp_path, PREEMPTOR)
    pods = {p["name"]: p for p in doc["pods"]}
    assert doc["preemptions"] == []
    assert pods["batch"]["status"] == "AlreadyBound"
    # zone z1 (node b, tainted but counted: nodeTaintsPolicy Ignore) holds no web pod, so z0 may hold one at most
    message = pods["web"]["message"]
    assert message.startswith("0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint(s).")
    assert message.endswith("preemption: 0/2 nodes are available: 1 Preemption is not helpful for scheduling, "
                            "1 node(s) didn't match pod topology spread constraints.")
