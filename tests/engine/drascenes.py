"""Helpers for the DynamicResources tests: a two-node cluster with a DeviceClass, slices, templates and pods as
YAML text, planned through `wasplan plan`'s pipeline."""

from __future__ import annotations

import textwrap

from wasplan.api.releases import get_release, parse_gates
from wasplan.pipeline.plan import run_plan

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


def plan(tmp_path, cluster: str, manifests: str, version="1.37", gates=None):
    (tmp_path / "cluster.yaml").write_text(cluster)
    (tmp_path / "change.yaml").write_text(manifests)
    run = run_plan([str(tmp_path / "change.yaml")], [str(tmp_path / "cluster.yaml")],
                   parse_gates(get_release(version), gates))
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
