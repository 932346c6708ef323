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


CLUSTER = FIXTURES / "examples" / "cluster.yaml"


def test_plan_of_the_base_alone_plans_its_files():
    """A kustomization that only lists input files as resources builds exactly them: planned as read."""
    result = run("plan", str(ROOT / "base"), "--cluster", str(CLUSTER), "-o", "json")
    assert result.exit_code == 0, result.output
    plan = json.loads(result.stdout)
    assert [p["name"] for p in plan["pods"] if p["namespace"] == "ml"] == ["train-0", "train-1", "train-2", "train-3"]


def test_plan_of_an_overlay_is_refused_with_the_build_command():
    """Issue 30: the prod overlay planned nothing (../../base not followed, its patches info notes) and exited 0
    with "Every pod is placed"; planning the whole tree planned the base's 4 pods where kustomize emits 8."""
    kustomization = PROD / "kustomization.yaml"
    for inputs in ([PROD], [ROOT]):
        result = run("plan", *map(str, inputs), "--cluster", str(CLUSTER))
        assert result.exit_code == 2, result.output
        assert "Every pod is placed" not in result.output
        assert (f"{kustomization}:3:3: error WAS034 kustomization not built: resources: '../../base' is a "
                "kustomization directory to build (also patches, patchesStrategicMerge); wasplan does not build "
                "kustomizations, and planning its files as they are would not plan what kustomize emits\n") in result.stderr
        assert (f"hint: build it first: `kubectl kustomize {PROD} | wasplan plan -` (or `wasplan explain TARGET -`, "
                f"with your other flags), and leave {PROD} out of the inputs") in result.stderr
        assert result.stderr.endswith("wasplan: the inputs are invalid (1 error); nothing was planned\n")


def test_explain_of_an_overlay_is_refused_too():
    result = run("explain", "pod/train-0", str(PROD), "--cluster", str(CLUSTER))
    assert result.exit_code == 2
    assert "error WAS034 kustomization not built: resources:" in result.stderr


def test_every_field_that_transforms_or_generates_is_named(tmp_path):
    """Beyond resources: transformers, generators, components, helmCharts, remote bases are all named."""
    shutil.copy(ROOT / "base" / "train.yaml", tmp_path / "train.yaml")
    (tmp_path / "kustomization.yaml").write_text(
        "resources:\n- train.yaml\n- https://github.com/example/base?ref=v1\nnamePrefix: prod-\n"
        "configMapGenerator:\n- name: cfg\n  literals: [a=b]\nhelmCharts:\n- name: x\n")
    result = run("plan", str(tmp_path), "--cluster", str(CLUSTER))
    assert result.exit_code == 2
    assert ("kustomization.yaml:3:3: error WAS034 kustomization not built: resources: "
            "'https://github.com/example/base?ref=v1' is a remote base (also namePrefix, configMapGenerator, "
            "helmCharts)") in result.stderr
    (tmp_path / "kustomization.yaml").write_text("resources:\n- train.yaml\nnamespace: prod\n")
    result = run("plan", str(tmp_path), "--cluster", str(CLUSTER))
    assert result.exit_code == 2
    assert ("kustomization.yaml:3:1: error WAS034 kustomization not built: namespace: transforms or generates "
            "objects;") in result.stderr


def test_a_file_named_on_its_own_is_planned_as_written(tmp_path):
    """The user named the file, not the build: the kustomization beside it is not asked."""
    shutil.copy(ROOT / "base" / "train.yaml", tmp_path / "train.yaml")
    (tmp_path / "kustomization.yaml").write_text("resources:\n- train.yaml\nnamespace: prod\n")
    result = run("plan", str(tmp_path / "train.yaml"), "--cluster", str(CLUSTER))
    assert result.exit_code == 0, result.output
    assert "WAS034" not in result.output
