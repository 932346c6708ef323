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
from tests.kueue_known import marked
from tests.oracle.test_kueue_oracle import facts, key

PLAN = FIXTURES / "kueue-plan"
SCENARIOS = FIXTURES / "kueue-scenarios"
EXPECTED = yaml.safe_load((SCENARIOS / "expected.yaml").read_text())


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


# Scenarios the Kueue oracle takes in through its fake client, which Kueue's API server would refuse: plan
# refuses them too, as invalid inputs (test_scenarios_kueue_would_refuse_are_refused).
REFUSED = {"first-cycle-retry": "WAS104", "negative-reservation": "WAS242", "skipped-retries-all-flavors": "WAS104"}


@pytest.mark.parametrize("name", marked(sorted(set(EXPECTED) - set(REFUSED))))
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


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_scenarios_kueue_would_refuse_are_refused(name):
    result = run("plan", *_scenario_args(name))
    assert result.exit_code == 2
    assert f"error {REFUSED[name]} " in result.stderr


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


def test_kueues_deployment_sample_is_admitted_pod_by_pod_and_quota_is_not_capacity():
    """Kueue's own Deployment sample, queued through its pod template: each of its pods is a single-pod Workload;
    the 9-CPU quota admits all three 3-CPU pods, the one untainted 4-CPU node holds one (WAS695)."""
    result = run("plan", str(FIXTURES / "kueue" / "sample-deployment.yaml"),
                 str(SCENARIOS / "setup" / "single-clusterqueue-setup.yaml"), "--cluster", str(PLAN / "cluster.yaml"),
                 "--fail-on", "pending", env={"COLUMNS": "400"})
    assert result.exit_code == 1
    assert ("info WAS690 Deployment default/nginx-deployment is admitted by Kueue: 3 Workloads "
            "(pod-nginx-deployment-7f86767c64-0-c17ba, pod-nginx-deployment-7f86767c64-1-7c5e2, "
            "pod-nginx-deployment-7f86767c64-2-c7639) in ClusterQueue cluster-queue") in result.stderr
    assert ("warning WAS695 Deployment default/nginx-deployment is admitted by Kueue to ClusterQueue cluster-queue, "
            "but kube-scheduler leaves 2 of its pods pending (nginx-deployment-7f86767c64-1: 0/3 nodes are "
            "available: 1 Insufficient cpu, 2 node(s) had untolerated taint(s).") in result.stderr
    assert "WAS692" not in result.stderr and "not modelled" not in result.stdout


def test_pod_based_workloads_land_on_their_own_flavors_nodes():
    """Each pod of a Deployment is its own Workload, so its pods can be admitted on different flavors (verified
    against the Kueue oracle); a LeaderWorkerSet group's pods follow their group's; a pod group waits whole."""
    code, plan = _plan_json(str(PLAN / "pods.yaml"), str(PLAN / "setup.yaml"), "--cluster", str(PLAN / "cluster.yaml"))
    assert code == 1
    assert [(p["name"], p["status"], p["node"]) for p in plan["pods"]] == [
        ("llm-0", "Bound", "spot-1"), ("llm-0-1", "Bound", "spot-1"), ("llm-0-2", "Bound", "spot-0"),
        ("train-0", "WaitingForAdmission", None), ("train-1", "WaitingForAdmission", None),
        ("web-8497c8df44-0", "Bound", "od-0"), ("web-8497c8df44-1", "Bound", "od-0"),
        ("web-8497c8df44-2", "Bound", "spot-0")]
    assert [(w["name"], w["status"], [p["flavors"] for p in w["podSets"]]) for w in plan["kueue"]["workloads"]] == [
        ("leaderworkerset-llm-0-4eef3", "Admitted", [{"cpu": "spot"}, {"cpu": "spot"}]),
        ("pod-web-8497c8df44-0-dceea", "Admitted", [{"cpu": "on-demand"}]),
        ("pod-web-8497c8df44-1-b5e7b", "Admitted", [{"cpu": "on-demand"}]),
        ("pod-web-8497c8df44-2-f9e5b", "Admitted", [{"cpu": "spot"}]),
        ("train", "Pending", [{}])]
    train = next(p for p in plan["pods"] if p["name"] == "train-0")
    assert train["message"] == (
        "waiting for Kueue to admit it (LocalQueue ml/queue, pod group train): Workload train in ClusterQueue team "
        "is Pending: couldn't assign flavors to pod set d58b4542: insufficient unused quota for cpu in flavor "
        "on-demand, 4 more needed, insufficient unused quota for cpu in flavor spot, 3 more needed")


def test_a_deployment_partly_admitted_names_what_waits():
    result = run("plan", str(FIXTURES.parent / "fixtures/kueue-scenarios/pods/deployment.yaml"), "--cluster",
                 str(FIXTURES.parent / "fixtures/kueue-scenarios/setup/nodes.yaml"), env={"COLUMNS": "400"})
    assert ("warning WAS691 Deployment default/batch is partly admitted by Kueue (LocalQueue default/serving): "
            "Workload pod-batch-6f7789f77-1-5c698 in ClusterQueue serving is Pending: couldn't assign flavors to "
            "pod set main: insufficient unused quota for cpu in flavor default-flavor, 1 more needed; 1 of its pods "
            "waits") in result.stderr
    assert ("info WAS690 Deployment default/batch is admitted by Kueue: Workload pod-batch-6f7789f77-0-11a95 in "
            "ClusterQueue serving is Admitted; 1 of its 2 pods") in result.stderr


def test_topology_aware_scheduling_pins_each_pod_to_its_domain():
    code, plan = _plan_json(*_scenario_args("tas-rack"))
    assert [(p["name"], p["node"]) for p in plan["pods"] if p["owner"]["name"] == "in-one-rack"] == [
        ("in-one-rack-0", "n1"), ("in-one-rack-1", "n2")]
    assert all(p["status"] == "WaitingForAdmission" for p in plan["pods"] if p["owner"]["name"] == "too-wide")


def test_kueue_topology_beside_a_podgroup_topology_is_named(tmp_path):
    text = (SCENARIOS / "tas-rack.yaml").read_text().replace(
        "  parallelism: 2\n  completions: 2\n  suspend: true\n",
        "  parallelism: 2\n  completions: 2\n  completionMode: Indexed\n  suspend: true\n  scheduling:\n"
        "    schedulingPolicy: {gang: {}}\n    schedulingConstraints:\n"
        "      topology: [{key: topology.example.com/block}]\n", 1)
    path = tmp_path / "both.yaml"
    path.write_text(text)
    result = run("plan", str(path), "--cluster", str(PLAN / "cluster.yaml"), env={"COLUMNS": "400"})
    assert ("warning WAS696 Job default/in-one-rack: Kueue's topology-aware scheduling pins its pods to domains of "
            "kubernetes.io/hostname, and its PodGroup's schedulingConstraints.topology (topology.example.com/block) "
            "constrains them too") in result.stderr


def test_markdown_and_html_show_the_queues():
    args = [str(PLAN / "jobs.yaml"), str(PLAN / "setup.yaml"), "--cluster", str(PLAN / "cluster.yaml")]
    markdown = run("plan", *args, "-o", "markdown").stdout
    section = markdown[markdown.index("### Kueue ClusterQueues (1)"):markdown.index("### PodGroups")]
    assert section.splitlines()[2:6] == [
        "| clusterQueue | cohort | flavor | resource | quota | used | borrowed | admitted | pending |",
        "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |",
        "| team | - | on-demand | cpu | 4 | 4 | 0 | 2 | 1 |",
        "|  |  | spot | cpu | 8 | 6 | 0 |  |  |"]
    assert "- ml/job-third-31831 (Job third), LocalQueue queue, ClusterQueue team: Pending: couldn't assign" in section
    page = run("plan", *args, "-o", "html").stdout
    assert ('<tr><td>team</td><td>-</td><td>on-demand</td><td>cpu</td><td>4</td><td>4</td><td>0</td><td>2</td>'
            '<td>1</td></tr><tr><td></td><td></td><td>spot</td><td>cpu</td><td>8</td><td>6</td><td>0</td><td></td>'
            '<td></td></tr>') in page
    assert "ml/job-third-31831 (Job third), LocalQueue queue, ClusterQueue team: Pending: couldn&#39;t assign" in page
    without = run("plan", str(PLAN / "jobs.yaml"), "--cluster", str(PLAN / "cluster.yaml"), "-o", "markdown").stdout
    assert "Kueue ClusterQueues" not in without


def test_explain_names_the_smallest_changes_that_admit_a_held_job():
    result = run("explain", "job/third", "-n", "ml", str(PLAN / "jobs.yaml"), str(PLAN / "setup.yaml"),
                 str(PLAN / "more-queues.yaml"), "--cluster", str(PLAN / "cluster.yaml"), "-o", "json")
    target = json.loads(result.stdout)["targets"][0]
    assert target["verdict"] == "WaitingForAdmission"
    assert target["summary"].startswith("waiting for Kueue to admit it (LocalQueue ml/queue): Workload "
                                        "job-third-31831 in ClusterQueue team is Pending: couldn't assign flavors")
    got = [(s["kind"], s["title"], [(c["file"].rsplit("/", 1)[-1], c["line"], c["fieldPath"], c["value"])
                                    for c in s["changes"]]) for s in target["suggestions"]]
    assert got == [
        ("kueueQuota", "raise ClusterQueue team's nominalQuota of cpu in flavor spot from 8 to 10",
         [("setup.yaml", 29, "spec.resourceGroups[0].flavors[1].resources[0].nominalQuota", "10")]),
        ("kueuePriority", "give Job third WorkloadPriorityClass routine (priority 10)",
         [("jobs.yaml", 43, "metadata.labels.kueue.x-k8s.io/priority-class", "routine")]),
        ("kueueLocalQueue", "send Job third to LocalQueue ml/spare",
         [("jobs.yaml", 43, "metadata.labels.kueue.x-k8s.io/queue-name", "spare")]),
    ]
    assert all(s["why"] == "re-running Kueue's admission with the change admits Workload job-third-31831"
               for s in target["suggestions"])


def test_each_explain_suggestion_admits_when_applied(tmp_path):
    """The suggested quota, applied to the file, makes the plan admit the Job (and one less does not)."""
    for quota, admitted in (("10", True), ("9", False)):
        setup = (PLAN / "setup.yaml").read_text().replace("resources: [{name: cpu, nominalQuota: 8}]",
                                                          f"resources: [{{name: cpu, nominalQuota: {quota}}}]")
        path = tmp_path / f"setup-{quota}.yaml"
        path.write_text(setup)
        _, plan = _plan_json(str(PLAN / "jobs.yaml"), str(path), "--cluster", str(PLAN / "cluster.yaml"))
        status = {w["owner"]["name"]: w["status"] for w in plan["kueue"]["workloads"]}
        assert (status["third"] == "Admitted") is admitted, quota


def test_a_queued_kind_whose_workload_the_model_does_not_build_makes_the_plan_incomplete():
    """Kueue's sample PyTorchJob queued beside the Jobs: Kueue would build its Workload and count its quota; the
    model cannot, so the plan names it (WAS692) and `--fail-on pending` fails; the Jobs are still admitted as
    without it. With the snapshot's Workload owned by it (kubectl get workloads), its quota is read as written and
    nothing is said."""
    args = [str(PLAN / "pytorchjob.yaml"), str(PLAN / "jobs.yaml"), str(PLAN / "setup.yaml"),
            "--cluster", str(PLAN / "cluster.yaml")]
    result = run("plan", *args, "-o", "json")
    assert ("<plan>: warning WAS692 not modelled in Kueue's admission: the Workloads Kueue builds for PyTorchJob "
            "ml/pytorch-simple (an integration whose Workloads the model does not build): the quota they would "
            "hold or wait for is not counted; Kueue's decisions may differ from the plan's") in result.stderr
    assert [(w["name"], w["status"]) for w in json.loads(result.stdout)["kueue"]["workloads"]] == [
        (w["name"], w["status"]) for w in _plan_json(*args[1:])[1]["kueue"]["workloads"]]
    assert run("plan", *args, "--fail-on", "pending").exit_code == 1


def test_a_snapshot_workload_owned_by_that_kind_is_read_as_written(tmp_path):
    workload = tmp_path / "workloads.yaml"
    workload.write_text(
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  name: pytorchjob-pytorch-simple-1a2b3\n"
        "  namespace: ml\n  ownerReferences: [{apiVersion: kubeflow.org/v1, kind: PyTorchJob, name: pytorch-simple,"
        " uid: 5b3c, controller: true}]\nspec:\n  queueName: queue\n  podSets:\n  - name: master\n    count: 1\n"
        "    template:\n      spec:\n        containers: [{name: pytorch, image: x, resources: {requests: {cpu: '1'}}}]\n")
    result = run("plan", str(PLAN / "pytorchjob.yaml"), str(PLAN / "setup.yaml"), "--cluster",
                 str(PLAN / "cluster.yaml"), "--cluster", str(workload), "-o", "json")
    assert "WAS692" not in result.stderr
    assert [w["name"] for w in json.loads(result.stdout)["kueue"]["workloads"]] == ["pytorchjob-pytorch-simple-1a2b3"]
