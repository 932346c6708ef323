"""The oracle keeps the devices PreBind allocated (oracle/core/versions.go): the scheduler's assume cache for
ResourceClaims takes an object only with an integer resourceVersion newer than the one it holds, so the oracle's
fake API gives every write one, as the API server does. Without it the second pod below got the device the first
pod's claim already held, and both bound. The same manifests go through `wasplan plan` in
tests/engine/test_dra_plugin.py (`test_exhausted_resources`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.oracle.conftest import oracle_plan

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from drascenes import CLUSTER, TEMPLATE, pod, slice_for  # noqa: E402

CLAIM = """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: {name}, namespace: default}}
spec:
  devices:
    requests:
    - {{name: gpu, exactly: {{deviceClassName: gpu.example.com}}}}
"""
CLAIMS = CLAIM.format(name="c-1") + CLAIM.format(name="c-2")


@pytest.mark.parametrize("arrival", ["batch", "sequential"])
@pytest.mark.parametrize("version", ["1.36", "1.37"])
@pytest.mark.parametrize("claims", ["template", "named"])
def test_one_device_goes_to_one_claim(oracle_bin, tmp_path, version, arrival, claims):
    cluster, manifests = tmp_path / "cluster.yaml", tmp_path / "manifests.yaml"
    cluster.write_text(CLUSTER + slice_for("worker", "gpu-0"))
    if claims == "template":
        own = "- {name: gpu, resourceClaimTemplateName: one-gpu}"
        manifests.write_text(TEMPLATE + pod("a", own) + pod("b", own))
    else:
        manifests.write_text(CLAIMS + pod("a", "- {name: gpu, resourceClaimName: c-1}")
                             + pod("b", "- {name: gpu, resourceClaimName: c-2}"))
    run = oracle_plan(oracle_bin, [manifests], [cluster], version, arrival=arrival)
    assert run.returncode == 1, run.stderr
    doc = run.json
    assert [(p["name"], p["status"], p.get("node")) for p in doc["pods"]] == [
        ("a", "Bound", "worker"), ("b", "Pending", None)]
    assert doc["pods"][1]["message"].startswith("0/2 nodes are available: 2 cannot allocate all claims.")
    allocated = [c for c in doc["resourceClaims"] if c["status"] == "Allocated"]
    assert [[d["device"] for d in c["devices"]] for c in allocated] == [["gpu-0"]]
