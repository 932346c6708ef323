"""Files a kustomization lists as patches are skipped with WAS033 and the command that builds the overlay,
as Helm templates are (WAS031); the bundled fixture is a base and a prod overlay in kustomize's own layout."""

from __future__ import annotations

import json
import shutil

from tests.cli.helpers import run
from tests.conftest import FIXTURES

ROOT = FIXTURES / "kustomize"
PROD = ROOT / "overlays" / "prod"


def _skips(report: dict) -> list[tuple[str, int, str]]:
    return [(d["file"], d["line"], d["message"]) for d in report["diagnostics"] if d["code"] == "WAS033"]


def test_patches_of_a_kustomization_are_skipped_with_the_build_command():
    result = run("validate", str(ROOT), "-o", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    kustomization = PROD / "kustomization.yaml"
    assert _skips(report) == [
        (str(PROD / "image.yaml"), 1, f"kustomize patch skipped: {kustomization}:9 lists it under "
                                      "patchesStrategicMerge; a patch holds only the fields it changes, not a whole "
                                      "object"),
        (str(PROD / "min-count.yaml"), 1, f"kustomize patch skipped: {kustomization}:6 lists it under patches; a "
                                          "patch holds only the fields it changes, not a whole object"),
        (str(PROD / "parallelism.yaml"), 1, f"kustomize patch skipped: {kustomization}:5 lists it under patches; "
                                            "a patch holds only the fields it changes, not a whole object"),
    ]
    hints = {d["hint"] for d in report["diagnostics"] if d["code"] == "WAS033"}
    assert hints == {f"check what kustomize builds from it: `kubectl kustomize {PROD} | wasplan validate -`"}
    assert report["summary"]["kustomizePatches"] == 3
    assert report["summary"]["valid"] == 1  # the base Job is checked
    text = run("validate", str(ROOT)).output
    assert "3 kustomize patches skipped; 0 errors, 0 warnings" in text


def test_without_the_kustomization_the_same_patches_are_invalid_objects(tmp_path):
    shutil.copytree(PROD, tmp_path / "prod")
    (tmp_path / "prod" / "kustomization.yaml").unlink()
    result = run("validate", str(tmp_path / "prod"))
    assert result.exit_code == 1
    assert "WAS033" not in result.output
    assert "min-count.yaml:1:1: error WAS006 document is a list" in result.output


def test_a_patch_named_alone_is_known_by_the_kustomization_beside_it():
    result = run("validate", str(PROD / "parallelism.yaml"))
    assert result.exit_code == 0, result.output
    assert "info WAS033 kustomize patch skipped" in result.output
    assert "1 kustomize patch skipped" in result.output


def test_patch_paths_are_only_compared_with_the_inputs(tmp_path):
    (tmp_path / "kustomization.yaml").write_text("patches:\n- path: ../../../../etc/passwd\n- patch: |-\n    x\n"
                                                 "patchesStrategicMerge:\n- |-\n  apiVersion: v1\n  kind: Pod\n")
    (tmp_path / "pod.yaml").write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                                       "spec:\n  containers: [{name: c, image: x}]\n")
    result = run("validate", str(tmp_path), "-o", "json")
    assert result.exit_code == 0, result.output
    assert _skips(json.loads(result.stdout)) == []


def test_junit_and_strict_inputs_keep_patches_skipped():
    result = run("validate", str(ROOT), "--strict-inputs", "-o", "junit")
    assert 'name="kustomize patch"' in result.stdout
    assert ('<skipped message="kustomize patch: build the overlay first (kubectl kustomize DIR | wasplan validate -)"'
            in result.stdout)


def test_plan_skips_the_patches_and_plans_the_base():
    cluster = FIXTURES / "examples" / "cluster.yaml"
    result = run("plan", str(ROOT), "--cluster", str(cluster), "-o", "json")
    assert result.exit_code == 0, result.output
    plan = json.loads(result.stdout)
    assert [p["name"] for p in plan["pods"] if p["namespace"] == "ml"] == ["train-0", "train-1", "train-2", "train-3"]
    assert result.stderr.count("info WAS033") == 3
