"""`wasplan plan` with preemption end to end: the JSON `preemptions[]` and `Preempted` status, `--fail-on
preemption`, `--no-preemption`, and `--emit-snapshot` without the victims.

The fixture (fixtures/scenarios/preemption) follows DefaultPreemption's node choice in
pkg/scheduler/framework/preemption/preemption.go: the node whose victim a PodDisruptionBudget protects loses to
the node whose victim it does not, although that victim started earlier.
"""

import json
from pathlib import Path

import yaml
from typer.testing import CliRunner

from wasplan.cli import plan_cmd  # noqa: F401
from wasplan.cli.app import app

HERE = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "preemption"
ARGS = [str(HERE / "serving.yaml"), "--cluster", str(HERE / "cluster.yaml")]


def plan(*args: str):
    return CliRunner().invoke(app, ["plan", *ARGS, *args])


def test_json_lists_the_preemption_and_the_preempted_pod():
    result = plan("-o", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["preemptions"] == [{"preemptor": {"kind": "Pod", "namespace": "default", "name": "web"},
                                   "victims": [{"namespace": "default", "name": "batch-a", "node": "node-a",
                                                "priority": 0, "podGroup": None}]}]
    pods = {p["name"]: p for p in doc["pods"]}
    assert (pods["batch-a"]["status"], pods["batch-a"]["reason"]) == ("Preempted", "PreemptionByScheduler")
    assert (pods["web"]["status"], pods["web"]["node"], pods["web"]["nominatedNode"]) == ("Bound", "node-a", "node-a")
    assert pods["guarded-b"]["status"] == "AlreadyBound"
    assert doc["summary"]["preempted"] == 1


def test_fail_on_preemption_exits_1_and_text_names_the_victims():
    result = plan("--fail-on", "preemption")
    assert result.exit_code == 1
    assert "Pod default/web evicts default/batch-a on node-a (priority 0)" in result.output
    assert plan("--fail-on", "pending").exit_code == 0


def test_no_preemption_leaves_the_pod_pending():
    result = plan("--no-preemption", "-o", "json")
    assert result.exit_code == 1  # --fail-on pending by default
    doc = json.loads(result.output)
    assert doc["preemptions"] == []
    web = next(p for p in doc["pods"] if p["name"] == "web")
    assert (web["status"], web["message"]) == (
        "Pending", "0/2 nodes are available: 2 Insufficient cpu.")
    assert plan("--no-preemption", "--fail-on", "preemption").exit_code == 1  # the pending pod still counts
    assert plan("--no-preemption", "--fail-on", "never").exit_code == 0


def test_no_preemption_snapshot_still_keeps_the_budget(tmp_path):
    after = tmp_path / "after.yaml"
    plan("--no-preemption", "--emit-snapshot", str(after))
    kinds = [i["kind"] for i in yaml.safe_load(after.read_text())["items"]]
    assert kinds.count("PodDisruptionBudget") == 1 and kinds.count("Pod") == 3


def test_emitted_snapshot_has_no_victims_but_keeps_the_budget(tmp_path):
    after = tmp_path / "after.yaml"
    assert plan("--emit-snapshot", str(after)).exit_code == 0
    items = yaml.safe_load(after.read_text())["items"]
    pods = {i["metadata"]["name"]: i["spec"].get("nodeName") for i in items if i["kind"] == "Pod"}
    assert pods == {"guarded-b": "node-b", "web": "node-a"}
    budgets = [i for i in items if i["kind"] == "PodDisruptionBudget"]
    assert [(b["metadata"]["name"], b["spec"]["minAvailable"]) for b in budgets] == [("guarded", 1)]
    # a second serving pod finds only the guarded pod below it and still takes it (the only candidate)
    second = tmp_path / "second.yaml"
    second.write_text((HERE / "serving.yaml").read_text().replace("name: web", "name: web-2"))
    again = CliRunner().invoke(app, ["plan", str(second), "--cluster", str(after), "-o", "json"])
    doc = json.loads(again.output)
    assert [v["name"] for p in doc["preemptions"] for v in p["victims"]] == ["guarded-b"]
