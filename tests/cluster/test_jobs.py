"""The Job controller per release and gates: exact names, policies, minCount, owners, labels."""

import textwrap

import pytest

from wasplan.api import hub
from wasplan.cluster.model import Group, Owner, Pod

from .helpers import inputs, names


def job(parallelism=4, completions=4, indexed=True, scheduling="", extra_spec="", template_spec="", name="train"):
    lines = [
        "apiVersion: batch/v1", "kind: Job", f"metadata: {{name: {name}, namespace: ml}}", "spec:",
        f"  parallelism: {parallelism}" if parallelism is not None else "",
        f"  completions: {completions}" if completions is not None else "",
        "  completionMode: Indexed" if indexed else "",
        textwrap.indent(textwrap.dedent(scheduling), "  ") if scheduling else "",
        textwrap.indent(textwrap.dedent(extra_spec), "  ") if extra_spec else "",
        "  template:",
        "    metadata: {labels: {app: train}}",
        "    spec:",
        "      priorityClassName: training-high",
        "      restartPolicy: Never",
        "      containers: [{name: c, image: trainer, resources: {limits: {nvidia.com/gpu: 8}}}]",
        textwrap.indent(textwrap.dedent(template_spec), "      ") if template_spec else "",
    ]
    return "\n".join(line for line in lines if line) + "\n"


# the class the Job's pods name exists in the cluster, else admission refuses them (cluster/admission.py)
CLASS = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: training-high}\nvalue: 1000\n"


def expand(text, version="1.37", gate_spec=None):
    plan, diags = inputs(snapshot=CLASS, manifests=text, version=version, gate_spec=gate_spec)
    return plan.arrivals, diags


def test_136_pods_naming_a_class_that_exists_nowhere_are_refused():
    plan, diags = inputs(manifests=job(parallelism=2, completions=2), version="1.36")
    assert [(r.pod.name, r.message) for r in plan.refused] == [
        ("train-0", 'pods "train-0" is forbidden: no PriorityClass with name training-high was found'),
        ("train-1", 'pods "train-1" is forbidden: no PriorityClass with name training-high was found')]
    assert names(pods(plan.arrivals)) == []
    (found,) = diags
    assert (found.code, found.message, found.location.path, found.location.line) == (
        "WAS630", 'pods "train-0" is forbidden: no PriorityClass with name training-high was found (and 1 more pods '
        "of Job ml/train)", ("spec", "template", "spec", "priorityClassName"), 11)


def test_137_a_job_whose_podgroup_names_a_class_that_exists_nowhere_creates_no_pods():
    # the 1.37 PodGroup carries the template's class; admission refuses it, and the Job controller stops before
    # it creates pods (job_controller.go syncJob, ensureWorkloadAndPodGroup)
    plan, diags = inputs(manifests=job(parallelism=2, completions=2), version="1.37")
    message = 'podgroups.scheduling.k8s.io "train-job" is forbidden: no PriorityClass with name training-high was found'
    assert [(r.pod.name, r.message) for r in plan.refused] == [("train-0", message), ("train-1", message)]
    assert names(plan.arrivals) == ["Group:train"]  # the Workload: the plugin does not check Workloads
    (found,) = diags
    assert (found.code, found.message, found.location.path, found.location.line) == (
        "WAS630", message + " (Job ml/train creates none of its 2 pods)",
        ("spec", "template", "spec", "priorityClassName"), 11)


def groups(records):
    return [r for r in records if isinstance(r, Group)]


def pods(records):
    return [r for r in records if isinstance(r, Pod)]


GANG_137 = """\
scheduling:
  schedulingPolicy: {gang: {}}
  schedulingConstraints: {topology: [{key: topology.kubernetes.io/rack}]}
  disruptionMode: {all: {}}
  resourceClaims:
  - {name: fabric, resourceClaimTemplateName: imex-channel}
"""


def test_137_gang_job_creates_workload_podgroup_and_pods_in_order():
    records, diags = expand(job(scheduling=GANG_137))
    assert diags == []
    assert names(records) == ["Group:train", "Group:train-job", "Pod:train-0", "Pod:train-1", "Pod:train-2",
                              "Pod:train-3"]
    workload, podgroup = groups(records)
    assert isinstance(workload.obj, hub.Workload) and isinstance(podgroup.obj, hub.PodGroup)
    assert workload.obj.controller_ref == hub.ControllerRef(api_group="batch", kind="Job", name="train")
    [template] = workload.obj.pod_group_templates
    assert template.name == "job"
    for settings in (template, podgroup.obj):
        assert settings.policy == hub.SchedulingPolicy(kind=hub.PolicyKind.GANG, min_count=4)
        assert settings.topology_keys == ("topology.kubernetes.io/rack",)
        assert settings.disruption_mode is hub.DisruptionMode.ALL
        assert settings.resource_claims == (hub.ResourceClaim(name="fabric", resource_claim_template_name="imex-channel"),)
    assert podgroup.obj.workload_ref == hub.WorkloadRef(workload_name="train", template_name="job")
    assert podgroup.obj.metadata["ownerReferences"][0] == {"apiVersion": "batch/v1", "kind": "Job", "name": "train",
                                                           "controller": True}
    assert (workload.namespace, podgroup.namespace) == ("ml", "ml")


def test_137_podgroup_takes_the_pod_templates_priority_class_and_the_plan_binds_it(tmp_path):
    """Upstream v1.37.2's Job controller copies the template's priorityClassName into the PodGroupTemplate and the
    PodGroup (not its preemptionPolicy); without it the group's priority was 0 and every pod stayed Pending with
    "all pods in a single pod group should have the same priority as the pod group's priority, got 1000 and 0"."""
    records, diags = expand(job(parallelism=2, completions=2))
    assert diags == []
    workload, podgroup = groups(records)
    assert workload.obj.pod_group_templates[0].priority_class_name == "training-high"
    assert podgroup.obj.priority_class_name == "training-high"
    assert podgroup.obj.preemption_policy is None
    from tests.cli.helpers import run

    (tmp_path / "job.yaml").write_text(CLASS + "---\n" + job(parallelism=2, completions=2))
    (tmp_path / "cluster.yaml").write_text(
        "apiVersion: v1\nkind: Node\nmetadata: {name: gpu-0}\n"
        "status: {allocatable: {cpu: '64', memory: 512Gi, pods: '110', nvidia.com/gpu: '16'}}\n")
    result = run("plan", str(tmp_path / "job.yaml"), "--cluster", str(tmp_path / "cluster.yaml"), "-o", "json")
    import json

    plan = json.loads(result.stdout)
    assert [(p["name"], p["status"], p["node"]) for p in plan["pods"]] == [("train-0", "Bound", "gpu-0"),
                                                                          ("train-1", "Bound", "gpu-0")]
    assert [(g["name"], g["status"]) for g in plan["podGroups"]] == [("train-job", "Scheduled")]
    assert result.exit_code == 0


def test_job_pods_are_named_labelled_and_owned():
    records, _ = expand(job(scheduling=GANG_137))
    p2 = pods(records)[2]
    assert (p2.namespace, p2.name, p2.pod_group, p2.owner) == ("ml", "train-2", "train-job", Owner("Job", "train"))
    assert p2.labels == {"app": "train", "batch.kubernetes.io/job-name": "train", "job-name": "train",
                         "batch.kubernetes.io/job-completion-index": "2"}
    assert p2.priority_class_name == "training-high"
    assert p2.requests == {"nvidia.com/gpu": 8, "pods": 1}
    assert p2.source is None  # made by the controller, not read from a document
    assert pods(records)[0].labels is not p2.labels and pods(records)[0].requests is not p2.requests


def test_137_explicit_min_count():
    records, _ = expand(job(parallelism=8, completions=8, scheduling="scheduling: {schedulingPolicy: {gang: {minCount: 6}}}"))
    assert groups(records)[1].obj.policy.min_count == 6
    assert len(pods(records)) == 8


def test_137_without_scheduling_is_basic():
    records, _ = expand(job())
    workload, podgroup = groups(records)
    assert podgroup.obj.policy == hub.SchedulingPolicy(kind=hub.PolicyKind.BASIC)
    assert podgroup.obj.topology_keys == () and podgroup.obj.disruption_mode is None
    assert {p.pod_group for p in pods(records)} == {"train-job"}


def test_137_non_indexed_job_also_gets_a_basic_group():
    records, _ = expand(job(parallelism=3, completions=None, indexed=False))
    assert names(records) == ["Group:train", "Group:train-job", "Pod:train-0", "Pod:train-1", "Pod:train-2"]
    assert "batch.kubernetes.io/job-completion-index" not in pods(records)[0].labels


def test_137_byo_podgroup_creates_nothing_but_pods():
    records, _ = expand(job(scheduling=GANG_137, template_spec="schedulingGroup: {podGroupName: my-gang}"))
    assert groups(records) == []
    assert [(p.name, p.pod_group) for p in pods(records)] == [(f"train-{i}", "my-gang") for i in range(4)]


@pytest.mark.parametrize("gate_spec", ["WorkloadWithJob=false", "GenericWorkload=false"])
@pytest.mark.parametrize("version", ["1.36", "1.37"])
def test_gates_off_give_plain_pods(version, gate_spec):
    records, _ = expand(job(scheduling=GANG_137 if version == "1.37" else ""), version, gate_spec)
    assert names(records) == [f"Pod:train-{i}" for i in range(4)]
    assert {p.pod_group for p in records} == {None}
    assert {p.owner.name for p in records} == {"train"}


def test_136_indexed_job_with_parallelism_equal_completions_is_an_implicit_gang():
    records, _ = expand(job(parallelism=4, completions=4), "1.36")
    assert names(records)[:2] == ["Group:train", "Group:train-job"]
    workload, podgroup = groups(records)
    assert workload.obj.pod_group_templates[0].policy == hub.SchedulingPolicy(kind=hub.PolicyKind.GANG, min_count=4)
    assert podgroup.obj.policy.min_count == 4
    assert podgroup.obj.metadata["ownerReferences"][1]["apiVersion"] == "scheduling.k8s.io/v1alpha2"
    assert [p.pod_group for p in pods(records)] == ["train-job"] * 4


@pytest.mark.parametrize("kwargs", [
    dict(parallelism=4, completions=4, indexed=False),   # not Indexed
    dict(parallelism=4, completions=8),                  # completions != parallelism
    dict(parallelism=1, completions=1),                  # not more than one pod
    dict(template_spec="schedulingGroup: {podGroupName: mine}"),  # opted out
])
def test_136_other_jobs_get_plain_pods(kwargs):
    records, _ = expand(job(**kwargs), "1.36")
    assert groups(records) == []
    expected_group = "mine" if "template_spec" in kwargs else None
    assert {p.pod_group for p in records} == {expected_group}


def test_136_ignores_spec_scheduling():
    records, _ = expand(job(parallelism=4, completions=8, scheduling=GANG_137), "1.36")
    assert groups(records) == []


@pytest.mark.parametrize("parallelism,completions,expected", [(None, None, 1), (5, 2, 2), (2, 5, 2), (3, None, 3)])
def test_pod_count(parallelism, completions, expected):
    records, _ = expand(job(parallelism=parallelism, completions=completions, indexed=False), gate_spec="WorkloadWithJob=false")
    assert names(records) == [f"Pod:train-{i}" for i in range(expected)]


@pytest.mark.parametrize("extra,words", [
    ("managedBy: kueue.x-k8s.io/multikueue", "managedBy"),
    ("suspend: true", "suspended"),
])
def test_jobs_the_controller_does_not_start(extra, words):
    records, diags = expand(job(extra_spec=extra))
    assert records == []
    [d] = diags
    assert d.code == "WAS607" and words in d.message and d.location.file == "manifests.yaml"


def test_zero_parallelism():
    records, diags = expand(job(parallelism=0))
    assert records == [] and [d.code for d in diags] == ["WAS607"]


def test_builtin_managed_by_is_fine():
    records, _ = expand(job(extra_spec="managedBy: kubernetes.io/job-controller"))
    assert len(groups(records)) == 2


def test_expansion_happens_in_place_among_arrivals():
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: before}\nspec: {containers: [{name: c}]}\n---\n"
            + job(parallelism=2, completions=2)
            + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: after}\nspec: {containers: [{name: c}]}\n")
    records, _ = expand(text)
    assert names(records) == ["Pod:before", "Group:train", "Group:train-job", "Pod:train-0", "Pod:train-1", "Pod:after"]


def test_bad_template_quantity_points_into_the_job():
    records, diags = expand(job(template_spec="initContainers: [{name: i, resources: {requests: {cpu: 1Gib}}}]"))
    assert len(pods(records)) == 4
    [d] = diags  # reported once for the template, not once per pod
    assert d.code == "WAS601"
    assert d.location.field == "spec.template.spec.initContainers[0].resources.requests.cpu"
