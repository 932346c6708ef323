"""What a `--cluster` snapshot's objects are checked for (issue 33): by default what the planner reads (an API
server stored them, so its creation rules are not run again), every rule with `--validate-cluster full`."""

from __future__ import annotations

from tests.cli.helpers import run
from tests.conftest import FIXTURES

SNAPSHOT = str(FIXTURES / "clusters" / "kubectl-snapshot.yaml")
TRAINING = str(FIXTURES / "manifests" / "training-1.37.yaml")
NODE = """apiVersion: v1
kind: Node
metadata: {name: n1}
status:
  allocatable: {cpu: "8", memory: 32Gi, pods: "110"}
"""
JOB = """apiVersion: batch/v1
kind: Job
metadata: {name: one, namespace: default}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: i, resources: {requests: {cpu: "1"}}}]
"""


def test_a_creation_rule_the_snapshot_breaks_stops_the_plan_only_under_full():
    """The fixture's finished eval pod asks for a GPU without a limit (WAS102, a rule the API server applies on
    create); planning against it needs the objects the planner reads, which are all sound."""
    stored = run("plan", TRAINING, "--cluster", SNAPSHOT, "--no-config", "-o", "json")
    full = run("plan", TRAINING, "--cluster", SNAPSHOT, "--no-config", "-o", "json", "--validate-cluster", "full")
    assert stored.exit_code in (0, 1) and '"kind": "Plan"' in stored.stdout
    assert full.exit_code == 2 and "WAS102" in full.output
    assert f"{SNAPSHOT}:454:7" in full.output


def test_a_field_the_planner_reads_with_the_wrong_type_is_an_error_with_its_line(tmp_path):
    cluster = tmp_path / "cluster.yaml"
    cluster.write_text(NODE + """---
apiVersion: v1
kind: Pod
metadata: {name: running, namespace: default}
spec:
  nodeName: n1
  priority: high
  containers: [{name: c, image: i}]
status: {phase: Running}
""")
    job = tmp_path / "job.yaml"
    job.write_text(JOB)
    result = run("plan", str(job), "--cluster", str(cluster), "--no-config")
    assert result.exit_code == 2
    assert "WAS602" in result.output and f"{cluster}:12:3" in result.output
    assert "priority must be an integer, got 'high'" in result.output


def test_a_version_the_release_does_not_serve_is_still_reported(tmp_path):
    cluster = tmp_path / "cluster.yaml"
    cluster.write_text(NODE.replace("apiVersion: v1", "apiVersion: v2"))
    job = tmp_path / "job.yaml"
    job.write_text(JOB)
    result = run("plan", str(job), "--cluster", str(cluster), "--no-config")
    assert result.exit_code == 2 and "WAS109" in result.output and f"{cluster}:1:1" in result.output
