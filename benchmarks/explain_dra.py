"""How long `wasplan explain` takes for a gang held back by devices on benchmarks/dra.py's 5,000-node cluster
(8 GPUs per node, one ResourceSlice each); prints figures, asserts nothing.

    PYTHONPATH=src python benchmarks/explain_dra.py              # every scenario
    PYTHONPATH=src python benchmarks/explain_dra.py selector     # one of them

Scenarios (a gang of 32 pods, one ResourceClaimTemplate claim each, minCount 32):

* `selector`   the template's selector compares `model` with "A100" while devices say "a100": the device evidence
               (40,000 devices through every stage), then the verified selector fix and firstAvailable fallback
* `constraint` 8 GPUs per pod with `matchAttribute` on `pcieRoot`, and every node's GPUs on two roots: the
               constraint evidence, the greedy-order check, and the verified dropped constraint

Each line gives the base plan's CPU seconds, the explanation's (evidence, suggestions, their verification
re-runs), the device evidence alone (`shapes`), and the number of re-runs.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from wasplan.api.releases import get_release, parse_gates
from wasplan.engine.simulator import Simulator
from wasplan.engine.pluginapi.status import reason_table
from wasplan.explain import evidence
from wasplan.explain.run import explain_units
from wasplan.explain.evidence import Context
from wasplan.explain.rerun import Budget, Verifier
from wasplan.explain.target import resolve
from wasplan.pipeline.plan import prepare_plan
from wasplan.pipeline.requests import PlanRequest

NODES, DEVICES, PODS = 5000, 8, 32
CLUSTER = f"""apiVersion: wasplan.io/v1alpha1
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
      count: {DEVICES // 2}
      namePattern: "gpu-a{{index}}"
      attributes: {{model: a100, pcieRoot: pci-0}}
    - driver: gpu.example.com
      count: {DEVICES // 2}
      namePattern: "gpu-b{{index}}"
      attributes: {{model: a100, pcieRoot: pci-1}}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {{name: gpu.example.com}}
spec:
  selectors:
  - cel: {{expression: 'device.driver == "gpu.example.com"'}}
"""
TEMPLATES = {
    "selector": """apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpus, namespace: bench}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          selectors:
          - cel: {expression: 'device.attributes["gpu.example.com"].model == "A100"'}
""",
    "constraint": """apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpus, namespace: bench}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com, count: 8}
      constraints:
      - matchAttribute: gpu.example.com/pcieRoot
""",
}


def manifests(scenario: str) -> str:
    docs = [TEMPLATES[scenario], f"""apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: train, namespace: bench}}
spec:
  schedulingPolicy: {{gang: {{minCount: {PODS}}}}}
"""]
    docs += [f"""apiVersion: v1
kind: Pod
metadata: {{name: train-{i}, namespace: bench}}
spec:
  schedulingGroup: {{podGroupName: train}}
  resourceClaims:
  - {{name: gpu, resourceClaimTemplateName: gpus}}
  containers:
  - name: main
    image: app:1
    resources:
      requests: {{cpu: "8", memory: 64Gi}}
      claims: [{{name: gpu}}]
""" for i in range(PODS)]
    return "---\n".join(docs)


def run(scenario: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cluster, change = Path(tmp) / "cluster.yaml", Path(tmp) / "change.yaml"
        cluster.write_text(CLUSTER)
        change.write_text(manifests(scenario))
        prepared = prepare_plan(PlanRequest([str(change)], [str(cluster)], parse_gates(get_release("1.37"), None)))
    with reason_table():
        cpu = time.process_time()
        sim = Simulator(prepared.inputs, prepared.options)
        plan, _ = sim.run()
        base = time.process_time() - cpu
        verifier = Verifier(prepared.inputs, prepared.options, sim.state, Budget(8))
        ctx = Context(prepared.inputs, sim, plan, verifier, prepared.documents)
        units = resolve("podgroup/train", "bench", prepared.inputs)
        subj = evidence.subject(ctx, units[0])
        evidence.run_trial(ctx, subj)
        cpu = time.process_time()
        evidence.shapes(ctx, subj)
        shapes = time.process_time() - cpu
        cpu = time.process_time()
        explanation = explain_units(ctx, units)
        explain = time.process_time() - cpu
    kinds = ", ".join(s.kind for s in explanation.targets[0].suggestions)
    print(f"{scenario:10s} plan {base:5.2f} s CPU, explain {explain:5.2f} s CPU (device evidence {shapes:4.2f} s), "
          f"{verifier.runs} re-runs; suggestions: {kinds}")


if __name__ == "__main__":
    for name in sys.argv[1:] or list(TEMPLATES):
        run(name)
