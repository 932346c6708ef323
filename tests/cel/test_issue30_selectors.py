"""Issue 30: selectors written with the extension libraries of the Kubernetes CEL environment are planned, linted
and validated as the real scheduler and API server treat them.

NVIDIA's k8s-dra-driver-gpu `demo/specs/quickstart/v1/gpu-test6.yaml` selects GPUs with
`device.attributes["gpu.nvidia.com"].productName.lowerAscii().matches(...)`; kube-scheduler 1.36.3 and 1.37.2 bind
the pod to the node whose GPU matches (checked with `oracle cel`). `sets.contains` is part of the environment
(cel-go ext.Sets, in the base set since 1.29), so kube-apiserver accepts it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "validate"))

from drascenes import NODES, pods, plan, slice_for  # noqa: E402
from test_dra_cel import CLASS, findings  # noqa: E402
from wasplan.api.releases import get_release, parse_gates  # noqa: E402
from wasplan.pipeline.plan import run_plan  # noqa: E402
from wasplan.pipeline.requests import PlanRequest

NVIDIA_CLASS = """\
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.nvidia.com}
spec:
  selectors:
  - cel: {expression: "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'"}
"""


def _slice(node: str, product: str) -> str:
    extra = f"\n    attributes: {{type: {{string: gpu}}, productName: {{string: {product}}}}}"
    return slice_for(node, "gpu-0", extra=extra).replace("gpu.example.com", "gpu.nvidia.com")


GPU_TEST6 = """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: a100, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.nvidia.com
          selectors:
          - cel:
              expression: |
                device.attributes["gpu.nvidia.com"].productName.lowerAscii().matches("^.*a100.*$")
---
apiVersion: v1
kind: Pod
metadata: {name: pod0, namespace: default}
spec:
  resourceClaims:
  - {name: gpu, resourceClaimTemplateName: a100}
  containers:
  - name: ctr
    image: ubuntu:22.04
    resources: {claims: [{name: gpu}]}
"""


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_gpu_test6_selector_binds_the_pod_to_the_a100_node(tmp_path, release):
    cluster = NODES + NVIDIA_CLASS + _slice("worker", "NVIDIA H100 80GB HBM3") + \
        _slice("worker-2", "NVIDIA A100-SXM4-40GB")
    run = plan(tmp_path, cluster, GPU_TEST6, version=release)
    assert not [d for d in run.diagnostics if d.code.startswith("WAS6")]
    ((status, node, message),) = pods(run).values()
    assert (status.value, node, message) == ("Bound", "worker-2", "Successfully assigned default/pod0 to worker-2")


def test_a_selector_upstream_evaluates_but_wasplan_does_not_is_named(tmp_path):
    manifests = GPU_TEST6.replace(
        'device.attributes["gpu.nvidia.com"].productName.lowerAscii().matches("^.*a100.*$")',
        'timestamp("2026-01-01T00:00:00Z").getFullYear() == 2026')
    (tmp_path / "cluster.yaml").write_text(NODES + NVIDIA_CLASS + _slice("worker", "NVIDIA A100-SXM4-40GB"))
    (tmp_path / "change.yaml").write_text(manifests)
    run = run_plan(PlanRequest([str(tmp_path / "change.yaml")], [str(tmp_path / "cluster.yaml")],
                               parse_gates(get_release("1.37"), None)))
    named = [(d.code, d.message) for d in run.diagnostics if d.code == "WAS651"]
    assert named == [("WAS651", "selector #0: CEL function 'timestamp' is not modelled by wasplan (line 1, column 1); "
                                "the plan cannot tell which devices it selects")]
    assert run.plan is None  # an error in the inputs: no plan is offered as the answer


@pytest.mark.parametrize("expression", [
    'sets.contains(["a100", "h100", "b200"], [device.attributes["gpu.example.com"].model.lowerAscii()])',
    'device.attributes["gpu.example.com"].?model.orValue("").upperAscii().startsWith("A1")',
    'cel.bind(m, device.attributes["gpu.example.com"].model, m.split("-").size() > 1 && m.indexOf("x") == -1)',
    'device.attributes["gpu.example.com"].model.format([]) != "" && strings.quote(device.driver) != ""',
    'ip.isCanonical("10.0.0.1") && cidr("10.0.0.0/8").containsIP(device.attributes["gpu.example.com"].addr)',
])
def test_validate_accepts_the_extension_libraries(expression):
    assert findings(CLASS + f"  - cel: {{expression: '{expression}'}}\n") == []


def test_lint_with_the_cluster_finds_the_a100_and_names_the_values_when_none_matches(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))
    from helpers import run

    (tmp_path / "cluster.yaml").write_text(NODES + NVIDIA_CLASS + _slice("worker", "NVIDIA H100 80GB HBM3") +
                                           _slice("worker-2", "NVIDIA A100-SXM4-40GB"))
    (tmp_path / "app.yaml").write_text(GPU_TEST6)
    (tmp_path / "b200.yaml").write_text(GPU_TEST6.replace("a100.*", "b200.*"))
    clean = run("lint", str(tmp_path / "app.yaml"), "--cluster", str(tmp_path / "cluster.yaml"))
    assert "0 errors" in clean.output and "WAS428" not in clean.output
    none = run("lint", str(tmp_path / "b200.yaml"), "--cluster", str(tmp_path / "cluster.yaml"))
    assert 'error WAS428 request "gpu" matches no device in the cluster snapshot' in none.output
    assert '"NVIDIA A100-SXM4-40GB" (1 device), "NVIDIA H100 80GB HBM3" (1 device)' in none.output
