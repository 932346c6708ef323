"""Helpers for the DynamicResources tests: a two-node cluster with a DeviceClass, slices, templates and pods as
YAML text, planned through `wasplan plan`'s pipeline."""

from __future__ import annotations

import textwrap

from wasplan.api.releases import get_release, parse_gates
from wasplan.pipeline.plan import run_plan
from wasplan.pipeline.requests import PlanRequest

NODES = """\
apiVersion: v1
kind: Node
metadata: {name: worker, labels: {kubernetes.io/hostname: worker}}
status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: worker-2, labels: {kubernetes.io/hostname: worker-2}}
status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}
"""
DEVICE_CLASS = """\
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
"""
CLUSTER = NODES + DEVICE_CLASS

SLICE = """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {{name: {node}-gpu}}
spec:
  driver: gpu.example.com
  nodeName: {node}
  pool: {{name: {node}, generation: 1, resourceSliceCount: 1}}
  devices:
{devices}
"""

TEMPLATE = """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com}
"""


def slice_for(node: str, *devices: str, extra: str = "") -> str:
    lines = "\n".join(f"  - name: {d}{extra}" for d in devices)
    return SLICE.format(node=node, devices=lines)


def pod(name: str, claims: str, group: str | None = None, cpu: str = "1") -> str:
    sched = f"\n  schedulingGroup: {{podGroupName: {group}}}" if group else ""
    return f"""\
---
apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: default}}
spec:{sched}
  resourceClaims:
{textwrap.indent(claims, "  ")}
  containers:
  - name: main
    image: app:1
    resources: {{requests: {{cpu: "{cpu}"}}}}
"""


def plan(tmp_path, cluster: str, manifests: str, version="1.37", gates=None, arrival="sequential"):
    (tmp_path / "cluster.yaml").write_text(cluster)
    (tmp_path / "change.yaml").write_text(manifests)
    run = run_plan(PlanRequest([str(tmp_path / "change.yaml")], [str(tmp_path / "cluster.yaml")],
                               parse_gates(get_release(version), gates), arrival=arrival))
    assert run.plan is not None, run.diagnostics
    return run


def pods(run) -> dict[str, tuple]:
    return {p.name: (p.status, p.node, p.message) for p in run.plan.pods}


def claims(run) -> dict[str, tuple]:
    return {c.name: (c.status, c.node, tuple(d.device for d in c.devices),
                     tuple((u.kind, u.name) for u in c.reserved_for)) for c in run.plan.claims}


ALLOCATED_ON_WORKER = """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: shared, namespace: default}}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {{deviceClassName: gpu.example.com}}
status:
  allocation:
    devices:
      results: [{{request: gpu, driver: gpu.example.com, pool: worker, device: gpu-0}}]
    nodeSelector:
      nodeSelectorTerms:
      - matchFields: [{{key: metadata.name, operator: In, values: [worker]}}]
  reservedFor: [{reserved}]
"""


# a basic PodGroup with a group claim no node can serve (CLUSTER has no slices), then its three members: planned
# sequentially, m-1 and m-2 arrive after the group's attempt with m-0 alone failed
UNSERVED_BASIC_GROUP = TEMPLATE + """---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: team, namespace: default}
spec:
  schedulingPolicy: {basic: {}}
  resourceClaims:
  - {name: shared, resourceClaimTemplateName: one-gpu}
""" + "".join(pod(f"m-{i}", "- {name: shared, resourceClaimTemplateName: one-gpu}", "team") for i in range(3))

# p claims an a100; the device on worker has no model attribute, so the selector errs there and p's attempt ends
# in that Filter error although worker-2 fits; filler then takes all of worker's cpu
A100_TEMPLATE = TEMPLATE.replace(
    "exactly: {deviceClassName: gpu.example.com}",
    "exactly:\n          deviceClassName: gpu.example.com\n          selectors:\n"
    "          - cel: {expression: 'device.attributes[\"gpu.example.com\"].model == \"a100\"'}")
ERRING_WORKER = CLUSTER + slice_for("worker", "gpu-0") + slice_for(
    "worker-2", "gpu-0", extra="\n    attributes: {model: {string: a100}}")
FILLER = """\
---
apiVersion: v1
kind: Pod
metadata: {name: filler, namespace: default}
spec:
  nodeSelector: {kubernetes.io/hostname: worker}
  containers: [{name: main, image: app:1, resources: {requests: {cpu: "8"}}}]
"""
ERRING_THEN_FILLED = A100_TEMPLATE + pod("p", "- {name: gpu, resourceClaimTemplateName: one-gpu}") + FILLER
