"""Jobs expanded by the parse layer's Job controller model, then scheduled (api-reference §6.3, engine-semantics
§1.15): the 1.36 implicit gang for Indexed Jobs with parallelism == completions versus the 1.37 explicit
`spec.scheduling` (basic unless it says gang). Needs wasplan.cluster.snapshot; skipped until it is merged."""

import pytest

snapshot = pytest.importorskip("wasplan.cluster.snapshot")

from enginehelp import options  # noqa: E402

from wasplan.documents.reader import read_text  # noqa: E402
from wasplan.engine.simulator import simulate  # noqa: E402

CLUSTER = """
apiVersion: wasplan.io/v1alpha1
kind: Cluster
metadata: {name: three}
spec:
  nodePools:
  - name: gpu
    count: 3
    namePattern: "gpu-{index}"
    allocatable: {cpu: 16, memory: 64Gi, nvidia.com/gpu: 2, pods: 110}
"""


def job(scheduling: str = "") -> str:
    return f"""
apiVersion: batch/v1
kind: Job
metadata: {{name: train, namespace: ml}}
spec:
  completionMode: Indexed
  parallelism: 4
  completions: 4
{scheduling}
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: main
        image: trainer:1
        resources:
          requests: {{cpu: "1", memory: 1Gi, nvidia.com/gpu: "2"}}
          limits: {{nvidia.com/gpu: "2"}}
"""


def plan(manifest: str, version: str):
    opts = options(version)
    inputs, diags = snapshot.build_inputs(read_text("cluster.yaml", CLUSTER), read_text("job.yaml", manifest),
                                          opts.gates)
    assert not [d for d in diags if d.severity.name == "ERROR"], diags
    result, _ = simulate(inputs, opts)
    return result


def test_1_36_indexed_job_is_an_implicit_gang_and_stays_pending():
    result = plan(job(), "1.36")
    assert [p.status for p in result.pods] == ["Pending"] * 4
    assert [p.owner.name for p in result.pods] == ["train"] * 4
    (group,) = result.pod_groups
    assert (group.policy, group.min_count, group.status) == ("gang", 4, "Unschedulable")


def test_1_37_job_without_scheduling_is_basic_and_places_what_fits():
    result = plan(job(), "1.37")
    assert sorted(p.status for p in result.pods) == ["Bound", "Bound", "Bound", "Pending"]
    (group,) = result.pod_groups
    assert (group.policy, group.status) == ("basic", "Scheduled")


def test_1_37_job_asking_for_a_gang_is_all_or_nothing():
    result = plan(job("  scheduling:\n    schedulingPolicy:\n      gang: {minCount: 4}"), "1.37")
    assert [p.status for p in result.pods] == ["Pending"] * 4
    assert result.pod_groups[0].message == (
        "pod group is unschedulable, 0/1 placements are available, first placement status: "  # TAS on
        "minCount (4) cannot be satisfied: 3 scheduled, 0 remaining, deallocation and deletion of ResourceClaims "
        "completed, pod group preemption: No preemption victims found for incoming preemptor")
