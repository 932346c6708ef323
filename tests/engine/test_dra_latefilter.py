"""The late filter's shortcuts give the same plan as evaluating DynamicResources on every node.

engine/cycle/latefilter.py searches the best-scored node first and falls back to the allocator's vectorised pre-check
or a node-by-node search; on clusters of more than 100 nodes that is the path every DRA pod takes. Forcing the
every-node evaluation (as on small clusters) must not change a single placement or allocation.
"""

from __future__ import annotations

import random

import pytest

from wasplan.engine.plugins import dynamic_resources
from wasplan.pipeline.plan import run_plan
from wasplan.pipeline.requests import PlanRequest
from wasplan.api.releases import get_release, parse_gates


def _cluster(rng: random.Random, nodes: int) -> str:
    docs = ["""apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
"""]
    for i in range(nodes):
        docs.append(f"""apiVersion: v1
kind: Node
metadata: {{name: n-{i:03d}, labels: {{kubernetes.io/hostname: n-{i:03d}}}}}
status: {{allocatable: {{cpu: "{rng.choice([2, 4, 8])}", memory: 32Gi, pods: "110"}}}}
""")
        count = rng.choice([0, 0, 1, 2, 4])
        if count:
            devices = "\n".join(f"  - name: gpu-{d}\n    attributes: {{model: {{string: {rng.choice(['a', 'b'])}}}}}"
                                for d in range(count))
            docs.append(f"""apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {{name: n-{i:03d}-gpu}}
spec:
  driver: gpu.example.com
  nodeName: n-{i:03d}
  pool: {{name: n-{i:03d}, generation: 1, resourceSliceCount: 1}}
  devices:
{devices}
""")
    return "---\n".join(docs)


def _pods(rng: random.Random, count: int) -> str:
    docs = []
    for model in ("a", "b"):
        docs.append(f"""apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {{name: gpu-{model}, namespace: default}}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          count: {1 if model == "a" else 2}
          selectors: [{{cel: {{expression: 'device.attributes["gpu.example.com"].model == "{model}"'}}}}]
""")
    for i in range(count):
        docs.append(f"""apiVersion: v1
kind: Pod
metadata: {{name: p-{i:03d}, namespace: default}}
spec:
  resourceClaims: [{{name: gpu, resourceClaimTemplateName: gpu-{rng.choice("ab")}}}]
  containers: [{{name: c, image: x, resources: {{requests: {{cpu: "{rng.choice([1, 2])}"}}}}}}]
""")
    return "---\n".join(docs)


def _outcome(tmp_path, cluster: str, pods: str):
    (tmp_path / "cluster.yaml").write_text(cluster)
    (tmp_path / "pods.yaml").write_text(pods)
    run = run_plan(PlanRequest([str(tmp_path / "pods.yaml")], [str(tmp_path / "cluster.yaml")],
                               parse_gates(get_release("1.37"), None)))
    return ([(p.name, p.status, p.node, p.message) for p in run.plan.pods],
            [(c.name, c.status, c.node, [d.device for d in c.devices]) for c in run.plan.claims])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_shortcuts_match_every_node_evaluation(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    cluster, pods = _cluster(rng, 130), _pods(rng, 160)
    fast = _outcome(tmp_path, cluster, pods)
    monkeypatch.setattr(dynamic_resources, "EVERY_NODE_UP_TO", 10_000)
    assert _outcome(tmp_path, cluster, pods) == fast
    assert any(status == "Pending" for _, status, _, _ in fast[0]) and any(s == "Bound" for _, s, _, _ in fast[0])
