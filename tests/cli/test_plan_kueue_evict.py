"""`wasplan plan`: what Kueue evicts is evicted. A Workload of the snapshot that holds quota and that Kueue preempts
(or a HoldAndDrain queue drains) has its job stopped by Kueue's job framework; the plan takes the job's running pods
off their nodes before kube-scheduler places anything, lists them `Evicted` with Kueue's reason, and places the
preemptor's pods on the nodes they freed (pipeline/kueue_evict.py, pipeline/kueue_stage.py). Where the plan cannot
find the pods, WAS693 says so and the pods keep their nodes.

fixtures/kueue-plan/evict/: a ClusterQueue of 8 CPUs (setup.yaml), a snapshot whose two 4-CPU nodes are full with
the two pods of Job `batch` admitted at priority 10 (snapshot.yaml), and Job `urgent` at priority 1000 needing the
8 CPUs (urgent.yaml)."""

from __future__ import annotations

import json

from tests.cli.helpers import run
from tests.conftest import FIXTURES

EVICT = FIXTURES / "kueue-plan" / "evict"
SNAPSHOT = (EVICT / "snapshot.yaml").read_text()
JOB_OWNER = "{apiVersion: batch/v1, kind: Job, name: batch, uid: uid-default-batch, controller: true, blockOwnerDeletion: true}"
JOB_LABEL = "batch.kubernetes.io/job-name: batch, "
STOPPED = "stopped by Kueue: its Workload default/job-batch-67757 is evicted (Preempted by default/job-urgent-9cc20)"


def _plan(snapshot: str, tmp_path, *extra: str, output: str = "json"):
    path = tmp_path / "snapshot.yaml"
    path.write_text(snapshot)
    result = run("plan", str(EVICT / "urgent.yaml"), str(EVICT / "setup.yaml"), *extra, "--cluster", str(path),
                 "-o", output, env={"COLUMNS": "400"})
    return result


def _pods(plan: dict) -> dict:
    return {p["name"]: (p["status"], p["node"], p["reason"]) for p in plan["pods"]}


def _statuses(plan: dict) -> dict:
    return {w["name"]: w["status"] for w in plan["kueue"]["workloads"]}


def test_the_preempted_jobs_running_pods_are_evicted_and_the_preemptor_takes_their_nodes(tmp_path):
    result = _plan(SNAPSHOT, tmp_path)
    plan = json.loads(result.stdout)
    assert _statuses(plan) == {"job-batch-67757": "Preempted", "job-urgent-9cc20": "Admitted"}
    assert _pods(plan) == {
        "batch-q9w4m": ("Evicted", "node-b", "WorkloadEvictedDueToPreempted"),
        "batch-x7k2p": ("Evicted", "node-a", "WorkloadEvictedDueToPreempted"),
        "urgent-0": ("Bound", "node-a", "Scheduled"),
        "urgent-1": ("Bound", "node-b", "Scheduled")}
    assert {p["message"] for p in plan["pods"] if p["status"] == "Evicted"} == {STOPPED}
    assert (plan["summary"]["evicted"], plan["summary"]["bound"], plan["summary"]["pending"]) == (2, 2, 0)
    assert plan["preemptions"] == []  # kube-scheduler preempts nothing: Kueue freed the nodes
    assert "WAS693" not in result.stderr
    assert result.exit_code == 1  # the preempted Workload is not admitted: the plan is not complete


def test_the_text_markdown_and_html_show_the_pods_kueue_stops(tmp_path):
    text = _plan(SNAPSHOT, tmp_path, output="text").stdout
    assert ("Stopped by Kueue (2): evicted, their Workload preempted or drained\n"
            f"  default/batch-q9w4m on node-b: {STOPPED}\n  default/batch-x7k2p on node-a: {STOPPED}\n") in text
    assert "NoExecute DeviceTaintRule" not in text
    markdown = _plan(SNAPSHOT, tmp_path, output="markdown").stdout
    assert f"### Stopped by Kueue (2)" in markdown
    assert f"- default/batch-x7k2p on node-a: {STOPPED}" in markdown
    page = _plan(SNAPSHOT, tmp_path, output="html").stdout
    assert "<h3>Stopped by Kueue <small>(2)</small></h3>" in page
    assert f'<li class="msg">default/batch-q9w4m on node-b: {STOPPED}</li>' in page


def test_pods_found_by_the_job_name_label_alone_are_evicted(tmp_path):
    snapshot = SNAPSHOT.replace(f"  ownerReferences:\n  - {JOB_OWNER}\nspec:\n  nodeName", "spec:\n  nodeName")
    assert snapshot.count(JOB_OWNER) == 1  # only the Workload's own ownerReference is left
    plan = json.loads(_plan(snapshot, tmp_path).stdout)
    assert {n: s[:2] for n, s in _pods(plan).items()} == {
        "batch-q9w4m": ("Evicted", "node-b"), "batch-x7k2p": ("Evicted", "node-a"),
        "urgent-0": ("Bound", "node-a"), "urgent-1": ("Bound", "node-b")}


def test_a_jobsets_pods_are_found_through_its_child_jobs_or_the_jobset_label(tmp_path):
    """Kueue suspends the JobSet and its child Jobs go with it: the pods are those of a Job the JobSet controls
    (the snapshot holds it), or those labelled jobset.sigs.k8s.io/jobset-name."""
    owner = ("{apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, name: train, uid: uid-default-train, "
             "controller: true}")
    child = ("{apiVersion: batch/v1, kind: Job, name: train-workers-0, uid: uid-default-train-workers-0, "
             "controller: true}")
    through_child = SNAPSHOT.replace(JOB_OWNER, child).replace(JOB_LABEL, "").replace(
        "  ownerReferences:\n  - " + child + "\nspec:\n  queueName", "  ownerReferences:\n  - " + owner
        + "\nspec:\n  queueName", 1) + (
        "---\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: train-workers-0\n  namespace: default\n"
        f"  ownerReferences:\n  - {owner}\nspec:\n  template:\n    spec:\n      containers: [{{name: c, image: b}}]\n"
        "status: {active: 2}\n")
    assert through_child.count(owner) == 2
    plan = json.loads(_plan(through_child, tmp_path).stdout)
    assert {n: s[:2] for n, s in _pods(plan).items()} == {
        "batch-q9w4m": ("Evicted", "node-b"), "batch-x7k2p": ("Evicted", "node-a"),
        "urgent-0": ("Bound", "node-a"), "urgent-1": ("Bound", "node-b")}
    by_label = through_child[:through_child.index("---\napiVersion: batch/v1\nkind: Job")].replace(
        child, "{apiVersion: batch/v1, kind: Job, name: elsewhere, controller: true}").replace(
        "labels: {kueue.x-k8s.io/queue-name: queue}", "labels: {jobset.sigs.k8s.io/jobset-name: train}")
    plan = json.loads(_plan(by_label, tmp_path).stdout)
    assert {n: s[0] for n, s in _pods(plan).items()} == {
        "batch-q9w4m": "Evicted", "batch-x7k2p": "Evicted", "urgent-0": "Bound", "urgent-1": "Bound"}


def test_a_pod_groups_pods_are_found_by_the_group_label(tmp_path):
    """Kueue's pod integration stops a group's pods, which it lists by kueue.x-k8s.io/pod-group-name."""
    pod_owner = "{apiVersion: v1, kind: Pod, name: batch-x7k2p, uid: uid-default-batch-x7k2p, controller: true}"
    snapshot = SNAPSHOT.replace(f"  ownerReferences:\n  - {JOB_OWNER}\nspec:\n  nodeName", "spec:\n  nodeName")
    snapshot = snapshot.replace(JOB_OWNER, pod_owner).replace("name: job-batch-67757", "name: batch-group").replace(
        JOB_LABEL, "kueue.x-k8s.io/pod-group-name: batch-group, ")
    plan = json.loads(_plan(snapshot, tmp_path).stdout)
    assert _statuses(plan)["batch-group"] == "Preempted"
    assert {n: s[:3] for n, s in _pods(plan).items() if n.startswith("batch")} == {
        "batch-q9w4m": ("Evicted", "node-b", "WorkloadEvictedDueToPreempted"),
        "batch-x7k2p": ("Evicted", "node-a", "WorkloadEvictedDueToPreempted")}


def test_a_hold_and_drain_local_queue_stops_what_runs_through_it(tmp_path):
    """reconcileOnLocalQueueActiveState: the running Workload is evicted with LocalQueueStopped and not requeued;
    its pods are stopped, and `urgent` queues behind the stopped LocalQueue too."""
    drained = (EVICT / "setup.yaml").read_text().replace("  clusterQueue: team\n",
                                                         "  clusterQueue: team\n  stopPolicy: HoldAndDrain\n")
    setup = tmp_path / "setup.yaml"
    setup.write_text(drained)
    path = tmp_path / "snapshot.yaml"
    path.write_text(SNAPSHOT)
    result = run("plan", str(EVICT / "urgent.yaml"), str(setup), "--cluster", str(path), "-o", "json")
    plan = json.loads(result.stdout)
    assert _statuses(plan) == {"job-batch-67757": "Inadmissible", "job-urgent-9cc20": "Inadmissible"}
    assert {n: s for n, s in _pods(plan).items() if n.startswith("batch")} == {
        "batch-q9w4m": ("Evicted", "node-b", "WorkloadEvictedDueToLocalQueueStopped"),
        "batch-x7k2p": ("Evicted", "node-a", "WorkloadEvictedDueToLocalQueueStopped")}
    assert {p["message"] for p in plan["pods"] if p["status"] == "Evicted"} == {
        "stopped by Kueue: its Workload default/job-batch-67757 is evicted (LocalQueueStopped)"}


def test_pods_the_plan_cannot_find_keep_their_nodes_and_wasplan_says_so(tmp_path):
    """A snapshot Workload that names no job: Kueue's eviction stops whatever runs it, which the plan cannot tell,
    so the pods stay, the preemptor's pods stay pending, and WAS693 names it (the plan is incomplete)."""
    snapshot = SNAPSHOT.replace(f"  ownerReferences:\n  - {JOB_OWNER}\nspec:\n  queueName", "spec:\n  queueName")
    assert snapshot.count(JOB_OWNER) == 2
    snapshot = snapshot.replace(JOB_LABEL, "")  # and the pods carry nothing that names the job
    result = _plan(snapshot, tmp_path)
    plan = json.loads(result.stdout)
    assert _statuses(plan) == {"job-batch-67757": "Preempted", "job-urgent-9cc20": "Admitted"}
    assert {n: s[:2] for n, s in _pods(plan).items()} == {
        "batch-q9w4m": ("AlreadyBound", "node-b"), "batch-x7k2p": ("AlreadyBound", "node-a"),
        "urgent-0": ("Pending", None), "urgent-1": ("Pending", None)}
    assert ("snapshot.yaml:26:3: warning WAS693 Kueue evicts Workload default/job-batch-67757, which holds quota in the snapshot "
            "(Preempted: Preempted to accommodate a workload (UID: uid-default-job-urgent-9cc20, JobUID: "
            "uid-default-urgent) due to prioritization in the ClusterQueue; preemptor path: /team; preemptee path: "
            "/team), but the plan could not find its pods: they keep their nodes in the plan, where Kueue stops "
            "them") in " ".join(result.stderr.split())
    assert result.exit_code == 1
    text = _plan(snapshot, tmp_path, output="text").stdout
    assert ("Kueue: not modelled: the running pods of Workload default/job-batch-67757, which Kueue evicts (the plan "
            "found none of them, so they keep their nodes).") in text


BATCH_JOB = """---
apiVersion: batch/v1
kind: Job
metadata:
  name: batch
  namespace: default
  uid: uid-default-batch
  creationTimestamp: "2026-01-01T00:00:00Z"
  labels: {kueue.x-k8s.io/queue-name: queue, kueue.x-k8s.io/priority-class: low}
spec:
  parallelism: 2
  completions: 2
  suspend: false
  template:
    spec:
      restartPolicy: Never
      containers:
      - {name: main, image: busybox, resources: {requests: {cpu: "4"}}}
status: {active: 2}
"""


def test_a_snapshot_job_whose_workload_the_snapshot_holds_gets_no_second_workload(tmp_path):
    """`kubectl get jobs,workloads,pods -A -o yaml`: the Job `batch` carries the queue label and its Workload is in
    the snapshot; Kueue's job reconciler finds that Workload (ensureOneWorkload) and builds none, so the plan is
    the same as with the Workload alone (checked against the Kueue oracle in tests/oracle/test_kueue_oracle.py)."""
    plan = json.loads(_plan(SNAPSHOT + BATCH_JOB, tmp_path).stdout)
    assert _statuses(plan) == {"job-batch-67757": "Preempted", "job-urgent-9cc20": "Admitted"}
    assert _pods(plan)["urgent-0"] == ("Bound", "node-a", "Scheduled")
    assert _pods(plan)["batch-x7k2p"] == ("Evicted", "node-a", "WorkloadEvictedDueToPreempted")
