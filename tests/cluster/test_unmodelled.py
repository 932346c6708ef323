"""Objects whose pods wasplan cannot plan are named (WAS622) in `plan` and `explain`, with file and line, and
keep both from exiting 0; templates and configuration are not workloads (cluster/controllers/unmodelled.py).
Inputs are the public examples in fixtures/unmodelled/ (sources in its README)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import run
from wasplan.cluster.controllers import runs_unplanned_pods

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "unmodelled"
CLUSTER = str(ROOT / "fixtures" / "workloads" / "cluster.yaml")

LISTED = [  # (file, line of `kind:`, kind, namespace/name, apiVersion) in input order
    ("cronjob.yaml", 2, "CronJob", "default/sample-cronjob", "batch/v1"),
    ("daemonset.yaml", 2, "DaemonSet", "kube-system/fluentd-elasticsearch", "apps/v1"),
    ("rayjob.yaml", 2, "RayJob", "default/rayjob-sample", "ray.io/v1"),
    ("trainjob-hello-world.yaml", 12, "TrainJob", "default/hello-world", "trainer.kubeflow.org/v1alpha1"),
    ("workflow-template-ref.yaml", 2, "Workflow", "default/workflow-template-hello-world-fff49", "argoproj.io/v1alpha1"),
]


def _entries() -> list[dict]:
    out = []
    for file, line, kind, ref, api_version in LISTED:
        ns, name = ref.split("/")
        out.append({"apiVersion": api_version, "kind": kind, "namespace": ns, "name": name,
                    "file": str(FIXTURES / file), "line": line})
    return out


def test_plan_lists_every_unmodelled_workload_with_file_and_line_and_no_template():
    result = run("plan", str(FIXTURES), "--cluster", CLUSTER, "-o", "json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["summary"]["unplanned"] == 5
    assert doc["unplanned"] == _entries()
    text = run("plan", str(FIXTURES), "--cluster", CLUSTER, env={"COLUMNS": "200"})
    assert text.exit_code == 1
    listed = text.stdout.split("Not planned (5): no controller model, its pods are not in the plan\n")[1]
    assert listed.splitlines() == [f"  {FIXTURES / f}:{line}: {kind} {ref} ({av})" for f, line, kind, ref, av in LISTED]
    codes = [(line.split(": ")[0].rsplit("/", 1)[-1], line.split()[2]) for line in text.stderr.splitlines()
             if " WAS622 " in line]
    assert codes == [(f"{f}:{line}:1", "WAS622") for f, line, *_ in LISTED]
    assert "ClusterTrainingRuntime" not in text.stdout and "WorkflowTemplate" not in text.stdout


def test_explain_names_what_it_could_not_look_at_and_exits_1():
    result = run("explain", "--cluster", CLUSTER, str(FIXTURES), env={"COLUMNS": "200"})
    assert result.exit_code == 1
    assert "Nothing is pending" not in result.stdout
    assert result.stdout.splitlines() == [
        "Every PodGroup and pod the plan could look at fits; not everything was looked at:",
        "Not looked at (5): wasplan has no model of their controller, so their pods were neither planned nor explained",
        *(f"  {FIXTURES / f}:{line}: {kind} {ref} ({av})" for f, line, kind, ref, av in LISTED)]
    doc = json.loads(run("explain", "--cluster", CLUSTER, str(FIXTURES), "-o", "json").stdout)
    assert doc["targets"] == [] and doc["unplanned"] == _entries()


def test_explain_of_a_trainjob_beside_a_job_that_fits_still_exits_1():
    job = ("apiVersion: batch/v1\nkind: Job\nmetadata: {name: etl}\nspec:\n  template:\n    spec:\n"
           "      containers: [{name: c, image: x, resources: {requests: {cpu: '1'}}}]\n      restartPolicy: Never\n")
    result = run("explain", "--cluster", CLUSTER, "-", str(FIXTURES / "trainjob-hello-world.yaml"), stdin=job,
                 env={"COLUMNS": "200"})
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-2:] == [
        "Not looked at (1): wasplan has no model of its controller, so its pods were neither planned nor explained",
        f"  {FIXTURES / 'trainjob-hello-world.yaml'}:12: TrainJob default/hello-world (trainer.kubeflow.org/v1alpha1)"]
    only_job = run("explain", "--cluster", CLUSTER, "-", stdin=job)
    assert only_job.exit_code == 0 and "Nothing is pending: every PodGroup and pod fits." in only_job.stdout


POD = {"containers": [{"name": "c", "image": "x"}]}


@pytest.mark.parametrize(("obj", "listed"), [
    # rule 2: templates and configuration, even with a pod template inside
    ({"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainingRuntime", "spec": {"template": {"spec": POD}}}, False),
    ({"apiVersion": "serving.kserve.io/v1alpha1", "kind": "ClusterServingRuntime", "spec": POD}, False),
    ({"apiVersion": "kyverno.io/v1", "kind": "ClusterPolicy",
      "spec": {"rules": [{"mutate": {"patchStrategicMerge": {"spec": POD}}}]}}, False),
    ({"apiVersion": "v1", "kind": "ConfigMap", "data": {"pod.yaml": "containers: []"}}, False),
    ({"apiVersion": "v1", "kind": "PodTemplate", "template": {"spec": POD}}, False),
    # rule 3: known kinds whose own spec carries no pod template
    ({"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob", "spec": {"runtimeRef": {"name": "r"}}}, True),
    ({"apiVersion": "serving.kserve.io/v1beta1", "kind": "InferenceService",
      "spec": {"predictor": {"model": {"modelFormat": {"name": "sklearn"}}}}}, True),
    ({"apiVersion": "ray.io/v1", "kind": "RayJob", "spec": {"clusterSelector": {"ray.io/cluster": "c"}}}, True),
    # rule 4: a pod template anywhere in the spec of any other kind
    ({"apiVersion": "example.com/v1", "kind": "Notebook", "spec": {"template": {"spec": POD}}}, True),
    ({"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob",
      "spec": {"mpiReplicaSpecs": {"Worker": {"template": {"spec": POD}}}}}, True),
    ({"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"size": 3}}, False),
    # rule 1: what the planner expands or reads itself
    ({"apiVersion": "batch/v1", "kind": "Job", "spec": {"template": {"spec": POD}}}, False),
])
def test_the_rule_separates_workloads_from_templates_and_configuration(obj, listed):
    assert runs_unplanned_pods(obj) is listed
