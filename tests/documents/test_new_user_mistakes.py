"""Two reading mistakes a new user made (issue 30 point 6), on the files that showed them
(fixtures/mistakes): a document without apiVersion was summed up as "1 file not read", and a tab in the
indentation gave the parser's "found character that cannot start any token" with no word about the tab."""

from __future__ import annotations

import json

from tests.cli.helpers import run
from tests.conftest import FIXTURES
from wasplan.documents.reader import read_paths

MISTAKES = FIXTURES / "mistakes"
NO_API = str(MISTAKES / "no-apiversion.yaml")
TAB = str(MISTAKES / "tab-indented.yaml")


def test_a_document_without_apiversion_is_named_with_its_kind_and_the_missing_field():
    result = run("validate", NO_API, env={"COLUMNS": "300"})
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == (f"{NO_API}:2:1: error WAS007 Workload \"trainer\" has no apiVersion; a Kubernetes object "
                        "needs apiVersion and kind")
    assert lines[-1] == ("FAILED: 0 documents, 0 valid, 0 invalid, 1 document without apiVersion; 1 error, "
                         "0 warnings (Kubernetes 1.37)")
    assert "not read" not in result.stdout


def test_json_names_the_missing_field_and_counts_no_unreadable_file():
    report = json.loads(run("validate", NO_API, "-o", "json").stdout)
    assert report["summary"]["unreadableFiles"] == 0
    [diag] = report["diagnostics"]
    assert (diag["code"], diag["line"], diag["field"], diag["data"]) == ("WAS007", 2, "apiVersion",
                                                                          {"missing": ["apiVersion"]})


def test_a_tab_in_the_indentation_is_named_with_line_and_column():
    [diag] = read_paths([TAB]).diagnostics
    assert (diag.code, diag.location.line, diag.location.col) == ("WAS004", 9, 1)
    assert diag.message.startswith("YAML syntax error: a tab character at line 9, column 1; YAML indents with "
                                   "spaces only (the parser: ")
    assert diag.hint.startswith("replace the tab with spaces")


def test_the_tab_is_found_where_it_stands_after_spaces(tmp_path):
    path = tmp_path / "pod.yaml"
    path.write_text("apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  containers:\n  - name: c\n  \t  image: x\n")
    [diag] = read_paths([str(path)]).diagnostics
    assert (diag.code, diag.location.line, diag.location.col) == ("WAS004", 8, 3)
    assert "a tab character at line 8, column 3" in diag.message


def test_a_tab_between_a_key_and_its_value_is_legal_yaml_and_not_reported(tmp_path):
    path = tmp_path / "pod.yaml"
    path.write_text("apiVersion: v1\nkind: Pod\nmetadata:\n  name:\ta\n")
    assert read_paths([str(path)]).diagnostics == []


def test_plan_stops_on_both_with_the_same_findings():
    result = run("plan", str(MISTAKES), "--cluster", str(FIXTURES / "new-user" / "cluster.yaml"))
    assert result.exit_code == 2
    assert "WAS007 Workload \"trainer\" has no apiVersion" in result.stderr + result.stdout
    assert "a tab character at line 9, column 1" in result.stderr + result.stdout
