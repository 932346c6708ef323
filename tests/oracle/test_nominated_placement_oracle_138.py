"""The 1.38 oracle on the nominated-placement cases of tests/engine/test_nominated_placement_138.py
(algorithm_podgroup.go podGroupSchedulingPlacementAlgorithm of v1.38.0-beta.0): wasplan's plan and the
oracle's agree on every pod's status and node and on the group's status and message."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.oracle.conftest import oracle_plan

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from drascenes import plan  # noqa: E402  (tests/engine is not a package)
from test_nominated_placement_138 import CASES  # noqa: E402


def _view(plan_json: dict) -> dict:
    return {"pods": sorted((p["name"], p["status"], p.get("node")) for p in plan_json["pods"]),
            "groups": sorted((g["name"], g["status"], g["message"]) for g in plan_json["podGroups"])}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_the_oracle_takes_the_nominated_placement_as_recorded(oracle_bin, tmp_path, case):
    cluster, manifests, _, _ = CASES[case]
    (tmp_path / "m.yaml").write_text(manifests)
    (tmp_path / "c.yaml").write_text(cluster)
    run = oracle_plan(oracle_bin, [tmp_path / "m.yaml"], [tmp_path / "c.yaml"], "1.38", arrival="batch")
    assert run.returncode in (0, 1), run.stderr
    assert _view(plan(tmp_path, cluster, manifests, "1.38", arrival="batch").plan.to_dict()) == _view(run.json)
