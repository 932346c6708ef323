"""The oracle (the real kube-scheduler, oracle/) on the project's own upstream-derived scenario fixtures.

Each test feeds a fixture to `oracle plan` exactly as the engine's tests feed it to `wasplan plan`
(tests/engine/test_preemption_cli.py, test_postfilter_messages.py, test_plan_cli.py, test_plan_topology_cli.py)
and asserts the fixture's expectation. Where upstream breaks a tie (equal node scores, equal placements) the
expected node must be the oracle's node or one of its `tiedNodes`. Where reading upstream showed the fixture's
expectation to be wrong, the assertion is upstream's, with the file that says so:

- TaintToleration's Filter reason in v1.36.5 and v1.37.2 is `node(s) had untolerated taint(s)` without the taint
  (pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go Filter);
- DynamicResources' PostFilter for a pod without claims says `no new claims to deallocate` in v1.36.5 and
  nothing in v1.37.2 (pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go PostFilter);
- a preemption victim's DisruptionTarget message is `<scheduler>: preempting to accommodate a higher priority
  pod` (pkg/scheduler/framework/preemption/preemption.go PreemptPod).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.oracle.conftest import oracle_plan
from tests.oracle.inputs import kubernetes_cluster

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SCENARIOS = FIXTURES / "scenarios"
RELEASES = ["1.36", "1.37"]


def plan(oracle_bin, paths, cluster, version, tmp_path, **kw):
    """The oracle's plan, once: a run ends only when no pod is left allowed at Permit but not yet bound
    (oracle/core/drive.go waitingAtPermit), which under load used to leave a racks-and-trees pod Gated."""
    objects = [kubernetes_cluster(cluster, tmp_path, version)]
    run = oracle_plan(oracle_bin, [str(p) for p in paths], objects, version, **kw)
    assert run.returncode in (0, 1), run.stderr
    return run.returncode, run.json


def by_name(doc):
    return {p["name"]: p for p in doc["pods"]}


def placed_as_expected(pod, node):
    return pod["status"] == "Bound" and (pod["node"] == node or node in pod.get("tiedNodes", []))


@pytest.mark.parametrize("version", RELEASES)
def test_preemption_evicts_the_unguarded_pod(oracle_bin, tmp_path, version):
    here = SCENARIOS / "preemption"
    code, doc = plan(oracle_bin, [here / "serving.yaml"], here / "cluster.yaml", version, tmp_path)
    assert code == 0
    assert doc["preemptions"] == [{"preemptor": {"kind": "Pod", "namespace": "default", "name": "web"},
                                   "victims": [{"namespace": "default", "name": "batch-a", "node": "node-a",
                                                "priority": 0, "podGroup": None}]}]
    pods = by_name(doc)
    assert (pods["batch-a"]["status"], pods["batch-a"]["reason"], pods["batch-a"]["message"]) == (
        "Preempted", "PreemptionByScheduler", "default-scheduler: preempting to accommodate a higher priority pod")
    assert (pods["web"]["status"], pods["web"]["node"], pods["web"]["nominatedNode"]) == ("Bound", "node-a", "node-a")
    assert pods["guarded-b"]["status"] == "AlreadyBound"
    assert doc["summary"]["preempted"] == 1


FIT_ERROR = "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu."
PREEMPTION = ("preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption "
              "victims found for incoming pod.")
DRA_POSTFILTER = {"1.36": " no new claims to deallocate, ", "1.37": " "}


@pytest.mark.parametrize("version", RELEASES)
def test_postfilter_message_of_a_pending_pod(oracle_bin, tmp_path, version):
    here = SCENARIOS / "postfilter"
    code, doc = plan(oracle_bin, [here / "web.yaml"], here / "cluster.yaml", version, tmp_path)
    assert code == 1
    web = by_name(doc)["web"]
    assert (web["status"], web["reason"]) == ("Pending", "Unschedulable")
    assert web["message"] == FIT_ERROR + DRA_POSTFILTER[version] + PREEMPTION


def test_profile_without_dynamic_resources(oracle_bin, tmp_path):
    here = SCENARIOS / "postfilter"
    _, doc = plan(oracle_bin, [here / "web.yaml"], here / "cluster.yaml", "1.36", tmp_path,
                  scheduler_config=here / "nodra.yaml")
    assert by_name(doc)["web"]["message"] == f"{FIT_ERROR} {PREEMPTION}"
    profile = doc["oracle"]["profiles"][0]
    assert "DynamicResources" not in [p["name"] for p in profile["plugins"]["Filter"]]


@pytest.mark.parametrize("arrival,winner,loser", [("sequential", "a", "b"), ("batch", "b", "a")])
def test_competing_gangs_one_gang_wins(oracle_bin, tmp_path, arrival, winner, loser):
    """Sequentially gang a completes first (a-2 arrives before b-2); in a batch gang b's PodGroup and first
    member come first, so b's entity is first in the queue. wasplan agrees in both modes."""
    here = SCENARIOS / "competing-gangs"
    code, doc = plan(oracle_bin, [here / "manifests"], here / "cluster.yaml", "1.37", tmp_path, arrival=arrival)
    assert code == 1
    status = {n: p["status"] for n, p in by_name(doc).items() if p["status"] != "AlreadyBound"}
    assert status == {**{f"{winner}-{i}": "Bound" for i in range(3)}, **{f"{loser}-{i}": "Pending" for i in range(3)}}
    groups = {g["name"]: (g["status"], g["condition"]) for g in doc["podGroups"]}
    assert groups[winner] == ("Scheduled", {"type": "PodGroupInitiallyScheduled", "status": "True",
                                            "reason": "Scheduled"})
    assert groups[loser][0] == "Unschedulable"


def test_same_input_same_bytes(oracle_bin, tmp_path):
    """Without placement ties (upstream picks among equal topology placements in map order, which no seed
    fixes: docs/oracle.md), reruns print the same bytes."""
    here = SCENARIOS / "competing-gangs"
    cluster = kubernetes_cluster(here / "cluster.yaml", tmp_path)
    first = oracle_plan(oracle_bin, [here / "manifests"], [cluster], "1.37", arrival="batch")
    second = oracle_plan(oracle_bin, [here / "manifests"], [cluster], "1.37", arrival="batch")
    assert first.returncode == 1, first.stderr
    assert first.stdout == second.stdout


def test_racks_and_trees_keeps_each_group_in_one_domain(oracle_bin, tmp_path):
    here = SCENARIOS / "racks-and-trees"
    code, doc = plan(oracle_bin, [here / "manifests"], here / "cluster.yaml", "1.37", tmp_path)
    assert code == 0
    pods = by_name(doc)
    assert all(pods[n]["status"] == "Bound" for n in pods if pods[n]["status"] != "AlreadyBound")
    train = {g["name"]: g for g in doc["podGroups"]}["train"]
    assert train["status"] == "Scheduled" and train["placement"]["topologyKey"] == "example.com/rack"
    racks = {pods[f"train-{i}"]["node"].rsplit("-", 1)[0] for i in range(4)}
    assert len(racks) == 1  # all four trainers in one rack, as the PodGroup's topology constraint says


def test_training_example_matches_wasplan_up_to_ties(oracle_bin, tmp_path):
    """The hand-written half of the training example (the Job half needs the Job controller, issue 22)."""
    from typer.testing import CliRunner
    import json

    from wasplan.cli.app import app

    cluster = FIXTURES / "examples" / "cluster.yaml"
    manifest = FIXTURES / "examples" / "training" / "finetune.yaml"
    code, doc = plan(oracle_bin, [manifest], cluster, "1.37", tmp_path)
    ours = json.loads(CliRunner().invoke(app, ["plan", str(manifest), "--cluster", str(cluster), "-o", "json"]).output)
    assert code == 0
    oracle_pods = by_name(doc)
    # a group with a topology constraint lands in any of the equally scored domains (upstream: map order), so
    # its members are compared by the domain's key, the others by node or tie set
    topo = {f"{g['namespace']}/{g['name']}" for g in ours["podGroups"] if g["placement"]}
    for pod in ours["pods"]:
        theirs = oracle_pods[pod["name"]]
        assert theirs["status"] == pod["status"], pod["name"]
        if pod["status"] == "Bound" and pod["podGroup"] not in topo:
            assert placed_as_expected(theirs, pod["node"]), (pod["name"], pod["node"], theirs)
    assert [(g["name"], g["status"], (g["placement"] or {}).get("topologyKey")) for g in doc["podGroups"]] == \
        [(g["name"], g["status"], (g["placement"] or {}).get("topologyKey")) for g in ours["podGroups"]]


def test_unsupported_kind_is_refused_with_its_file(oracle_bin, tmp_path):
    job = FIXTURES / "examples" / "training" / "pretrain-job.yaml"
    run = oracle_plan(oracle_bin, [job], [SCENARIOS / "preemption" / "cluster.yaml"], "1.37")
    assert run.returncode == 2
    assert "kind Job (batch/v1) is not one the oracle reads" in run.stderr and str(job) in run.stderr


def test_136_gang_member_preempting_pod_by_pod(oracle_bin, tmp_path):
    """tests/engine/test_postfilter_messages.py: with WorkloadAwarePreemption off, each 1.36 gang member gets the
    pod-by-pod PostFilter verdicts, and the PodGroup says the placement failed."""
    here = SCENARIOS / "postfilter"
    code, doc = plan(oracle_bin, [here / "gang.yaml"], here / "cluster.yaml", "1.36", tmp_path,
                     gates="WorkloadAwarePreemption=false")
    assert code == 1
    expected = FIT_ERROR + DRA_POSTFILTER["1.36"] + PREEMPTION
    assert {n: p["message"] for n, p in by_name(doc).items() if p["status"] == "Pending"} == \
        {"train-0": expected, "train-1": expected}
    group = doc["podGroups"][0]
    assert (group["status"], group["message"]) == (
        "Unschedulable", "0/1 placements are available, first placement status: pod group is unschedulable")
    assert group["condition"]["type"] == "PodGroupScheduled"


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_tied_blocks_alternatives_are_the_oracles_draws(oracle_bin, seed):
    """fixtures/scenarios/tied-blocks (issue 30): whichever block upstream's rand.Int() draws (ORACLE_SEED draws
    it another way), it is one of the placements wasplan names, with exactly that alternative's victims, and
    wasplan's tie set is the oracle's `tiedPlacements`."""
    from tests.oracle import compare

    here = SCENARIOS / "tied-blocks"
    ours = compare.run_wasplan(here / "train.yaml", here / "cluster.yaml", "1.37", "sequential", "")
    theirs = compare.run_oracle(str(oracle_bin), here / "train.yaml", here / "cluster.yaml", "1.37", "sequential",
                                "", seed=seed)
    result = compare.compare(ours, theirs)
    assert result.agree, result.differences
    (group,) = theirs["podGroups"]
    assert [p["name"] for p in group["tiedPlacements"]] == ["block-0", "block-1", "block-2"]


@pytest.mark.parametrize("version", RELEASES)
def test_single_pod_preemption_tie_is_the_oracles_draw(oracle_bin, tmp_path, version):
    """Two nodes, each running one equal victim started in the same second: upstream's pickOneNodeForPreemption
    takes either (a Go map's order; seeds 1-6 give both victims), and every victim it takes is one of wasplan's
    alternatives."""
    from tests.engine.test_ties import WEB, two_nodes
    from tests.oracle import compare

    start = "2026-01-01T00:00:00Z"
    (tmp_path / "cluster.yaml").write_text(two_nodes(start, start))
    (tmp_path / "web.yaml").write_text(WEB)
    ours = compare.run_wasplan(tmp_path / "web.yaml", tmp_path / "cluster.yaml", version, "sequential", "")
    (preemption,) = ours["preemptions"]
    alternatives = {tuple(a["victims"]) for a in preemption["alternatives"]}
    drawn = set()
    for seed in range(1, 7):
        theirs = compare.run_oracle(str(oracle_bin), tmp_path / "web.yaml", tmp_path / "cluster.yaml", version,
                                    "sequential", "", seed=seed)
        (upstream,) = theirs["preemptions"]
        drawn.add(tuple(f"{v['namespace']}/{v['name']}" for v in upstream["victims"]))
    assert drawn <= alternatives
    assert alternatives == {("default/batch-a",), ("default/batch-b",)}
