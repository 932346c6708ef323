"""Rule selection and suppression on real manifests: --select/--ignore prefixes, per-file-ignores, inline
`# wasplan: ignore` on a line or a document's first line, the wasplan.io/ignore annotation, stale markers."""

from __future__ import annotations

import dataclasses
import json

from tests.cli.helpers import run
from wasplan.api.releases import get_release, parse_gates
from wasplan.config.settings import Settings
from wasplan.pipeline.exits import validate_exit_code
from wasplan.pipeline.validate import validate_paths

GATES = parse_gates(get_release("1.37"), None)
# one unknown field (WAS101, line 7) and a gang whose minCount is 0 (WAS105, line 10), then a second document
# whose pod names a PodGroup that is not among the inputs (lint WAS404, line 18)
MANIFEST = """\
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata:
  name: trainers
  namespace: ml
spec:
  minMatch: 8{c7}
  schedulingPolicy:
    gang:
      minCount: 0{c10}
---{c11}
apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: ml
spec:
  schedulingGroup: {{podGroupName: nowhere}}{c18}
  containers: [{{name: c, image: i}}]
"""


def _file(tmp_path, **comments):
    text = MANIFEST.format(**{k: comments.get(k, "") for k in ("c7", "c10", "c11", "c18")})
    path = tmp_path / "m.yaml"
    path.write_text(text)
    return str(path)


def _check(path, lint=True, **settings):
    report = validate_paths([path], GATES, lint=lint, settings=dataclasses.replace(Settings(), **settings))
    shown = [(d.code, d.location.line) for d in report.diagnostics]
    hidden = [(s.diagnostic.code, s.diagnostic.location.line, s.reason) for s in report.suppressed]
    return shown, hidden, report


def test_without_suppressions_every_finding_shows(tmp_path):
    shown, hidden, report = _check(_file(tmp_path))
    assert shown == [("WAS101", 7), ("WAS105", 10), ("WAS404", 18)]
    assert hidden == [] and report.counts()["suppressed"] == 0


def test_comment_on_the_line_suppresses_the_named_code_there_only(tmp_path):
    path = _file(tmp_path, c7="  # wasplan: ignore=WAS101", c18="  # wasplan: ignore=was4")
    shown, hidden, report = _check(path)
    assert shown == [("WAS105", 10)]
    assert hidden == [("WAS101", 7, f"comment at {path}:7"), ("WAS404", 18, f"comment at {path}:18")]
    assert report.counts()["suppressed"] == 2
    assert validate_exit_code(report) == 1  # WAS105 still fails


def test_comment_on_a_documents_first_line_covers_the_document(tmp_path):
    path = tmp_path / "m.yaml"
    path.write_text("# wasplan: ignore\n" + MANIFEST.format(c7="", c10="", c11="", c18=""))
    shown, hidden, _ = _check(str(path))
    assert shown == [("WAS404", 19)]
    assert [h[:2] for h in hidden] == [("WAS101", 8), ("WAS105", 11)]


def test_comment_without_codes_on_a_line_covers_all_codes_of_that_line(tmp_path):
    shown, hidden, _ = _check(_file(tmp_path, c10="  # wasplan: ignore"))
    assert shown == [("WAS101", 7), ("WAS404", 18)]
    assert [h[:2] for h in hidden] == [("WAS105", 10)]


def test_annotation_covers_its_object(tmp_path):
    path = tmp_path / "m.yaml"
    path.write_text(MANIFEST.format(c7="", c10="", c11="", c18="").replace(
        "  namespace: ml\nspec:\n  minMatch", "  namespace: ml\n  annotations: {wasplan.io/ignore: 'WAS101, WAS105'}\n"
                                               "spec:\n  minMatch", 1))
    shown, hidden, report = _check(str(path))
    assert shown == [("WAS404", 19)]
    assert [h[:2] for h in hidden] == [("WAS101", 8), ("WAS105", 11)]
    assert hidden[0][2] == f"annotation wasplan.io/ignore at {path}:6"
    assert validate_exit_code(report) == 0


def test_stale_suppressions_are_reported_as_info(tmp_path):
    path = _file(tmp_path, c10="  # wasplan: ignore=WAS105,WAS107", c11=" # wasplan: ignore=WAS999")
    shown, _, report = _check(path)
    stale = [(d.code, d.location.line, d.message) for d in report.diagnostics if d.code == "WAS032"]
    assert stale == [("WAS032", 10, "`# wasplan: ignore` for WAS107 suppresses nothing here"),
                     ("WAS032", 11, "`# wasplan: ignore` for WAS999 suppresses nothing here")]
    assert validate_exit_code(report) == 1 and validate_exit_code(report, strict=False) == 1


def test_lint_suppressions_are_not_stale_under_validate_nor_deselected_codes(tmp_path):
    path = _file(tmp_path, c18="  # wasplan: ignore=WAS404", c7="  # wasplan: ignore=WAS101")
    shown, _, _ = _check(path, lint=False)
    assert shown == [("WAS105", 10)]
    shown, hidden, _ = _check(path, select=("WAS105",))
    assert shown == [("WAS105", 10)]


def test_select_and_ignore_take_prefixes(tmp_path):
    path = _file(tmp_path)
    assert _check(path, select=("WAS1",))[0] == [("WAS101", 7), ("WAS105", 10)]
    assert _check(path, ignore=("WAS10",))[0] == [("WAS404", 18)]
    assert [h[2] for h in _check(path, select=("WAS4",))[1]] == ["not in --select", "not in --select"]


def test_per_file_ignores_match_relative_to_the_config_directory(tmp_path):
    path = _file(tmp_path)
    settings = dict(per_file_ignores=(("*.yaml", ("WAS101",)),), root=str(tmp_path))
    shown, hidden, _ = _check(path, **settings)
    assert shown == [("WAS105", 10), ("WAS404", 18)]
    assert hidden == [("WAS101", 7, "per-file-ignores '*.yaml'")]


def test_cli_select_ignore_and_show_suppressed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _file(tmp_path, c7="  # wasplan: ignore=WAS101")
    result = run("lint", "m.yaml", "--ignore", "WAS404", "--no-config")
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == ("FAILED: 2 documents, 1 valid, 1 invalid; 1 error, 0 warnings, "
                                              "2 suppressed (Kubernetes 1.37)")
    shown = run("lint", "m.yaml", "--ignore", "WAS404", "--show-suppressed", "--no-config").output
    assert ("  m.yaml:7:3: error WAS101 unknown field \"spec.minMatch\"" in shown
            and "[suppressed by comment at m.yaml:7]" in shown)
    data = json.loads(run("lint", "m.yaml", "--select", "WAS4", "-o", "json", "--show-suppressed", "--no-config").output)
    assert [(s["code"], s["suppressedBy"]) for s in data["suppressed"]] == [
        ("WAS101", "comment at m.yaml:7"), ("WAS105", "not in --select")]
    assert data["summary"]["suppressed"] == 2


def test_sarif_lists_suppressed_findings_as_suppressed_with_show_suppressed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _file(tmp_path, c7="  # wasplan: ignore=WAS101")
    plain = json.loads(run("lint", "m.yaml", "--ignore", "WAS404", "-o", "sarif", "--no-config").output)
    assert [r["ruleId"] for r in plain["runs"][0]["results"]] == ["WAS105"]
    shown = json.loads(run("lint", "m.yaml", "--ignore", "WAS404", "-o", "sarif", "--show-suppressed",
                           "--no-config").output)
    results = shown["runs"][0]["results"]
    assert [(r["ruleId"], r.get("suppressions")) for r in results] == [
        ("WAS105", None),
        ("WAS101", [{"kind": "inSource", "justification": "comment at m.yaml:7"}]),
        ("WAS404", [{"kind": "external", "justification": "--ignore"}]),
    ]


def test_document_spans_are_numbered_as_the_reader_numbers_documents():
    from wasplan.suppress.markers import _documents

    lines = ["# header", "---", "a: 1", "---", "---", "b: 2"]
    assert _documents(lines) == [(0, 3, 3), (1, 5, 4), (2, 6, 6)]
    assert _documents(["a: 1", "---", "b: 2"]) == [(0, 1, 1), (1, 3, 3)]
