"""Lt and Gt tolerations (gate TaintTolerationComparisonOperators) judged by upstream: the manifests of
tests/engine/test_toleration_thresholds.py planned by the oracle with the gate on, and validated by the oracle's
API server with the gate off and on, must give wasplan's plan and verdicts."""

from __future__ import annotations

import pytest

import compare
from apicompare import validate_both
from gen import GATES
from tests.engine.test_toleration_thresholds import GATE, write


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_thresholds_plan_as_upstream(oracle_bin, tmp_path, release):
    pods, cluster = write(tmp_path)
    gates = f"{GATES[release]},{GATE}"
    ours = compare.run_wasplan(pods, cluster, release, "batch", gates)
    theirs = compare.run_oracle(str(oracle_bin), pods, cluster, release, "batch", gates)
    result = compare.compare(ours, theirs)
    assert result.agree, result
    assert {p["name"]: p["node"] for p in theirs["pods"]} == {
        "above-900": "gold", "below-900": "bronze", "above-960": None, "exactly-950": "gold"}


@pytest.mark.parametrize("gates", ["", GATE])
@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_thresholds_validate_as_upstream(oracle_bin, tmp_path, release, gates):
    pods, _ = write(tmp_path)
    server, ours = validate_both(oracle_bin, tmp_path / "pods.yaml", release, gates)
    assert [v.verdict for v in ours] == [v.verdict for v in server]
    assert [v.paths for v in ours] == [v.paths for v in server]
    assert [v.verdict for v in server] == (["valid"] * 4 if gates else ["invalid"] * 3 + ["valid"])
