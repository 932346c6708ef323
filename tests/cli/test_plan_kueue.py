"""`wasplan plan` with Kueue's objects among the inputs: Kueue's admission runs before kube-scheduler
(pipeline/kueue_stage.py). Admitted Jobs' pods land on their flavors' nodes, the others wait with Kueue's own
reason and message, the plan JSON carries the `kueue` block the Kueue oracle prints (fixtures/kueue-scenarios/
expected.yaml), and the text output has the ClusterQueue table."""

from __future__ import annotations

import json

import pytest
import yaml

from tests.cli.helpers import run
from tests.conftest import FIXTURES
from tests.oracle.test_kueue_oracle import facts, key

PLAN = FIXTURES / "kueue-plan"
SCENARIOS = FIXTURES / "kueue-scenarios"
EXPECTED = yaml.safe_load((SCENARIOS / "expected.yaml").read_text())
TAS = {"tas-rack"}  # topology-aware scheduling: named as not modelled by the admission model


def _plan_json(*args: str) -> tuple[int, dict]:
    result = run("plan", *args, "-o", "json")
    return result.exit_code, json.loads(result.stdout)


def _scenario_args(name: str) -> list[str]:
    scenario = EXPECTED[name]
    args = [str(FIXTURES.parent / f) for f in scenario["files"]]
    # Kueue's quota admission reads no node; a scenario without a snapshot of its own gets the plan fixture's
    for cluster in scenario.get("clusters", [PLAN / "cluster.yaml"]):
        args += ["--cluster", str(FIXTURES.parent / cluster)]
    return args


@pytest.mark.parametrize("name", sorted(set(EXPECTED) - TAS))
def test_plan_json_kueue_block_is_what_kueue_decides(name):
    _, plan = _plan_json(*_scenario_args(name))
    scenario = EXPECTED[name]
    got = {key(w): facts(w) for w in plan["kueue"]["workloads"]}
    assert sorted(got) == sorted(scenario["workloads"])
    for wl, want in scenario["workloads"].items():
        assert {f: got[wl].get(f) for f in want} == want, wl
    queues = {cq["name"]: cq for cq in plan["kueue"]["clusterQueues"]}
    for cq, want in scenario.get("clusterQueues", {}).items():
        assert {f: queues[cq][f] for f in want} == want, cq


def test_admitted_jobs_land_on_their_flavors_nodes_and_the_rest_wait_with_kueues_reason():
    code, plan = _plan_json(str(PLAN / "jobs.yaml"), str(PLAN / "setup.yaml"), "--cluster", str(PLAN / "cluster.yaml"))
    assert code == 1  # `third` is pending
    nodes = {}
    for pod in plan["pods"]:
        nodes.setdefault(pod["owner"]["name"], set()).add((pod["status"], pod["node"]))
    assert nodes == {"first": {("Bound", "od-0")}, "second": {("Bound", "spot-0"), ("Bound", "spot-1")},
                     "third": {("WaitingForAdmission", None)}}
    third = next(p for p in plan["pods"] if p["owner"]["name"] == "third")
    assert third["reason"] == "KueueAdmission"
    assert third["message"] == (
        "waiting for Kueue to admit it (LocalQueue ml/queue): Workload job-third-31831 in ClusterQueue team is "
        "Pending: couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor on-demand, "
        "4 more needed, insufficient unused quota for cpu in flavor spot, 2 more needed")
    assert plan["kueue"]["clusterQueues"] == [
        {"name": "team", "cohort": None, "admitted": 2, "pending": 1,
         "usage": {"on-demand": {"cpu": {"nominal": "4", "used": "4", "borrowed": "0"}},
                   "spot": {"cpu": {"nominal": "8", "used": "6", "borrowed": "0"}}}}]
    assert [(w["owner"]["name"], w["status"], w["podSets"][0]["flavors"]) for w in plan["kueue"]["workloads"]] == [
        ("first", "Admitted", {"cpu": "on-demand"}), ("second", "Admitted", {"cpu": "spot"}),
        ("third", "Pending", {})]


def test_text_output_has_the_cluster_queue_table_and_the_workloads_not_admitted():
    result = run("plan", str(PLAN / "jobs.yaml"), str(PLAN / "setup.yaml"), "--cluster", str(PLAN / "cluster.yaml"),
                 "--fail-on", "pending", env={"COLUMNS": "400"})
    assert result.exit_code == 1  # a workload Kueue does not admit is pending
    out = result.stdout
    table = out[out.index("Kueue ClusterQueues"):out.index("Not admitted by Kueue")].splitlines()
    assert table == [
        "Kueue ClusterQueues",
        "clusterQueue  cohort  flavor     resource  quota  used  borrowed  admitted  pending",
        "team          -       on-demand  cpu       4      4     0         2         1",
        "                      spot       cpu       8      6     0"]
    assert ("  ml/job-third-31831 (Job third), LocalQueue queue, ClusterQueue team: Pending: couldn't assign flavors "
            "to pod set main: insufficient unused quota for cpu in flavor on-demand, 4 more needed, insufficient "
            "unused quota for cpu in flavor spot, 2 more needed") in out
    assert "4 pods wait for Kueue's admission (see Not admitted by Kueue)." in out
    assert ("jobs.yaml:7:12: info WAS690 Job ml/first is admitted by Kueue: Workload job-first-d3b58 in ClusterQueue "
            "team is Admitted (podset main: nodeSelector pool=on-demand)") in result.stderr


def test_admitted_but_no_node_of_the_flavor_is_a_disagreement():
    result = run("plan", str(PLAN / "jobs.yaml"), str(PLAN / "setup.yaml"), "--cluster",
                  str(PLAN / "no-spot-nodes.yaml"), env={"COLUMNS": "300"})
    assert ("warning WAS695 Job ml/second is admitted by Kueue to ClusterQueue team, but kube-scheduler leaves 6 of "
            "its pods pending (second-0: 0/1 nodes are available: 1 node(s) didn't match Pod's node "
            "affinity/selector.)") in result.stderr


def test_all_admitted_and_placed_passes_fail_on_pending(tmp_path):
    jobs = yaml.safe_load_all((PLAN / "jobs.yaml").read_text())
    two = tmp_path / "two.yaml"
    two.write_text(yaml.safe_dump_all([j for j in jobs if j["metadata"]["name"] != "third"]))
    result = run("plan", str(two), str(PLAN / "setup.yaml"), "--cluster", str(PLAN / "cluster.yaml"),
                 "--fail-on", "pending")
    assert result.exit_code == 0, result.output
    assert "Not admitted by Kueue" not in result.stdout


def test_assume_admitted_overrides_kueue():
    code, plan = _plan_json(str(PLAN / "jobs.yaml"), str(PLAN / "setup.yaml"), "--cluster", str(PLAN / "cluster.yaml"),
                            "--assume-admitted")
    assert "kueue" not in plan
    assert all(p["status"] != "WaitingForAdmission" for p in plan["pods"])


def test_without_a_cluster_queue_the_message_names_the_kubectl_command():
    result = run("plan", str(PLAN / "jobs.yaml"), "--cluster", str(PLAN / "cluster.yaml"), env={"COLUMNS": "400"})
    assert "warning WAS624 Job ml/first is managed by Kueue" in result.stderr
    assert ("`kubectl get clusterqueues,localqueues,resourceflavors,cohorts,workloadpriorityclasses,topologies,"
            "workloads -A -o yaml`") in result.stderr
    assert '"kueue"' not in run("plan", str(PLAN / "jobs.yaml"), "-o", "json").stdout


def test_what_the_model_does_not_model_is_named_and_fails_pending():
    result = run("plan", *_scenario_args("tas-rack"), "--fail-on", "pending", env={"COLUMNS": "300"})
    assert result.exit_code == 1
    assert ("warning WAS692 not modelled in Kueue's admission: topology-aware scheduling (TAS): flavors tas name a "
            "Topology; quota is modelled, topology domains are not; Kueue's decisions may differ from the plan's"
            ) in result.stderr
    assert "Kueue: not modelled: topology-aware scheduling (TAS)" in result.stdout
