"""Kueue holds what it manages until admission (cluster/kueue.py): pods WaitingForAdmission with the queue named,
exit 1, WAS624; `--assume-admitted` plans them as admitted (WAS625). Inputs are Kueue's published samples in
fixtures/kueue/ (sources in its README) and small variations of them."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from tests.cli.helpers import run

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "kueue"
CLUSTER = str(ROOT / "fixtures" / "workloads" / "cluster.yaml")
JOB = (FIXTURES / "sample-job.yaml").read_text()
HELD = "waiting for Kueue to admit it (LocalQueue default/user-queue); Kueue's quotas are not modelled"
HELD_GROUP = ("waiting for Kueue to admit it (LocalQueue default/user-queue, pod group sample-group); Kueue's quotas "
              "are not modelled")
PODS = ["nginx-deployment-7f86767c64-0", "nginx-deployment-7f86767c64-1", "nginx-deployment-7f86767c64-2",
        "sample-job-588b9-0", "sample-job-588b9-1", "sample-job-588b9-2", "sample-pod-948c7", "sample-pod-c6d98"]


def _plan(*args: str, stdin: str | None = None):
    result = run("plan", *args, "--cluster", CLUSTER, "-o", "json", stdin=stdin)
    return result, json.loads(result.stdout)


def test_kueue_samples_wait_for_admission_with_their_queue_and_exit_1():
    result, doc = _plan(str(FIXTURES))
    assert result.exit_code == 1
    assert [(p["name"], p["status"], p["reason"], p["message"], p["node"]) for p in doc["pods"]] == [
        (name, "WaitingForAdmission", "KueueAdmission", HELD_GROUP if name.startswith("sample-pod") else HELD, None)
        for name in PODS]
    assert doc["summary"]["waitingForAdmission"] == doc["summary"]["pending"] == 8
    [group] = doc["podGroups"]
    assert (group["name"], group["status"], group["reason"], group["message"], group["pods"]) == (
        "sample-job-588b9-job", "WaitingForAdmission", "KueueAdmission", HELD,
        ["default/sample-job-588b9-0", "default/sample-job-588b9-1", "default/sample-job-588b9-2"])
    found = [line for line in result.stderr.splitlines() if " WAS624 " in line]
    assert [line.split(": warning")[0].rsplit("/", 1)[-1] for line in found] == [
        "kueue-pod-group.yaml:7:5", "kueue-pod-group.yaml:28:5", "sample-deployment.yaml:2:1", "sample-job.yaml:7:5"]
    assert "Job default/sample-job-588b9 is managed by Kueue (LocalQueue default/user-queue): its 3 pods wait for " \
           "Kueue to admit it, and Kueue's quotas are not modelled" in result.stderr


def test_assume_admitted_plans_them_as_admitted_and_resumes_the_suspended_job():
    result, doc = _plan(str(FIXTURES), "--assume-admitted")
    assert result.exit_code == 0
    assert [(p["name"], p["status"]) for p in doc["pods"]] == [(name, "Bound") for name in PODS]
    assert doc["podGroups"][0]["status"] == "Scheduled"
    assert sum(" info WAS625 " in line for line in result.stderr.splitlines()) == 4
    assert " WAS624 " not in result.stderr


def test_without_the_queue_label_the_suspended_sample_job_runs_nothing():
    plain = JOB.replace("  labels:\n    kueue.x-k8s.io/queue-name: user-queue\n", "")
    result, doc = _plan("-", stdin=plain)
    assert result.exit_code == 0 and doc["pods"] == []
    assert "WAS607" in result.stderr and "WAS624" not in result.stderr


def test_a_job_whose_label_is_only_on_its_pod_template_is_not_held():
    # Kueue manages a Job by the Job's own label; its pods' owner is an integration, so the pod webhook skips them
    moved = JOB.replace("  labels:\n    kueue.x-k8s.io/queue-name: user-queue\n", "").replace(
        "  suspend: true\n  template:\n    spec:\n",
        "  template:\n    metadata:\n      labels: {kueue.x-k8s.io/queue-name: user-queue}\n    spec:\n")
    result, doc = _plan("-", stdin=moved)
    assert result.exit_code == 0
    assert [p["status"] for p in doc["pods"]] == ["Bound"] * 3


JOBSET = """\
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata:
  name: train
  labels: {kueue.x-k8s.io/queue-name: team-a}
spec:
  suspend: true
  replicatedJobs:
  - name: workers
    replicas: 2
    template:
      spec:
        parallelism: 1
        completions: 1
        template:
          spec:
            containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
---
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata:
  name: serve
  labels: {kueue.x-k8s.io/queue-name: team-b}
spec:
  replicas: 1
  leaderWorkerTemplate:
    size: 2
    workerTemplate:
      spec:
        containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
"""


def test_a_labelled_jobset_and_leaderworkerset_wait_for_their_queues():
    result, doc = _plan("-", stdin=JOBSET)
    assert result.exit_code == 1
    assert [(p["name"], p["status"], p["message"].split(";")[0]) for p in doc["pods"]] == [
        ("serve-0", "WaitingForAdmission", "waiting for Kueue to admit it (LocalQueue default/team-b)"),
        ("serve-0-1", "WaitingForAdmission", "waiting for Kueue to admit it (LocalQueue default/team-b)"),
        ("train-workers-0-0", "WaitingForAdmission", "waiting for Kueue to admit it (LocalQueue default/team-a)"),
        ("train-workers-1-0", "WaitingForAdmission", "waiting for Kueue to admit it (LocalQueue default/team-a)")]
    _, admitted = _plan("-", "--assume-admitted", stdin=JOBSET)
    assert [p["status"] for p in admitted["pods"]] == ["Bound"] * 4


def test_the_emitted_snapshot_keeps_the_pods_behind_kueues_gate(tmp_path):
    after = tmp_path / "after.yaml"
    run("plan", str(FIXTURES / "kueue-pod-group.yaml"), "--cluster", CLUSTER, "--emit-snapshot", str(after))
    pods = [d for d in yaml.safe_load(after.read_text())["items"] if d["kind"] == "Pod"]
    assert [(p["metadata"]["name"], p["spec"].get("schedulingGates")) for p in pods] == [
        ("sample-pod-948c7", [{"name": "kueue.x-k8s.io/admission"}]),
        ("sample-pod-c6d98", [{"name": "kueue.x-k8s.io/admission"}])]
    again = run("plan", "--cluster", str(after), "-o", "json", str(FIXTURES / "sample-deployment.yaml"),
                "--assume-admitted")
    statuses = {p["name"]: (p["status"], p["reason"]) for p in json.loads(again.stdout)["pods"]}
    assert statuses["sample-pod-948c7"] == statuses["sample-pod-c6d98"] == ("Gated", "SchedulingGated")


def test_text_plan_and_explain_say_kueue_is_not_modelled():
    text = run("plan", str(FIXTURES / "sample-job.yaml"), "--cluster", CLUSTER, env={"COLUMNS": "200"})
    assert text.exit_code == 1
    assert text.stdout.splitlines()[-1] == ("3 pods wait for Kueue's admission, which the plan does not model (its "
                                            "quotas and queues); --assume-admitted plans them as if admitted now.")
    explained = run("explain", "--cluster", CLUSTER, "-o", "json", str(FIXTURES / "sample-job.yaml"))
    assert explained.exit_code == 1
    [target] = json.loads(explained.stdout)["targets"]
    assert (target["kind"], target["name"], target["verdict"], target["summary"]) == (
        "PodGroup", "sample-job-588b9-job", "WaitingForAdmission", HELD)
    assert target["suggestions"] == [] and target["exact"] is None
    assert target["notes"] == ["Kueue admits it once its ClusterQueue has quota for it, which the plan does not "
                               "model; explain with --assume-admitted to see whether it fits once admitted"]
    admitted = run("explain", "--cluster", CLUSTER, "--assume-admitted", str(FIXTURES / "sample-job.yaml"))
    assert admitted.exit_code == 0 and "Nothing is pending" in admitted.stdout


def test_a_pod_group_label_without_a_queue_is_not_managed():
    # Kueue's pod webhook manages a pod only through its queue label (manageJobsWithoutQueueName: false)
    group_only = (FIXTURES / "kueue-pod-group.yaml").read_text().replace("    kueue.x-k8s.io/queue-name: user-queue\n", "")
    result, doc = _plan("-", stdin=group_only)
    assert result.exit_code == 0 and "WAS624" not in result.stderr
    assert [(p["name"], p["status"]) for p in doc["pods"]] == [("sample-pod-948c7", "Bound"),
                                                                ("sample-pod-c6d98", "Bound")]
