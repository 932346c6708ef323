"""The backoffQ pops the item whose backoff completes first: a pod that failed once retries before one that failed
twice, though it failed later and has the same priority.

Upstream (pkg/scheduler/backend/queue/backoff_queue.go getBackoffTime, calculateBackoffDuration,
lessBackoffCompletedWithPriority; the same in v1.36.5, v1.37.2 and v1.38.0-beta.0): an item's backoff completes
at its last failure time plus 1 s doubled per earlier failure, truncated to the second, and only equal
completion times are ordered as activeQ orders them. `db` fails on arrival (web-old, a `web` pod, is in its
zone z0), again when `evicter`'s victim is deleted (NodeResourcesFit's hint requeues it on any deletion), then
both `db` and `web-new` are requeued when web-new's victim web-old is deleted: web-new's 1 s backoff completes
before db's 2 s one, so web-new binds on n6 and db, whose anti-affinity keeps `web` pods out of its zone, stays
Pending. Without `evicter` both have failed once and db, queued first, binds on n0. Generated seed 39 (1.38
sequential, mixed) of tests/oracle/gen, minimised to this; the oracle plans both files alike in 1.36, 1.37 and
1.38. wasplan ordered its backoffQ by priority and failure time alone, and bound db.
"""

from __future__ import annotations

import pytest

from scaffold import plan_json

CLUSTER = """\
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
metadata: {name: n0, labels: {kubernetes.io/hostname: n0, topology.kubernetes.io/zone: z0, disktype: ssd}}
spec:
  taints: [{key: dedicated, value: infra, effect: NoSchedule}]
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110", example.com/foo: "3"}}
---
apiVersion: v1
kind: Node
metadata: {name: n5, labels: {kubernetes.io/hostname: n5, topology.kubernetes.io/zone: z2, disktype: hdd}}
status: {allocatable: {cpu: "4", memory: 16Gi, pods: "110", example.com/foo: "3"}}
---
apiVersion: v1
kind: Node
metadata: {name: n6, labels: {kubernetes.io/hostname: n6, topology.kubernetes.io/zone: z0, disktype: ssd}}
status: {allocatable: {cpu: "2", memory: 8Gi, pods: "4"}}
"""

MANIFESTS = """\
apiVersion: v1
kind: Pod
metadata: {name: web-old, namespace: default, labels: {app: web}}
spec:
  nodeSelector: {disktype: ssd}
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {labelSelector: {matchLabels: {app: web}}, topologyKey: kubernetes.io/hostname}
  containers: [{name: main, image: web:1, resources: {requests: {cpu: 500m, memory: 1Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: cache, namespace: default, labels: {app: cache}}
spec:
  priorityClassName: mid
  containers: [{name: main, image: cache:1, resources: {requests: {cpu: "4", memory: 512Mi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: db, namespace: default, labels: {app: db}}
spec:
  priorityClassName: high
  nodeSelector: {disktype: ssd}
  tolerations: [{key: dedicated, operator: Exists}]
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {labelSelector: {matchLabels: {app: web}}, topologyKey: topology.kubernetes.io/zone}
  containers:
  - name: main
    image: db:1
    resources: {requests: {cpu: 250m, memory: 512Mi, example.com/foo: "1"}, limits: {example.com/foo: "1"}}
---
apiVersion: v1
kind: Pod
metadata: {name: evicter, namespace: default, labels: {app: other}}
spec:
  priorityClassName: high
  nodeSelector: {disktype: hdd}
  containers: [{name: main, image: x:1, resources: {requests: {cpu: "1", memory: 512Mi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: web-new, namespace: default, labels: {app: web}}
spec:
  priorityClassName: high
  nodeSelector: {disktype: ssd}
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {labelSelector: {matchLabels: {app: web}}, topologyKey: kubernetes.io/hostname}
  containers: [{name: main, image: web:1, resources: {requests: {cpu: 500m, memory: 512Mi}}}]
"""


def _plan(tmp_path, release: str, manifests: str) -> dict:
    doc = plan_json(tmp_path, CLUSTER, manifests, "--k8s-version", release, "--arrival", "sequential", code=None)
    return {p["name"]: (p["status"], p["node"]) for p in doc["pods"]}


@pytest.mark.parametrize("release", ["1.36", "1.37", "1.38"])
def test_the_pod_with_the_shorter_backoff_retries_first(tmp_path, release):
    assert _plan(tmp_path, release, MANIFESTS) == {
        "web-old": ("Preempted", "n6"), "cache": ("Preempted", "n5"), "evicter": ("Bound", "n5"),
        "web-new": ("Bound", "n6"), "db": ("Pending", None)}


@pytest.mark.parametrize("release", ["1.36", "1.38"])
def test_equal_backoffs_retry_in_activeq_order(tmp_path, release):
    once = "---\n".join(d for d in MANIFESTS.split("---\n") if "name: evicter" not in d)
    assert _plan(tmp_path, release, once) == {
        "web-old": ("Preempted", "n6"), "cache": ("Bound", "n5"), "db": ("Bound", "n0"), "web-new": ("Pending", None)}
