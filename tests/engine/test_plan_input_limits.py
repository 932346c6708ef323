"""Plan inputs at the edges: a cluster without nodes, nodes their bound pods overcommit, quantities beyond the
engine's integer range, and a Job too large to expand."""

from __future__ import annotations

import json

from tests.cli.helpers import run

POD = """apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: "%s"}}}]
"""
CLUSTER = """apiVersion: wasplan.io/v1alpha1
kind: Cluster
metadata: {name: c}
spec:
  nodePools:
  - {name: n, count: 1, allocatable: {cpu: "4", memory: 8Gi, pods: 110}}
"""
OVERCOMMITTED = """apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: small}
  status: {allocatable: {cpu: "1", memory: 1Gi, pods: "110"}}
- apiVersion: v1
  kind: Pod
  metadata: {name: big, namespace: default}
  spec:
    nodeName: small
    containers: [{name: c, image: x, resources: {requests: {cpu: 1500m}}}]
"""


def _files(tmp_path, pod: str, cluster: str):
    (tmp_path / "pod.yaml").write_text(pod)
    (tmp_path / "cluster.yaml").write_text(cluster)
    return str(tmp_path / "pod.yaml"), str(tmp_path / "cluster.yaml")


def test_zero_node_cluster_plans_every_pod_pending(tmp_path):
    pod, cluster = _files(tmp_path, POD % "1", "apiVersion: wasplan.io/v1alpha1\nkind: Cluster\nmetadata: {name: e}\nspec: {}\n")
    for command in ("plan", "explain"):
        result = run(command, pod, "--cluster", cluster, "-o", "json")
        assert result.exit_code == 1, result.output
        assert f"{cluster}: warning WAS611 the cluster has no nodes: every pod stays pending" in result.stderr
    doc = json.loads(run("plan", pod, "--cluster", cluster, "-o", "json").stdout)
    assert [(p["name"], p["status"], p["message"]) for p in doc["pods"]] == [
        ("web", "Pending", "no nodes available to schedule pods")]


def test_overcommitted_node_is_a_warning_naming_node_and_resource(tmp_path):
    pod, cluster = _files(tmp_path, POD % "1", OVERCOMMITTED)
    result = run("plan", pod, "--cluster", cluster)
    assert ("warning WAS609 node small is overcommitted: its bound pods request 1500m cpu, allocatable is 1000m"
            in result.stderr)


def test_quantity_beyond_the_engine_range_is_a_finding(tmp_path):
    pod, cluster = _files(tmp_path, POD % "99999999999999999999", CLUSTER)
    result = run("plan", pod, "--cluster", cluster, "-o", "json")
    assert result.exit_code == 2
    [finding] = json.loads(result.stdout)["diagnostics"]
    assert (finding["code"], finding["line"], finding["message"]) == (
        "WAS601", 5, "quantity '99999999999999999999' for cpu is too large: at most 2^53 millicores")


def test_indexed_job_beyond_the_expansion_limit_is_refused(tmp_path):
    job = """apiVersion: batch/v1
kind: Job
metadata: {name: huge, namespace: default}
spec:
  completionMode: Indexed
  parallelism: 100000
  completions: 100000
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: x}]
"""
    pod, cluster = _files(tmp_path, job, CLUSTER)
    result = run("plan", pod, "--cluster", cluster)
    assert result.exit_code == 2
    assert ("pod.yaml:6:3: error WAS610 Job default/huge would start 100,000 pods; the planner expands at most "
            "10,000 per Job") in result.stderr


def test_deployment_beyond_the_expansion_limit_is_refused(tmp_path):
    deployment = """apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 100000
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: x}]
"""
    pod, cluster = _files(tmp_path, deployment, CLUSTER)
    result = run("plan", pod, "--cluster", cluster)
    assert result.exit_code == 2
    assert ("pod.yaml:5:3: error WAS610 Deployment default/web would start 100,000 pods; the planner expands at most "
            "10,000 per workload") in result.stderr


def test_jobset_whose_jobs_add_up_beyond_the_limit_is_refused(tmp_path):
    jobset = """apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: big, namespace: default}
spec:
  replicatedJobs:
  - name: workers
    replicas: 20
    template:
      spec:
        parallelism: 1000
        completions: 1000
        template:
          spec:
            restartPolicy: Never
            containers: [{name: c, image: x}]
"""
    pod, cluster = _files(tmp_path, jobset, CLUSTER)
    result = run("plan", pod, "--cluster", cluster)
    assert result.exit_code == 2
    assert "error WAS610 JobSet default/big would start 20,000 pods; the planner expands at most 10,000 per workload" \
        in result.stderr
