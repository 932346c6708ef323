"""lint never reads two same-named objects as one: a duplicate within a directory is WAS606 (as plan reports it)
and left out, and directories that each define an object are checked apart (validate/worlds.py)."""

from __future__ import annotations

import json
import shutil

from tests.cli.helpers import run
from tests.conftest import FIXTURES
from wasplan.api.releases import default_gates, get_release
from wasplan.documents.reader import read_text
from wasplan.validate.lint import lint
from wasplan.validate.worlds import worlds

ROOT = FIXTURES / "lint-worlds"
GATES = default_gates(get_release("1.37"))


def _findings(*args: str) -> list[tuple[str, str, int, str]]:
    report = json.loads(run("lint", *args, "-o", "json").stdout)
    every = report["diagnostics"] + [d for doc in report["documents"] for d in doc["diagnostics"]]
    return sorted((d["code"], d["file"], d["line"], d["message"]) for d in every)


def test_each_environment_is_checked_with_its_own_objects():
    result = run("lint", str(ROOT))
    assert result.exit_code == 0, result.output
    assert _findings(str(ROOT)) == [
        ("WAS405", str(ROOT / "prod" / "train.yaml"), 7,
         'PodGroup "train" needs 4 pods (gang minCount) but the inputs hold only 2 member pods; the gang waits for '
         "its quorum forever unless more pods arrive")]
    assert _findings(str(ROOT / "prod")) == _findings(str(ROOT))  # as if linted alone
    assert _findings(str(ROOT / "dev")) == []


def test_a_duplicate_in_one_directory_is_reported_and_left_out(tmp_path):
    shutil.copytree(ROOT / "dev", tmp_path / "dev")
    shutil.copy(ROOT / "dev" / "train.yaml", tmp_path / "dev" / "again.yaml")
    found = _findings(str(tmp_path))
    first = tmp_path / "dev" / "again.yaml"
    assert found == [
        ("WAS606", str(tmp_path / "dev" / "train.yaml"), 4,
         f"PodGroup ml/train is already defined (first in {first}:4); this one was ignored"),
        ("WAS606", str(tmp_path / "dev" / "train.yaml"), 11,
         f"Pod ml/train-0 is already defined (first in {first}:11); this one was ignored"),
        ("WAS606", str(tmp_path / "dev" / "train.yaml"), 18,
         f"Pod ml/train-1 is already defined (first in {first}:18); this one was ignored"),
    ]  # and the two copies' pods are not counted twice for the gang


def test_the_same_objects_in_one_directory_without_the_split_would_conflict(tmp_path):
    """The control: dev's and prod's objects in one directory are one world, so prod's pods clash with dev's."""
    (tmp_path / "all.yaml").write_text((ROOT / "dev" / "train.yaml").read_text() + "---\n" +
                                       (ROOT / "prod" / "train.yaml").read_text())
    codes = [f[0] for f in _findings(str(tmp_path))]
    assert codes.count("WAS606") == 3 and "WAS405" not in codes


def _doc(path: str, kind: str = "PodGroup", name: str = "train") -> str:
    return path, f"apiVersion: scheduling.k8s.io/v1beta1\nkind: {kind}\nmetadata: {{name: {name}}}\n"


def _worlds(*files: tuple[str, str]) -> list[list[str]]:
    docs = [d for path, text in files for d in read_text(path, text).documents]
    return [sorted({d.source for d in world}) for world in worlds(docs)]


def test_worlds_split_where_the_paths_part_and_share_the_rest():
    assert _worlds(_doc("a/x.yaml"), _doc("b/y.yaml", name="other")) == [["a/x.yaml", "b/y.yaml"]]
    assert _worlds(_doc("env/dev/g.yaml"), _doc("env/prod/g.yaml"), _doc("common/ns.yaml", name="ns"),
                   _doc("env/dev/pods/p.yaml", name="p")) == [
        ["common/ns.yaml", "env/dev/g.yaml", "env/dev/pods/p.yaml"], ["common/ns.yaml", "env/prod/g.yaml"]]
    # a base and an overlay below it part into the base's own files and the overlay; other files are shared
    assert _worlds(_doc("base/g.yaml"), _doc("base/overlay/g.yaml"), _doc("base/more/p.yaml", name="p")) == [
        ["base/g.yaml", "base/more/p.yaml"], ["base/more/p.yaml", "base/overlay/g.yaml"]]


def test_lint_as_a_library_reports_a_finding_of_shared_files_once():
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: lone}\nspec:\n  schedulingGroup: {podGroupName: trian}\n"
            "  containers: [{name: c, image: x}]\n")
    docs = [*read_text("common/pod.yaml", text).documents,
            *read_text("dev/g.yaml", _doc("")[1]).documents, *read_text("prod/g.yaml", _doc("")[1]).documents]
    found = [d for d in lint(docs, GATES) if d.location.file == "common/pod.yaml"]
    assert [d.code for d in found] == ["WAS404"]
