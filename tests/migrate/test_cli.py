"""The migrate command's contract: modes, exit codes, atomic in-place writes, JSON report, bad input."""

from __future__ import annotations

import json
import os
import stat

from .harness import FIXTURES, invoke

PODGROUP_136 = """apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata:
  name: g   # the group
spec:
  schedulingPolicy:
    gang:
      minCount: 2
  disruptionMode: PodGroup
"""
REFUSED_137 = """apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata:
  name: never
spec:
  schedulingPolicy:
    basic: {}
  preemptionPolicy: Never
"""


def _write(tmp_path, name, text, mode=0o640):
    path = tmp_path / name
    path.write_text(text)
    os.chmod(path, mode)
    return path


def test_in_place_rewrites_atomically_and_keeps_permissions(tmp_path):
    path = _write(tmp_path, "pg.yaml", PODGROUP_136, 0o640)
    result = invoke(str(path), "--in-place")
    assert result.exit_code == 0, result.stderr
    assert "scheduling.k8s.io/v1beta1" in path.read_text()
    assert "name: g   # the group" in path.read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pg.yaml"]  # no temp file left behind


def test_refused_file_untouched_while_other_files_are_written(tmp_path):
    ok = _write(tmp_path, "ok.yaml", REFUSED_137.replace("  preemptionPolicy: Never\n", ""))
    bad = _write(tmp_path, "bad.yaml", "# keep me\n" + REFUSED_137 + "---\n" + REFUSED_137.replace("never", "other")
                 .replace("  preemptionPolicy: Never\n", ""))
    before = bad.read_bytes()
    result = invoke(str(tmp_path), "--to-k8s", "1.36", "--in-place")
    assert result.exit_code == 1
    assert bad.read_bytes() == before  # one refused document keeps the whole file as it was
    assert "scheduling.k8s.io/v1alpha2" in ok.read_text()
    assert "WAS501" in result.stderr and "bad.yaml:9:" in result.stderr


def test_check_lists_changes_and_exits_1_without_writing(tmp_path):
    path = _write(tmp_path, "pg.yaml", PODGROUP_136)
    result = invoke(str(path), "--check")
    assert result.exit_code == 1
    assert path.read_text() == PODGROUP_136
    assert f"would migrate {path}" in result.stderr
    assert "spec.disruptionMode" in result.stderr
    assert result.stdout == ""


def test_check_on_migrated_input_exits_0(tmp_path):
    path = _write(tmp_path, "pg.yaml", REFUSED_137)
    assert invoke(str(path), "--check").exit_code == 0


def test_diff_prints_unified_diff(tmp_path):
    path = _write(tmp_path, "pg.yaml", PODGROUP_136)
    result = invoke(str(path), "--diff")
    assert result.exit_code == 0
    assert result.stdout.startswith(f"--- a/{path}\n+++ b/{path}\n")
    assert "-apiVersion: scheduling.k8s.io/v1alpha2\n+apiVersion: scheduling.k8s.io/v1beta1\n" in result.stdout


def test_json_report_lists_every_change_and_refusal(tmp_path):
    good = _write(tmp_path, "a.yaml", PODGROUP_136)
    result = invoke(str(good), "-o", "json")
    report = json.loads(result.stdout)
    assert report["kind"] == "MigrationReport" and report["summary"]["changed"] == 1
    changes = {c["field"]: c for c in report["files"][0]["changes"]}
    assert changes["apiVersion"]["old"] == "scheduling.k8s.io/v1alpha2"
    assert changes["apiVersion"]["new"] == "scheduling.k8s.io/v1beta1" and changes["apiVersion"]["line"] == 1
    assert changes["spec.disruptionMode"] == {"file": str(good), "document": 0, "line": 9,
                                              "field": "spec.disruptionMode", "action": "set",
                                              "old": "PodGroup", "new": {"all": {}}}
    bad = _write(tmp_path, "b.yaml", REFUSED_137)
    report = json.loads(invoke(str(bad), "--to-k8s", "1.36", "-o", "json").stdout)
    [diag] = report["diagnostics"]
    assert (diag["severity"], diag["code"], diag["line"], diag["field"]) == ("error", "WAS501", 8, "spec.preemptionPolicy")


def test_stdin_to_stdout():
    result = invoke("-", input=PODGROUP_136)
    assert result.exit_code == 0
    assert result.stdout.startswith("apiVersion: scheduling.k8s.io/v1beta1\n")


def test_several_files_to_stdout_are_one_stream(tmp_path):
    _write(tmp_path, "a.yaml", PODGROUP_136)
    _write(tmp_path, "b.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n")
    result = invoke(str(tmp_path))
    assert result.exit_code == 0
    assert f"# Source: {tmp_path / 'a.yaml'}" in result.stdout and "\n---\n# Source: " in result.stdout


def test_tool_errors_exit_2_without_traceback(tmp_path):
    broken = _write(tmp_path, "broken.yaml", "apiVersion: v1\nkind: [unclosed\n")
    for args in ([str(broken)], [str(tmp_path / "missing.yaml")], [str(broken), "--to", "v9"],
                 [str(broken), "--to-k8s", "1.99"], [str(broken), "--in-place", "--check"], ["-", "--in-place"],
                 [str(broken), "--bogus-flag"], [str(broken), "-o", "sarif"]):
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.stdout, result.stderr)
        assert "Traceback" not in result.stdout + result.stderr
        assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "WAS004" in invoke(str(broken)).stderr


def test_conflicting_target_flags(tmp_path):
    path = _write(tmp_path, "pg.yaml", PODGROUP_136)
    assert invoke(str(path), "--to", "v1alpha2", "--to-k8s", "1.37").exit_code == 2
    assert invoke(str(path), "--to", "v1alpha3", "--to-k8s", "1.37").exit_code == 0


def test_forced_version_v1alpha3(tmp_path):
    path = _write(tmp_path, "pg.yaml", PODGROUP_136)
    result = invoke(str(path), "--to", "v1alpha3")
    assert result.stdout.startswith("apiVersion: scheduling.k8s.io/v1alpha3\n")


def test_unrelated_files_come_out_byte_identical(tmp_path):
    odd = "apiVersion: v1\nkind:    ConfigMap   # odd\nmetadata: {name: x}\ndata:\n  k: >-\n    folded\n...\n"
    path = _write(tmp_path, "cm.yaml", odd)
    result = invoke(str(path))
    assert result.exit_code == 0 and result.stdout == odd


def test_crlf_and_bom_are_kept(tmp_path):
    path = tmp_path / "win.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + PODGROUP_136.replace("\n", "\r\n").encode())
    assert invoke(str(path), "--in-place").exit_code == 0
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfapiVersion: scheduling.k8s.io/v1beta1\r\n")
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert b"  disruptionMode:\r\n    all: {}\r\n" in data


def test_fixture_directory_has_cases():
    assert any(FIXTURES.iterdir())


def test_quoting_style_survives_edits_and_moves(tmp_path):
    text = ('apiVersion: "scheduling.k8s.io/v1alpha2"\nkind: PodGroup\nmetadata: {name: q}\nspec:\n'
            "  podGroupTemplateRef:\n    workload:\n      workloadName: 'w'\n      podGroupTemplateName: \"t\"\n"
            "  schedulingPolicy: {basic: {}}\n")
    path = _write(tmp_path, "q.yaml", text)
    out = invoke(str(path)).stdout
    assert out == ('apiVersion: "scheduling.k8s.io/v1beta1"\nkind: PodGroup\nmetadata: {name: q}\nspec:\n'
                   "  workloadRef:\n    workloadName: 'w'\n    templateName: \"t\"\n"
                   "  schedulingPolicy: {basic: {}}\n")


def test_invalid_135_workload_is_refused_with_the_schema_finding(tmp_path):
    path = tmp_path / "w.yaml"
    path.write_text("apiVersion: scheduling.k8s.io/v1alpha1\nkind: Workload\nmetadata: {name: w}\nspec:\n"
                    "  podGroups:\n  - name: a\n    policy: {basic: {}, gang: {minCount: 2}}\n")
    result = invoke(str(path), "--to-k8s", "1.37", "-o", "json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    finding = [d for d in report["diagnostics"] if d["line"] == 7]
    assert finding and finding[0]["code"] == "WAS505" and finding[0]["field"] == "spec.podGroups[0].policy"
    assert "exactly one of basic, gang must be set; basic and gang are both set" in finding[0]["message"]
