"""A gang stopped by two causes, an untolerated taint and a topology label no node carries: explain lists both."""

from __future__ import annotations

import json

from tests.cli.helpers import run
from tests.conftest import FIXTURES

WIDE = {"COLUMNS": "250"}  # explain's text wraps to the width; wide enough that no asserted line wraps

TAINT = FIXTURES / "explain" / "taint"


def test_taint_and_missing_topology_label_are_both_listed(tmp_path):
    gang = tmp_path / "gang.yaml"
    gang.write_text((TAINT / "gang.yaml").read_text().replace(
        "      minCount: 4\n", "      minCount: 4\n  schedulingConstraints:\n    topology:\n"
                              "    - key: topology.kubernetes.io/rack\n", 1))
    args = ("explain", str(gang), "--cluster", str(TAINT / "cluster.yaml"))
    text = run(*args, env=WIDE)
    assert text.exit_code == 1
    assert "TaintToleration rejects 6 nodes: no toleration for dedicated=training:NoSchedule (6 nodes)" in text.stdout
    assert ("topology: no node has the label 'topology.kubernetes.io/rack', so no topology.kubernetes.io/rack domain "
            "exists to place the group in") in text.stdout
    [target] = json.loads(run(*args, "-o", "json").stdout)["targets"]
    assert target["topology"]["blocker"].startswith("no node has the label 'topology.kubernetes.io/rack'")
    assert [e["plugin"] for s in target["shapes"] for e in s["eliminatedBy"]] == ["TaintToleration", "NodeResourcesFit"]


def test_pods_for_a_scheduler_without_a_profile_are_explained_without_an_internal_error(tmp_path):
    """Found by the fuzz suite: the node-shape suggestion probed such a pod with no evaluator."""
    gang = tmp_path / "gang.yaml"
    text = (TAINT / "gang.yaml").read_text()
    for i in range(4):
        text = text.replace(f"  name: llm-{i}\n  namespace: ml\nspec:\n",
                            f"  name: llm-{i}\n  namespace: ml\nspec:\n  schedulerName: other\n")
    gang.write_text(text)
    result = run("explain", str(gang), "--cluster", str(TAINT / "cluster.yaml"), env=WIDE)
    assert result.exit_code == 1
    assert "internal error" not in result.stderr
    assert ("note: no kube-scheduler profile is named 'other': its pods wait for another scheduler (or a "
            "--scheduler-config with that profile)") in result.stdout
