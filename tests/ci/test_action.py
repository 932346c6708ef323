"""action.yml: the composite action's steps, with their `${{ ... }}` expressions filled in as the runner would,
run locally in bash against real manifests (actions/setup-python and the SARIF upload are GitHub's own)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
STEPS = {step.get("id") or step.get("name") or step.get("uses"): step for step in ACTION["runs"]["steps"]}
BROKEN = ROOT / "fixtures" / "manifests" / "broken-from-a-blog.yaml"
GOOD = ROOT / "fixtures" / "manifests" / "training-1.37.yaml"


def _expand(text: str, inputs: dict, outputs: dict | None = None) -> str:
    def value(match: re.Match) -> str:
        expr = match.group(1).strip()
        if expr.startswith("inputs."):
            name = expr[len("inputs."):]
            return inputs.get(name, ACTION["inputs"][name].get("default", ""))
        if expr.startswith("steps.run.outputs."):
            return (outputs or {})[expr.rsplit(".", 1)[1]]
        raise AssertionError(f"unexpected expression {expr}")
    return re.sub(r"\$\{\{(.*?)\}\}", value, text)


def _run_step(inputs: dict, tmp_path: Path, **runner: str) -> tuple[subprocess.CompletedProcess, dict]:
    step = STEPS["run"]
    out = tmp_path / "github_output"
    out.write_text("")
    env = {**{k: v for k, v in os.environ.items() if k not in ("GITHUB_STEP_SUMMARY", "RUNNER_TEMP")}, **runner, **{k: _expand(v, inputs) for k, v in step["env"].items()}, "GITHUB_OUTPUT": str(out),
           "GITHUB_ACTION_PATH": str(ROOT), "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    script = tmp_path / "step.sh"
    script.write_text(step["run"])
    # how a runner executes `shell: bash` (docs: workflow syntax, jobs.<job_id>.steps[*].shell)
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    outputs = dict(line.split("=", 1) for line in out.read_text().splitlines())
    return done, outputs


def test_the_action_is_composite_with_the_documented_inputs():
    assert ACTION["runs"]["using"] == "composite"
    assert set(ACTION["inputs"]) == {"command", "paths", "cluster", "k8s-version", "args", "sarif", "python-version"}
    assert ACTION["runs"]["steps"][0]["uses"].startswith("actions/setup-python@")
    assert STEPS["Install wasplan"]["run"] == ('python -m pip install --disable-pip-version-check --quiet '
                                               '"$GITHUB_ACTION_PATH"')
    assert STEPS["Upload SARIF"]["uses"].startswith("github/codeql-action/upload-sarif@")
    assert STEPS["Upload SARIF"]["if"] == "always() && inputs.sarif != ''"


def test_validate_with_sarif_records_the_exit_code_and_writes_the_report(tmp_path):
    done, outputs = _run_step({"paths": str(BROKEN), "sarif": "out.sarif", "args": "--no-config"}, tmp_path)
    assert done.returncode == 0, done.stderr  # the step never fails itself, so the SARIF upload still runs
    assert outputs == {"exit-code": "1"}
    assert "FAILED: 3 documents, 0 valid, 3 invalid; 9 errors" in done.stdout
    sarif = json.loads((tmp_path / "out.sarif").read_text())
    assert len(sarif["runs"][0]["results"]) == 9
    fail = _expand(STEPS["Fail on findings"]["run"], {}, outputs)
    assert subprocess.run(["bash", "-c", fail]).returncode == 1


def test_plan_with_cluster_and_release(tmp_path):
    scenario = ROOT / "fixtures" / "examples"
    done, outputs = _run_step({"command": "plan", "paths": str(scenario / "training"), "k8s-version": "1.37",
                               "cluster": str(scenario / "cluster.yaml"), "args": "--no-config"}, tmp_path)
    assert outputs == {"exit-code": "0"}, done.stdout + done.stderr
    assert done.stdout.startswith("Plan for Kubernetes 1.37:")


def test_plan_appends_its_markdown_summary_to_the_step_summary(tmp_path):
    scenario = ROOT / "fixtures" / "scenarios" / "competing-gangs"
    summary = tmp_path / "step_summary.md"
    summary.write_text("earlier step\n")
    (tmp_path / "runner").mkdir()
    done, outputs = _run_step({"command": "plan", "paths": str(scenario / "manifests"), "args": "--no-config -o json",
                               "cluster": str(scenario / "cluster.yaml")}, tmp_path,
                              GITHUB_STEP_SUMMARY=str(summary), RUNNER_TEMP=str(tmp_path / "runner"))
    assert outputs == {"exit-code": "1"}, done.stderr
    assert json.loads(done.stdout)["summary"]["pending"] == 3
    text = summary.read_text()
    assert text.startswith("earlier step\n## wasplan plan: ❌ Does not fit\n")
    assert "| default/b | gang | 3 | 0/3 | ❌ Unschedulable | - | - |\n" in text


@pytest.mark.parametrize("inputs,code,message", [
    ({"command": "migrate-check", "paths": str(GOOD), "k8s-version": "1.37"}, "0", "0 files would be migrated"),
    ({"command": "migrate-check", "paths": str(GOOD), "k8s-version": "1.36"}, "1", "1 file would be migrated"),
    ({"command": "deploy"}, "2", "::error title=wasplan::unknown command 'deploy'"),
    ({"command": "plan", "sarif": "x.sarif"}, "2", "sarif is written by validate and lint only"),
])
def test_commands_and_refusals(tmp_path, inputs, code, message):
    done, outputs = _run_step({**inputs, "args": "--no-config"}, tmp_path)
    assert outputs == {"exit-code": code}
    assert message in done.stdout + done.stderr
