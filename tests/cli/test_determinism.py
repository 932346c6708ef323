"""Same inputs, same bytes — also across processes whose string hashing differs (set and dict order)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import FIXTURES

SCENARIO = FIXTURES / "scenarios" / "racks-and-trees"
PREEMPTION = FIXTURES / "scenarios" / "preemption"


def _run(seed: str, *args: str) -> bytes:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    done = subprocess.run([sys.executable, "-m", "wasplan", *args], env=env, capture_output=True, check=False)
    assert done.returncode in (0, 1), done.stderr.decode()
    return done.stdout


def test_plan_json_is_byte_identical_under_different_hash_seeds():
    args = ("plan", str(SCENARIO / "manifests"), "--cluster", str(SCENARIO / "cluster.yaml"), "-o", "json")
    first = _run("1", *args)
    assert b'"kind": "Plan"' in first
    assert _run("2", *args) == first


def test_preemption_plan_is_byte_identical_under_different_hash_seeds():
    args = ("plan", str(PREEMPTION / "serving.yaml"), "--cluster", str(PREEMPTION / "cluster.yaml"), "-o", "json")
    first = _run("3", *args)
    assert b'"preemptions": [\n    {' in first  # the scenario does evict something
    assert _run("4", *args) == first


def test_batched_gangs_are_byte_identical_under_different_hash_seeds(tmp_path):
    """Jobs of 8 identical pods, each gang kept to a rack: placed by the engine's gang batch."""
    jobs = [f"""apiVersion: batch/v1
kind: Job
metadata: {{name: train-{i}, namespace: ml}}
spec:
  completionMode: Indexed
  completions: 8
  parallelism: 8
  scheduling:
    schedulingPolicy: {{gang: {{}}}}
    schedulingConstraints: {{topology: [{{key: topology.kubernetes.io/rack}}]}}
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: w
        image: trainer:1
        resources: {{requests: {{cpu: "20", memory: 200Gi}}, limits: {{nvidia.com/gpu: 4}}}}
""" for i in range(6)]
    (tmp_path / "jobs.yaml").write_text("---\n".join(jobs))
    args = ("plan", str(tmp_path / "jobs.yaml"), "--cluster", str(FIXTURES / "examples" / "cluster.yaml"), "-o", "json")
    first = _run("5", *args)
    assert first.count(b'"status": "Bound"') == 16  # the running pods leave room for two gangs, in rack-1 and rack-2
    assert _run("6", *args) == first


def test_workload_expansion_is_byte_identical_under_different_hash_seeds():
    workloads = FIXTURES / "workloads"
    args = ("plan", *(str(workloads / f) for f in ("jobset-exclusive-placement.yaml", "lws-exclusive-placement.yaml",
                                                  "deployment.yaml", "statefulset.yaml", "pytorchjob.yaml")),
            "--cluster", str(workloads / "cluster.yaml"), "-o", "json")
    first = _run("7", *args)
    assert b'"kind": "PyTorchJob"' in first and b'"chain": [' in first
    assert _run("8", *args) == first


def test_explain_with_the_exact_check_is_byte_identical_under_different_hash_seeds():
    case = FIXTURES / "explain" / "exact-tree"
    args = ("explain", str(case / "gang.yaml"), "--cluster", str(case / "cluster.yaml"), "-o", "json")
    first = _run("9", *args)
    assert b'"verdict": "FitsButMissed"' in first  # the solver found and the engine replayed an assignment
    assert _run("10", *args) == first
