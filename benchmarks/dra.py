"""Dynamic Resource Allocation at scheduler_perf's scale, end to end (`wasplan plan` as a library call: read YAML,
validate, build records, simulate); prints figures, asserts nothing.

    PYTHONPATH=src python benchmarks/dra.py             # both scenarios, each in its own process
    PYTHONPATH=src python benchmarks/dra.py claims      # one of them

Scenarios (scheduler_perf `test/integration/scheduler_perf/dra/` shapes, scaled to this machine):

* `claims`: 5,000 nodes publishing 8 GPUs each (the Cluster kind's `devices`, one ResourceSlice per node),
  10,000 pods each claiming one device through a ResourceClaimTemplate whose request has a CEL selector.
* `gangs`: the same cluster, 1,000 PodGroups (gang, minCount 8) with one PodGroup-level claim each
  (DRAWorkloadResourceClaims on): 8,000 pods; each group's 8 members share the group's one device, so each
  gang lands on one node.

Each prints pods bound, claims allocated, wall and CPU time (CPU is the steadier figure on a shared machine).
Target: each <= 5 s.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from wasplan.api.releases import get_release, parse_gates
from wasplan.pipeline.plan import run_plan
from wasplan.pipeline.requests import PlanRequest

NODES, DEVICES = 5000, 8
CLASS = """apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu, namespace: bench}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          selectors:
          - cel: {expression: 'device.attributes["gpu.example.com"].model == "a100"'}
"""


def cluster_yaml() -> str:
    return f"""apiVersion: wasplan.io/v1alpha1
kind: Cluster
metadata: {{name: bench}}
spec:
  nodePools:
  - name: gpu
    count: {NODES}
    namePattern: "gpu-{{index}}"
    allocatable: {{cpu: 96, memory: 768Gi, pods: 110}}
    devices:
    - driver: gpu.example.com
      count: {DEVICES}
      attributes: {{model: a100}}
"""


def pod_yaml(name: str, group: str | None) -> str:
    scheduling = f"\n  schedulingGroup: {{podGroupName: {group}}}" if group else ""
    return f"""apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: bench}}
spec:{scheduling}
  resourceClaims:
  - {{name: gpu, resourceClaimTemplateName: one-gpu}}
  containers:
  - name: main
    image: app:1
    resources:
      requests: {{cpu: "1", memory: 1Gi}}
      claims: [{{name: gpu}}]
"""


def group_yaml(name: str) -> str:
    return f"""apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: {name}, namespace: bench}}
spec:
  schedulingPolicy: {{gang: {{minCount: 8}}}}
  resourceClaims:
  - {{name: gpu, resourceClaimTemplateName: one-gpu}}
"""


def manifests(scenario: str) -> str:
    docs = [CLASS]
    if scenario == "claims":
        docs += [pod_yaml(f"p-{i:05d}", None) for i in range(10_000)]
    else:
        for g in range(1000):
            docs.append(group_yaml(f"g-{g:04d}"))
            docs += [pod_yaml(f"g-{g:04d}-{i}", f"g-{g:04d}") for i in range(8)]
    return "---\n".join(docs)


def run(scenario: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cluster, change = Path(tmp) / "cluster.yaml", Path(tmp) / "change.yaml"
        cluster.write_text(cluster_yaml())
        change.write_text(manifests(scenario))
        gates = parse_gates(get_release("1.37"), "DRAWorkloadResourceClaims=true" if scenario == "gangs" else None)
        wall, cpu = time.perf_counter(), time.process_time()
        result = run_plan(PlanRequest([str(change)], [str(cluster)], gates))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    plan = result.plan
    bound = plan.count("Bound")
    allocated = sum(1 for c in plan.claims if c.status == "Allocated")
    print(f"dra-{scenario:<7} nodes={NODES} devices={NODES * DEVICES} pods={len(plan.pods):6d} bound={bound:6d} "
          f"claims allocated={allocated:6d} time={wall:6.2f}s cpu={cpu:6.2f}s")


if __name__ == "__main__":
    names = sys.argv[1:] or ["claims", "gangs"]
    if len(names) == 1:
        run(names[0])
    else:
        for name in names:
            subprocess.run([sys.executable, __file__, name], check=False)
