"""Expansion and planning throughput for the workload kinds (docs/workload-expansion.md); prints figures,
asserts nothing.

    PYTHONPATH=src python benchmarks/workloads.py

Scenarios on a generated Cluster of 1,024 nodes in 128 pools of 8: a Deployment of 10,000 replicas; a
StatefulSet of 2,000 OrderedReady pods (one creation wait per pod); an LWS of 1,000 groups of 8; a JobSet of
10 InOrder replicated jobs x 100 Jobs x 4 pods; a JobSet of 128 Jobs x 8 pods with exclusive placement per pool.
Each prints the CPU seconds to read and expand the manifests (build_inputs) and to simulate, and pods per second.
"""

from __future__ import annotations

import time

from wasplan.api.releases import default_gates, get_release
from wasplan.cluster.snapshot import build_inputs
from wasplan.documents import read_text
from wasplan.engine.profile.options import EngineOptions
from wasplan.engine.simulator import simulate

CLUSTER = """\
apiVersion: wasplan.io/v1alpha1
kind: Cluster
metadata: {name: bench}
spec:
  nodePools:
  - name: pool
    count: 1024
    namePattern: "node-{index // 8}-{index % 8}"
    labels: {pool: "pool-{index // 8}"}
    allocatable: {cpu: "64", memory: 256Gi, pods: 110}
"""
POD = "containers: [{name: c, image: x, resources: {requests: {cpu: 500m, memory: 1Gi}}}]"
SCENARIOS = {
    "deployment-10000": f"""\
apiVersion: apps/v1
kind: Deployment
metadata: {{name: web}}
spec: {{replicas: 10000, template: {{spec: {{{POD}}}}}}}
""",
    "statefulset-2000-ordered": f"""\
apiVersion: apps/v1
kind: StatefulSet
metadata: {{name: db}}
spec: {{replicas: 2000, template: {{spec: {{{POD}}}}}}}
""",
    "lws-1000x8": f"""\
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {{name: serve}}
spec: {{replicas: 1000, leaderWorkerTemplate: {{size: 8, workerTemplate: {{spec: {{{POD}}}}}}}}}
""",
    "jobset-inorder-10x100x4": "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: train}\n"
    "spec:\n  startupPolicy: {startupPolicyOrder: InOrder}\n  replicatedJobs:\n" + "".join(
        f"  - {{name: r{i}, replicas: 100, template: {{spec: {{parallelism: 4, completions: 4, "
        f"completionMode: Indexed, template: {{spec: {{{POD}}}}}}}}}}}\n" for i in range(10)),
    "jobset-exclusive-128x8": "apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata:\n  name: train\n"
    "  annotations: {alpha.jobset.sigs.k8s.io/exclusive-topology: pool}\nspec:\n  replicatedJobs:\n"
    f"  - {{name: w, replicas: 128, template: {{spec: {{parallelism: 8, completions: 8, completionMode: Indexed, "
    f"template: {{spec: {{{POD}}}}}}}}}}}\n",
}


def run(name: str, manifest: str) -> None:
    gates = default_gates(get_release("1.37"))
    start = time.process_time()
    inputs, diags = build_inputs(read_text("cluster.yaml", CLUSTER), read_text("w.yaml", manifest), gates)
    expanded = time.process_time()
    plan, _ = simulate(inputs, EngineOptions(gates=gates))
    done = time.process_time()
    bound = plan.summary()["bound"]
    print(f"{name:28} {len(plan.pods):6} pods, {bound:6} bound | expand {expanded - start:6.2f} s CPU | "
          f"simulate {done - expanded:6.2f} s CPU | {len(plan.pods) / (done - start):8.0f} pods/s"
          + (f" | {len(diags)} findings" if diags else ""))


if __name__ == "__main__":
    for scenario, text in SCENARIOS.items():
        run(scenario, text)
