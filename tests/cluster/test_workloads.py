"""JobSet, LeaderWorkerSet, Deployment, ReplicaSet and StatefulSet planned from the projects' own published
examples (fixtures/workloads/, each citing its source): exact pod names, owners, groups and nodes."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from tests.cli.helpers import run

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "workloads"
CLUSTER = str(FIXTURES / "cluster.yaml")


def plan(*manifests: str, extra: tuple[str, ...] = ()) -> tuple[int, dict]:
    """Fixture names, absolute paths or one inline manifest (read from stdin)."""
    inline = next((m for m in manifests if "\n" in m), None)
    paths = ["-" if "\n" in m else m if m.startswith("/") else str(FIXTURES / m) for m in manifests]
    result = run("plan", *paths, "--cluster", CLUSTER, "-o", "json", *extra, stdin=inline)
    return result.exit_code, json.loads(result.stdout)


def placed(doc: dict) -> list[tuple[str, str, str | None]]:
    return [(p["name"], p["status"], p["node"]) for p in doc["pods"]]


def test_jobset_gang_example_joins_its_hand_written_podgroup_on_136():
    code, doc = plan("jobset-gang.yaml", extra=("--k8s-version", "1.36"))
    assert code == 0
    [group] = doc["podGroups"]
    assert (group["name"], group["policy"], group["minCount"], group["status"]) == \
        ("js-abc-workers-def", "gang", 6, "Scheduled")
    assert group["pods"] == [f"default/js-rj-{j}-{i}" for j in range(3) for i in range(2)]
    # the last pod completes the gang's quorum and enters activeQ first, so the 1.36 cycle places it first
    assert placed(doc) == [("js-rj-0-0", "Bound", "node-0-1"), ("js-rj-0-1", "Bound", "node-0-2"),
                           ("js-rj-1-0", "Bound", "node-0-3"), ("js-rj-1-1", "Bound", "node-1-0"),
                           ("js-rj-2-0", "Bound", "node-1-1"), ("js-rj-2-1", "Bound", "node-0-0")]
    assert doc["pods"][2]["owner"] == {"kind": "JobSet", "name": "js", "chain": [{"kind": "Job", "name": "js-rj-1"}]}


def test_jobset_exclusive_placement_puts_each_job_in_its_own_node_pool():
    code, doc = plan("jobset-exclusive-placement.yaml")
    assert code == 0
    by_job = {}
    for name, status, node in placed(doc):
        assert status == "Bound"
        by_job.setdefault(name.rsplit("-", 1)[0], set()).add(node.rsplit("-", 1)[0])
    assert by_job == {"exclusive-placement-workers-0": {"node-0"}, "exclusive-placement-workers-1": {"node-1"},
                      "exclusive-placement-workers-2": {"node-2"}}


def test_jobset_exclusive_placement_with_too_few_pools_leaves_a_job_without_a_domain(tmp_path):
    four = (FIXTURES / "jobset-exclusive-placement.yaml").read_text().replace("replicas: 3 #", "replicas: 4 #")
    (tmp_path / "js.yaml").write_text(four)
    code, doc = plan(str(tmp_path / "js.yaml"))
    assert code == 1
    pods = {p["name"]: p for p in doc["pods"]}
    assert pods["exclusive-placement-workers-3-0"]["status"] == "Pending"
    assert pods["exclusive-placement-workers-3-1"]["status"] == "Gated"
    assert pods["exclusive-placement-workers-3-1"]["message"] == (
        "not created: JobSet exclusive placement: a follower pod is admitted once its leader (completion index 0) "
        "is scheduled")


def test_jobset_in_order_startup_creates_workers_after_the_driver_runs(tmp_path):
    code, doc = plan("jobset-startup-in-order.yaml")
    assert code == 0 and [p[0] for p in placed(doc)] == [
        "startup-driver-ready-driver-0-0", *(f"startup-driver-ready-workers-0-{i}" for i in range(4))]
    huge = (FIXTURES / "jobset-startup-in-order.yaml").read_text().replace(
        "            - sleep\n              args:\n                - 1000s",
        "            - sleep\n              resources: {requests: {cpu: '64'}}")
    (tmp_path / "js.yaml").write_text(huge)
    code, doc = plan(str(tmp_path / "js.yaml"))
    assert code == 1
    statuses = {p["name"]: (p["status"], p["message"]) for p in doc["pods"]}
    assert statuses["startup-driver-ready-driver-0-0"][0] == "Pending"
    assert statuses["startup-driver-ready-workers-0-3"] == ("Gated", (
        "not created: JobSet startupPolicy InOrder: created once every pod of replicated job driver runs"))


def test_lws_groups_leader_then_workers_with_labels_and_exclusive_pools():
    code, doc = plan("lws-exclusive-placement.yaml")
    assert code == 0
    # the leader first, then its workers, all in the leader's exclusive pool (which node of the pool each worker
    # takes is the scores' business: NodeResourcesBalancedAllocation, tests/engine/test_balanced_allocation.py)
    first = placed(doc)[:4]
    assert first[0] == ("leaderworkerset-sample-0", "Bound", "node-0-0")
    assert [(name, status) for name, status, _ in first[1:]] == [
        (f"leaderworkerset-sample-0-{i}", "Bound") for i in (1, 2, 3)]
    assert {n.rsplit("-", 1)[0] for _, _, n in first} == {"node-0"}
    assert {n.rsplit("-", 1)[0] for name, _, n in placed(doc) if name.startswith("leaderworkerset-sample-2")} == \
        {"node-2"}
    worker = next(p for p in doc["pods"] if p["name"] == "leaderworkerset-sample-1-2")
    assert worker["owner"] == {"kind": "LeaderWorkerSet", "name": "leaderworkerset-sample", "chain": [
        {"kind": "StatefulSet", "name": "leaderworkerset-sample"}, {"kind": "Pod", "name": "leaderworkerset-sample-1"},
        {"kind": "StatefulSet", "name": "leaderworkerset-sample-1"}]}


def test_lws_without_exclusive_placement_spreads_by_score():
    code, doc = plan("lws.yaml")
    assert code == 0 and len(doc["pods"]) == 12
    # the nodes follow the scores (NodeResourcesBalancedAllocation scores the change a pod makes to a node's
    # balance, tests/engine/test_balanced_allocation.py)
    assert placed(doc)[:5] == [("leaderworkerset-sample-0", "Bound", "node-0-0"),
                               ("leaderworkerset-sample-0-1", "Bound", "node-0-1"),
                               ("leaderworkerset-sample-0-2", "Bound", "node-0-1"),
                               ("leaderworkerset-sample-0-3", "Bound", "node-0-1"),
                               ("leaderworkerset-sample-1", "Bound", "node-0-0")]


def test_deployment_replicaset_statefulset_pods_and_owners():
    code, doc = plan("deployment.yaml", "replicaset.yaml", "statefulset.yaml")
    assert code == 0
    assert [p["name"] for p in doc["pods"]] == [
        "frontend-0", "frontend-1", "frontend-2", "nginx-deployment-67fcb6756f-0", "nginx-deployment-67fcb6756f-1",
        "nginx-deployment-67fcb6756f-2", "web-0", "web-1"]
    owners = {p["name"]: p["owner"] for p in doc["pods"]}
    assert owners["nginx-deployment-67fcb6756f-0"] == {"kind": "Deployment", "name": "nginx-deployment", "chain": [
        {"kind": "ReplicaSet", "name": "nginx-deployment-67fcb6756f"}]}
    assert owners["frontend-1"] == {"kind": "ReplicaSet", "name": "frontend"}
    assert owners["web-1"] == {"kind": "StatefulSet", "name": "web"}


STS_GANG = """\
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: serving}
spec: {schedulingPolicy: {gang: {minCount: 2}}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: llm}
spec:
  replicas: 2
  {policy}
  selector: {matchLabels: {app: llm}}
  template:
    metadata: {labels: {app: llm}}
    spec:
      schedulingGroup: {podGroupName: serving}
      containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
"""


def test_statefulset_ordered_ready_never_fills_a_gang_while_parallel_does():
    code, doc = plan(STS_GANG.replace("{policy}", "podManagementPolicy: OrderedReady"))
    assert code == 1
    assert [(p["name"], p["status"]) for p in doc["pods"]] == [("llm-0", "Gated"), ("llm-1", "Gated")]
    assert doc["pods"][1]["message"] == ("not created: StatefulSet podManagementPolicy OrderedReady: created once "
                                         "llm-0 is running and ready")
    code, doc = plan(STS_GANG.replace("{policy}", "podManagementPolicy: Parallel"))
    assert code == 0 and doc["podGroups"][0]["pods"] == ["default/llm-0", "default/llm-1"]


def test_an_unexpandable_crd_is_listed_as_not_planned():
    code, doc = plan("pytorchjob.yaml", "replicaset.yaml")
    assert code == 1
    assert doc["summary"]["unplanned"] == 1
    assert doc["unplanned"] == [{"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "namespace": "kubeflow",
                                 "name": "pytorch-simple", "file": str(FIXTURES / "pytorchjob.yaml"), "line": 4}]
    text = run("plan", str(FIXTURES / "pytorchjob.yaml"), "--cluster", CLUSTER)
    assert text.exit_code == 1
    assert "Not planned (1)" in text.stdout
    assert f"  {FIXTURES / 'pytorchjob.yaml'}:4: PyTorchJob\n      kubeflow/pytorch-simple (kubeflow.org/v1)\n" in text.stdout
    assert "Every pod is placed." not in text.stdout


def test_job_with_generate_name_is_planned_under_a_documented_name():
    job = ("apiVersion: batch/v1\nkind: Job\nmetadata: {generateName: etl-}\nspec:\n  template:\n    spec:\n"
           "      restartPolicy: Never\n      containers: [{name: c, image: x}]\n")
    result = run("plan", "-", "--cluster", CLUSTER, "-o", "json", stdin=job)
    assert result.exit_code == 0
    assert [p["name"] for p in json.loads(result.stdout)["pods"]] == ["etl-5d9b6-0"]
    assert result.stderr.count("WAS620") == 1  # named once, before validation, and the name used from then on
    assert "it is planned as 'etl-5d9b6', and the API server will pick a different random name" in result.stderr


def test_emitted_snapshot_names_each_pods_direct_controller_and_chains(tmp_path):
    snap = tmp_path / "after.yaml"
    code, _ = plan("deployment.yaml", "jobset-startup-in-order.yaml", extra=("--emit-snapshot", str(snap)))
    assert code == 0
    pods = {o["metadata"]["name"]: o for o in yaml.safe_load(snap.read_text())["items"] if o["kind"] == "Pod"}
    refs = {n: [(r["apiVersion"], r["kind"], r["name"]) for r in pods[n]["metadata"]["ownerReferences"]]
            for n in ("nginx-deployment-67fcb6756f-0", "startup-driver-ready-workers-0-2")}
    assert refs == {"nginx-deployment-67fcb6756f-0": [("apps/v1", "ReplicaSet", "nginx-deployment-67fcb6756f")],
                    "startup-driver-ready-workers-0-2": [("batch/v1", "Job", "startup-driver-ready-workers-0")]}
    result = run("plan", str(FIXTURES / "replicaset.yaml"), "--cluster", str(snap), "-o", "json")
    doc = json.loads(result.stdout)
    assert result.exit_code == 0 and doc["summary"]["alreadyBound"] == 8 and doc["summary"]["bound"] == 3


def test_jobset_topology_example_keeps_its_gang_to_one_rack_and_parallel_jobs_start_together():
    code, doc = plan("jobset-tas.yaml", "jobset-parallel-jobs.yaml", extra=("--k8s-version", "1.36"))
    assert code == 0
    tas, workers = doc["podGroups"]
    assert (tas["name"], tas["minCount"], tas["placement"]) == (
        "js-abc-workers-def", 4, {"topologyKey": "topology.example.com/rack", "domain": "rack-0"})
    # JobSet defaults completionMode to Indexed, so in 1.36 the 4/4 workers Job is an implicit gang of its own
    assert (workers["name"], workers["policy"], workers["minCount"], workers["status"]) == (
        "paralleljobs-workers-0-job", "gang", 4, "Scheduled")
    # in each 1.36 gang the member that completes the quorum (the last pod) is placed first
    assert placed(doc) == [("js-rj-0-0", "Bound", "node-0-1"), ("js-rj-0-1", "Bound", "node-0-2"),
                           ("js-rj-1-0", "Bound", "node-0-3"), ("js-rj-1-1", "Bound", "node-0-0"),
                           # workers come first in the spec, so they take the empty nodes first
                           ("paralleljobs-driver-0-0", "Bound", "node-2-0"),
                           ("paralleljobs-workers-0-0", "Bound", "node-1-1"),
                           ("paralleljobs-workers-0-1", "Bound", "node-1-2"),
                           ("paralleljobs-workers-0-2", "Bound", "node-1-3"),
                           ("paralleljobs-workers-0-3", "Bound", "node-1-0")]


def test_136_exclusive_placement_with_implicit_gangs_deadlocks_as_upstream_would():
    # 1.36 makes each 3/3 Indexed child Job an implicit gang; the gang waits for 3 pods, while JobSet's webhook
    # admits the two followers only once the leader is scheduled
    code, doc = plan("jobset-exclusive-placement.yaml", extra=("--k8s-version", "1.36"))
    assert code == 1
    assert [(g["name"], g["status"], g["pods"]) for g in doc["podGroups"]] == [
        (f"exclusive-placement-workers-{j}-job", "WaitingForPods", [f"default/exclusive-placement-workers-{j}-0"])
        for j in range(3)]
    assert {p["status"] for p in doc["pods"]} == {"Gated"}
    assert doc["pods"][1]["reason"] == "NotCreated"


def test_jobset_gang_example_migrated_to_137_plans_the_same_gang(tmp_path):
    copy = tmp_path / "jobset-gang.yaml"
    copy.write_text((FIXTURES / "jobset-gang.yaml").read_text())
    assert run("migrate", "--to-k8s", "1.37", "-i", str(copy)).exit_code == 0
    code, doc = plan(str(copy))
    assert code == 0
    [group] = doc["podGroups"]
    assert (group["name"], group["minCount"], group["status"], len(group["pods"])) == \
        ("js-abc-workers-def", 6, "Scheduled", 6)
    assert [p["node"] for p in doc["pods"]] == ["node-0-0", "node-0-1", "node-0-2", "node-0-3", "node-1-0", "node-1-1"]


DEPLOYMENT_GANG = """\
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: inference}
spec: {schedulingPolicy: {gang: {minCount: 3}}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: llm}
spec:
  replicas: {replicas}
  selector: {matchLabels: {app: llm}}
  template:
    metadata: {labels: {app: llm}}
    spec:
      schedulingGroup: {podGroupName: inference}
      containers: [{name: c, image: x, resources: {requests: {cpu: "6"}}}]
"""


def test_deployment_pods_join_the_podgroup_their_template_names():
    code, doc = plan(DEPLOYMENT_GANG.replace("{replicas}", "3"))
    assert code == 0
    [group] = doc["podGroups"]
    assert (group["name"], group["status"], len(group["pods"])) == ("inference", "Scheduled", 3)
    assert all(p["podGroup"] == "default/inference" and p["status"] == "Bound" for p in doc["pods"])
    code, doc = plan(DEPLOYMENT_GANG.replace("{replicas}", "2"))
    assert code == 1 and doc["podGroups"][0]["status"] == "WaitingForPods"
    text = run("plan", "-", "--cluster", CLUSTER, stdin=DEPLOYMENT_GANG.replace("{replicas}", "2"))
    assert text.exit_code == 1 and "Every pod is placed." not in text.stdout
