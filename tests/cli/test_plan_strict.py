"""`plan --strict`: a warning fails the run (exit 1), such as WAS710, the 1.36 scheduler binding a gang member to
a node its PodGroup's claim cannot reach (kubernetes/kubernetes#140087); without --strict the plan exits 0."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.cli.helpers import run

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from drascenes import CLUSTER, TEMPLATE, pod, slice_for  # noqa: E402
from test_dra_groups import SHARED, group  # noqa: E402



def _files(tmp_path):
    (tmp_path / "cluster.yaml").write_text(CLUSTER + slice_for("worker-2", "gpu-0"))
    (tmp_path / "gang.yaml").write_text(TEMPLATE + group(version="v1alpha2") + pod("m-0", SHARED, "team") + pod("m-1", SHARED, "team"))
    return ["plan", str(tmp_path / "gang.yaml"), "--cluster", str(tmp_path / "cluster.yaml"), "--k8s-version", "1.36",
            "--feature-gates", "DRAWorkloadResourceClaims=true"]


def test_the_upstream_bug_is_a_warning_and_strict_fails(tmp_path):
    args = _files(tmp_path)
    plain = run(*args)
    assert plain.exit_code == 0, plain.output
    assert "WAS710" in plain.output and "kubernetes/kubernetes#140087" in plain.output
    assert run(*args, "--strict").exit_code == 1


def test_strict_without_warnings_still_exits_0(tmp_path):
    args = _files(tmp_path)
    args[args.index("1.36")] = "1.37"
    (tmp_path / "gang.yaml").write_text((tmp_path / "gang.yaml").read_text().replace("v1alpha2", "v1beta1"))
    result = run(*args, "--strict")
    assert result.exit_code == 0, result.output


def test_strict_holds_when_the_plan_is_reported_as_a_diff_with_its_baseline(tmp_path):
    """The diff output (text, json, yaml, github) takes its exit code from the same function as the plan's: the
    warning fails it under --strict, as with -o html (before, the diff outputs ignored --strict)."""
    args = _files(tmp_path)
    saved = run(*args, "-o", "json")
    (tmp_path / "base.json").write_text(saved.stdout[saved.stdout.index("{"):])
    for output in ("text", "json"):
        with_baseline = [*args, "--baseline", str(tmp_path / "base.json"), "-o", output]
        assert run(*with_baseline).exit_code == 0
        assert run(*with_baseline, "--strict").exit_code == 1
