"""`wasplan validate`: what a user sees for good and bad manifests, and one test per exit code."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.helpers import run
from tests.conftest import FIXTURES

GOOD = str(FIXTURES / "manifests" / "training-1.37.yaml")
BROKEN = str(FIXTURES / "manifests" / "broken-from-a-blog.yaml")


def test_exit_0_for_valid_manifests():
    result = run("validate", GOOD)
    assert result.exit_code == 0, result.output
    assert "OK: 7 documents, 7 valid, 0 invalid; 0 errors, 0 warnings (Kubernetes 1.37)" in result.output


def test_exit_1_lists_every_finding_compiler_style_with_hints():
    result = run("validate", BROKEN)
    assert result.exit_code == 1
    out = result.output
    assert f"{BROKEN}:8:3: error WAS101 unknown field \"spec.minMatch\"" in out
    assert "minCount" in out.split("spec.minMatch", 1)[1].split("\n")[3]  # the hint names the real field
    assert f"{BROKEN}:13:9: error WAS105 \"spec.podGroupTemplates[0].schedulingPolicy.gang.minCount\" is 0; " \
           "it must be at least 1" in out
    assert f"{BROKEN}:14:5: error WAS103 \"spec.podGroupTemplates[0].disruptionMode\" must be an object, not a string" in out
    assert "WAS108" in out and "basic and gang are both set" in out
    assert f"{BROKEN}:27:3: error WAS101 unknown field \"spec.workloadName\"" in out
    assert "spec.workloadRef.workloadName" in out
    assert "WAS109" in out and "run `wasplan migrate --to-k8s 1.37" in out
    assert f"{BROKEN}:15:5: error WAS201 template name \"workers\" is used twice" in out
    # the source line is shown under the header, with a caret under the column
    assert "\n      minMatch: 8 " in out and "\n      ^\n" in out
    assert "FAILED: 3 documents, 0 valid, 3 invalid; 9 errors, 0 warnings (Kubernetes 1.37)" in out


def test_exit_1_for_warnings_only_under_strict(tmp_path):
    doc = tmp_path / "gated.yaml"
    doc.write_text(open(GOOD).read())
    assert run("validate", str(doc), "--feature-gates", "TopologyAwareWorkloadScheduling=false").exit_code == 0
    strict = run("validate", str(doc), "--strict", "--feature-gates", "TopologyAwareWorkloadScheduling=false")
    assert strict.exit_code == 1
    assert "WAS301" in strict.output and "TopologyAwareWorkloadScheduling" in strict.output


def test_exit_2_when_the_tool_cannot_do_its_job(tmp_path):
    missing = run("validate", str(tmp_path / "nope.yaml"))
    assert missing.exit_code == 2 and "WAS001" in missing.output
    empty = run("validate", str(tmp_path))
    assert empty.exit_code == 2 and "WAS009" in empty.output
    bad_release = run("validate", GOOD, "--k8s-version", "1.30")
    assert bad_release.exit_code == 2 and "unsupported Kubernetes release" in bad_release.output
    bad_gate = run("validate", GOOD, "--feature-gates", "NoSuchGate=true")
    assert bad_gate.exit_code == 2 and "unknown feature gate 'NoSuchGate'" in bad_gate.output


def test_json_output_shape():
    result = run("validate", BROKEN, "-o", "json")
    data = json.loads(result.output)
    assert data["apiVersion"] == "wasplan.io/v1alpha1" and data["kind"] == "ValidationReport"
    assert data["summary"]["documents"] == 3 and data["summary"]["invalid"] == 3
    first = data["documents"][0]
    assert (first["kind"], first["name"], first["verdict"]) == ("Workload", "resnet", "invalid")
    diag = first["diagnostics"][0]
    assert set(diag) >= {"code", "severity", "message", "file", "line", "column", "field"}


def test_stdin_and_github_annotations():
    result = run("validate", "-", "-o", "github", stdin=open(BROKEN).read())
    assert result.exit_code == 1
    assert "::error file=<stdin>,line=8,col=3,title=WAS101::unknown field" in result.output


def test_v1alpha2_is_valid_for_136_and_not_served_by_137(tmp_path):
    doc = tmp_path / "pg.yaml"
    doc.write_text("apiVersion: scheduling.k8s.io/v1alpha2\nkind: PodGroup\nmetadata: {name: g}\n"
                   "spec:\n  schedulingPolicy:\n    gang: {minCount: 2}\n  disruptionMode: PodGroup\n")
    assert run("validate", str(doc), "--k8s-version", "1.36").exit_code == 0
    newer = run("validate", str(doc), "--k8s-version", "1.37")
    assert newer.exit_code == 1
    assert "scheduling.k8s.io/v1alpha2 PodGroup is not served by Kubernetes 1.37" in newer.output
    assert "scheduling.k8s.io/v1beta1 and scheduling.k8s.io/v1alpha3" in newer.output


def test_a_malformed_quantity_in_the_cluster_kind_names_the_format(tmp_path):
    doc = tmp_path / "cluster.yaml"
    doc.write_text("apiVersion: wasplan.io/v1alpha1\nkind: Cluster\nmetadata: {name: c}\nspec:\n  nodePools:\n"
                   "  - name: gpu\n    count: 2\n    namePattern: 'gpu-{index}'\n"
                   "    allocatable: {cpu: '1.5.5', memory: 10Gi}\n")
    result = run("validate", str(doc))
    assert result.exit_code == 1
    assert (f"{doc}:9:19: error WAS107 \"spec.nodePools[0].allocatable.cpu\" is '1.5.5'; it must be a Kubernetes "
            "quantity such as 500m, 8, 1.5Gi or 1e3") in result.output


def test_sarif_output_for_code_scanning():
    result = run("validate", BROKEN, "-o", "sarif")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["version"] == "2.1.0"
    (sarif_run,) = data["runs"]
    rules = [r["id"] for r in sarif_run["tool"]["driver"]["rules"]]
    assert rules == sorted(set(rules)) and {"WAS101", "WAS105", "WAS109", "WAS201"} <= set(rules)
    first = sarif_run["results"][0]
    assert first["ruleId"] == "WAS101" and first["level"] == "error"
    assert rules[first["ruleIndex"]] == "WAS101"
    physical = first["locations"][0]["physicalLocation"]
    assert physical["artifactLocation"] == {"uri": "fixtures/manifests/broken-from-a-blog.yaml", "uriBaseId": "%SRCROOT%"}
    assert physical["region"] == {"startLine": 8, "startColumn": 3}
    assert first["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == "spec.minMatch"
    assert len(sarif_run["results"]) == 9
    rule = sarif_run["tool"]["driver"]["rules"][0]
    assert rule["helpUri"] == "https://github.com/wasplan/wasplan/blob/main/docs/rules.md#was101"
    assert rule["fullDescription"]["text"].startswith("The field does not exist in this API version.")
    assert sarif_run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == Path.cwd().as_uri() + "/"


def test_sarif_uris_are_relative_percent_encoded_and_stdin_has_a_pseudo_uri(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my manifests").mkdir()
    (tmp_path / "my manifests" / "pg#1.yaml").write_text("kind: PodGroup\n")
    data = json.loads(run("validate", "my manifests", "-o", "sarif", "--no-config").output)
    assert data["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "my%20manifests/pg%231.yaml", "uriBaseId": "%SRCROOT%"}
    data = json.loads(run("validate", "-", "-o", "sarif", "--no-config", stdin="kind: PodGroup\n").output)
    assert data["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "urn:wasplan:stdin"}


def test_a_command_run_imports_only_its_own_module():
    import subprocess
    import sys

    code = ("import sys; sys.argv = ['wasplan', 'validate', '--help']\n"
            "from wasplan.cli import app\n"
            "try:\n    app.main()\nexcept SystemExit:\n    pass\n"
            "print('engine' if 'wasplan.engine.simulator' in sys.modules else 'no-engine')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.stdout.strip().endswith("no-engine"), done.stdout + done.stderr
    assert "validate" in done.stdout


def test_lint_cluster_devices_compiler_style_and_exit_1(tmp_path):
    path = tmp_path / "gpus.yaml"
    path.write_text("apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: h100, namespace: ml}\n"
                    "spec:\n  spec:\n    devices:\n      requests:\n      - name: gpus\n"
                    "        exactly: {deviceClassName: gpu.example.com, count: 5}\n")
    result = run("lint", str(path), "--cluster", str(FIXTURES / "rules" / "dra-cluster.yaml"), "--no-config")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        f'{path}:9:53: error WAS429 request "gpus" asks for 5 devices, but no node reaches more than 4 of the 10 '
        "matching devices (e.g. node h100-0); the claim can never be allocated")
    assert "hint: lower count to 4, or split the request across pods" in result.stdout


def test_lint_reports_a_malformed_cluster_snapshot_once_at_its_line(tmp_path):
    """`lint --cluster` used to read a snapshot without checking it, so a bad field was silently ignored; it now
    reports what `plan` reports for the same snapshot (the schema finding, not also the record builder's)."""
    snapshot = tmp_path / "cluster.yaml"
    snapshot.write_text("apiVersion: wasplan.io/v1alpha1\nkind: Cluster\nmetadata: {name: x}\nspec:\n  nodePools:\n"
                        "  - name: n\n    count: 2\n    allocatable: {cpu: 4, memory: 8Gi, pods: 10}\n    devices:\n"
                        "    - driver: gpu.example.com\n      count: \"many\"\n")
    pod = tmp_path / "pod.yaml"
    pod.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n"
                   "  containers: [{name: m, image: x}]\n")
    result = run("lint", str(pod), "--cluster", str(snapshot), "--no-config")
    assert result.exit_code == 1
    errors = [line for line in result.output.splitlines() if " error " in line]
    assert errors == [f'{snapshot}:11:7: error WAS103 "spec.nodePools[0].devices[0].count" must be an integer, '
                      "not a string"]
    planned = run("plan", str(pod), "--cluster", str(snapshot), "--no-config")
    assert errors[0] in planned.output


def test_a_file_that_could_not_be_parsed_is_counted_in_the_summary(tmp_path):
    broken = tmp_path / "pod.yaml"
    broken.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: a\n  labels: [\n")
    result = run("validate", str(broken), GOOD)
    assert result.exit_code == 1, result.output
    assert f"{broken}:4:9: error WAS004 YAML syntax error" in result.output
    assert "FAILED: 7 documents, 7 valid, 0 invalid, 1 file not read; 1 error, 0 warnings (Kubernetes 1.37)" \
        in result.output
    summary = json.loads(run("validate", str(broken), GOOD, "-o", "json").output)["summary"]
    assert (summary["documents"], summary["unreadableFiles"], summary["errors"]) == (7, 1, 1)
