"""The oracle's own behaviour where it used to fall short of upstream (docs/oracle.md "What changed"): each test
runs the built binary on a small input and asserts what upstream v1.37.2's code does there."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from tests.oracle.conftest import oracle_plan, run_oracle

NODE = """apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}, capacity: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


def _job_with_class(policy: str) -> str:
    return f"""apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {{name: batch}}
value: 100
preemptionPolicy: {policy}
---
apiVersion: batch/v1
kind: Job
metadata: {{name: train, namespace: default}}
spec:
  parallelism: 2
  completions: 2
  template:
    spec:
      priorityClassName: batch
      restartPolicy: Never
      containers: [{{name: main, image: app:1, resources: {{requests: {{cpu: "1"}}}}}}]
"""


def _expand_then_plan(oracle_bin: Path, tmp_path: Path, policy: str) -> tuple[list[str], dict]:
    job = tmp_path / "job.yaml"
    job.write_text(_job_with_class(policy))
    expanded = run_oracle(oracle_bin, ["expand", job, "--k8s-version", "1.37"])
    assert expanded.returncode == 0, expanded.stderr
    items = yaml.safe_load(expanded.stdout)["items"]
    (tmp_path / "expanded.yaml").write_text(expanded.stdout)
    cluster = tmp_path / "cluster.yaml"
    cluster.write_text(job.read_text().split("---\n")[0] + "---\n" + NODE)
    planned = oracle_plan(oracle_bin, [tmp_path / "expanded.yaml"], [cluster], "1.37")
    assert planned.returncode in (0, 1), planned.stderr
    return sorted(i["kind"] for i in items), json.loads(planned.stdout)


def test_job_naming_a_never_class_creates_no_pod_group_and_the_expansion_plans(oracle_bin, tmp_path):
    # the scheme defaults the PodGroup's preemptionPolicy to PreemptLowerPriority before Priority admission
    # computes Never from the class, so the server refuses the Job's PodGroup and the Job creates no pods
    kinds, plan = _expand_then_plan(oracle_bin, tmp_path, "Never")
    assert kinds == ["Workload"]
    assert plan["summary"]["pods"] == 0 and plan["podGroups"] == []


def test_job_naming_a_preempting_class_expands_and_binds(oracle_bin, tmp_path):
    kinds, plan = _expand_then_plan(oracle_bin, tmp_path, "PreemptLowerPriority")
    assert kinds == ["Pod", "Pod", "PodGroup", "Workload"]
    assert [p["status"] for p in plan["pods"]] == ["Bound", "Bound"]
    assert {p["node"] for p in plan["pods"]} == {"n1"}
