"""Preemption's dry run on a node counts the nominated pods of that node only: a topology spread constraint there
does not count a pod nominated on another node of the zone.

Upstream (pkg/scheduler/framework/preemption/preemption.go and plugins/defaultpreemption SelectVictimsOnNode ->
RunFilterPluginsWithNominatedPods, framework/runtime addGENominatedPods; v1.36.5, v1.37.2, v1.38.0-beta.0): the
filters run for one node with the nominated pods of that node added to the PreFilter state. `first` preempts
run-2 on n2 and is nominated there; `second` is tried before first's retry. Its zone spread (minDomains 4 over
the one zone z0, so the minimum counts as 0) fails on both nodes; on n0, without run-0 and without first (on
n2, not n0), z0 holds no `web` pod and second fits: it evicts run-0 and is nominated on n0, retried after first
bound, when the zone is full again. Generated seed 12 (1.38 batch, mixed) of tests/oracle/gen, minimised to
this; the oracle plans it alike in 1.36, 1.37 and 1.38. wasplan placed every nominated pod for the whole dry
run, so first counted in z0 on n0 too and second evicted nobody.
"""

from __future__ import annotations

import pytest

from scaffold import plan_json

CLUSTER = """\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low}
value: 10
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Node
metadata: {name: n0, labels: {kubernetes.io/hostname: n0, topology.kubernetes.io/zone: z0}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2, topology.kubernetes.io/zone: z0}}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: run-2, namespace: default, labels: {app: web}}
spec:
  nodeName: n2
  priorityClassName: low
  containers: [{name: main, image: web:1, resources: {requests: {cpu: 100m, memory: 2Gi}}}]
status: {phase: Running, startTime: '2026-01-01T01:30:00Z'}
---
apiVersion: v1
kind: Pod
metadata: {name: run-0, namespace: default, labels: {app: web}}
spec:
  nodeName: n0
  priorityClassName: low
  containers: [{name: main, image: web:1, resources: {requests: {cpu: 500m, memory: 1Gi}}}]
status: {phase: Running, startTime: '2026-01-01T01:11:00Z'}
"""

MANIFESTS = """\
apiVersion: v1
kind: Pod
metadata: {name: first, namespace: default, labels: {app: web}}
spec:
  priorityClassName: high
  nodeSelector: {kubernetes.io/hostname: n2}
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {labelSelector: {matchLabels: {app: web}}, topologyKey: kubernetes.io/hostname}
  containers: [{name: main, image: web:1, resources: {requests: {cpu: 250m, memory: 512Mi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: second, namespace: default, labels: {app: web}}
spec:
  priorityClassName: high
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, minDomains: 4,
     labelSelector: {matchLabels: {app: web}}}
  containers: [{name: main, image: web:1, resources: {requests: {cpu: 500m, memory: 1Gi}}}]
"""


@pytest.mark.parametrize("release", ["1.36", "1.37", "1.38"])
def test_a_pod_nominated_on_another_node_is_not_counted_in_the_dry_run(tmp_path, release):
    doc = plan_json(tmp_path, CLUSTER, MANIFESTS, "--k8s-version", release, "--arrival", "batch", code=None)
    pods = {p["name"]: (p["status"], p["node"], p["nominatedNode"]) for p in doc["pods"]}
    assert pods == {"first": ("Bound", "n2", "n2"), "run-2": ("Preempted", "n2", None),
                    "second": ("Pending", None, "n0"), "run-0": ("Preempted", "n0", None)}
    victims = {p["preemptor"]["name"]: [v["name"] for v in p["victims"]] for p in doc["preemptions"]}
    assert victims == {"first": ["run-2"], "second": ["run-0"]}
    second = next(p for p in doc["pods"] if p["name"] == "second")
    assert second["message"].endswith("preemption: 0/2 nodes are available: 2 No preemption victims found for "
                                      "incoming pod.")
