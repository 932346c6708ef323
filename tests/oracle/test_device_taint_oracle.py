"""DeviceTaintRules through the oracle (issue 30 point 2): the oracle reads DeviceTaintRule (the version each
release's slice tracker watches: resource.k8s.io/v1beta2 in 1.36 with DRADeviceTaintRules on, v1 in 1.37) and
creates it at its position in the input. On dra-example-driver's NoSchedule demo (fixtures/scenarios/
device-taints) wasplan and upstream agree pod by pod, message included, in both arrival modes: sequentially the
pod created before the rule keeps its GPU; in batch arrival the rule exists before anything is scheduled.

NoExecute eviction is the device taint eviction controller's, which the oracle does not run (docs/oracle.md):
those cases are checked against the controller's code (tests/engine/test_device_taint_order.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import run
from tests.oracle.conftest import oracle_plan

HERE = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "device-taints"
PROFILES = {"1.36": ("v1beta2", "DRADeviceTaintRules=true"), "1.37": ("v1", None)}


def _statuses(doc: dict) -> dict[str, tuple]:
    return {p["name"]: (p["status"], p.get("node"), p.get("message") if p["status"] == "Pending" else None)
            for p in doc["pods"]}


@pytest.mark.parametrize("arrival", ["sequential", "batch"])
@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_a_noschedule_rule_acts_where_it_stands(oracle_bin, release, arrival, tmp_path):
    version, gates = PROFILES[release]
    manifests = tmp_path / "noschedule.yaml"
    manifests.write_text((HERE / "noschedule.yaml").read_text().replace(
        "apiVersion: resource.k8s.io/v1\nkind: DeviceTaintRule", f"apiVersion: resource.k8s.io/{version}\n"
        "kind: DeviceTaintRule"))
    cluster = HERE / "cluster.yaml"
    theirs = oracle_plan(oracle_bin, [manifests], [cluster], release, gates=gates, arrival=arrival)
    assert theirs.returncode in (0, 1), theirs.stderr
    args = ["plan", str(manifests), "--cluster", str(cluster), "--k8s-version", release, "--arrival", arrival,
            "-o", "json", *(["--feature-gates", gates] if gates else [])]
    ours = json.loads(run(*args).output)
    assert _statuses(ours) == _statuses(theirs.json)
    assert _statuses(ours)["pod0"][0] == ("Bound" if arrival == "sequential" else "Pending")
