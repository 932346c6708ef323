"""The 1.38 Job controller's management mode for a Job with a controller owner (pkg/controller/job/
job_scheduling_manager.go getManagementMode of v1.38.0-beta.0): `spec.scheduling` asks for a Workload and a
PodGroup even for an owned Job, where 1.37 (shouldManageWorkloadForJob) made none for any owned Job. Checked with
`oracle expand --k8s-version 1.38` (tests/oracle/test_expand_oracle.py generates owned Jobs too): a JobSet's
Job with spec.scheduling gets its Workload and gang PodGroup, one without gets pods only."""

from __future__ import annotations

from wasplan.api import hub
from wasplan.api.releases import default_gates, get_release
from wasplan.cluster.controllers.job import expand_job
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Group, Pod

from .helpers import inputs
from .test_controllers import JOBSET

OWNER = [{"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet", "name": "js", "uid": "js-uid",
          "controller": True}]


def _job(scheduling: bool) -> dict:
    spec: dict = {"parallelism": 2, "completions": 2, "template": {"spec": {
        "restartPolicy": "Never", "containers": [{"name": "c", "image": "busybox"}]}}}
    if scheduling:
        spec["scheduling"] = {"schedulingPolicy": {"gang": {}}}
    return {"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": "owned", "namespace": "ml", "ownerReferences": OWNER}, "spec": spec}


def _made(job: dict, release: str) -> list[tuple]:
    records = expand_job(job, default_gates(get_release(release)), Ctx(None))
    return [(type(r.obj).__name__, r.obj.policy.min_count if isinstance(r.obj, hub.PodGroup) else None)
            if isinstance(r, Group) else ("Pod", r.pod_group) for r in records if isinstance(r, (Group, Pod))]


def test_an_owned_job_with_spec_scheduling_gets_its_workload_and_gang_in_1_38():
    assert _made(_job(True), "1.38") == [("Workload", None), ("PodGroup", 2), ("Pod", "owned-job"),
                                         ("Pod", "owned-job")]


def test_an_owned_job_without_it_or_in_1_37_gets_pods_only():
    assert _made(_job(False), "1.38") == [("Pod", None), ("Pod", None)]
    assert _made(_job(True), "1.37") == [("Pod", None), ("Pod", None)]


def test_a_jobset_child_job_template_with_scheduling_is_no_longer_ignored_in_1_38():
    text = JOBSET.replace("        completionMode: Indexed\n",
                          "        completionMode: Indexed\n        scheduling: {schedulingPolicy: {gang: {}}}\n")
    plan, diags = inputs(manifests=text, version="1.38")
    assert [d.code for d in diags if d.code == "WAS623"] == []
    groups = [r for r in plan.arrivals if isinstance(r, Group) and type(r.obj).__name__ == "PodGroup"]
    assert [(g.name, g.obj.policy.min_count) for g in groups] == [("train-workers-0-job", 2),
                                                                  ("train-workers-1-job", 2)]


DELEGATING = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: worker
  namespace: ml
  annotations:
    scheduling.k8s.io/workload-name: pipeline
    scheduling.k8s.io/group-template-name: workers
    scheduling.k8s.io/parent-compositepodgroup: top
spec:
  parallelism: 2
  completions: 2
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: busybox}]
"""
PIPELINE = """\
apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata: {name: pipeline, namespace: ml}
spec:
  podGroupTemplates:
  - name: workers
    schedulingPolicy: {gang: {minCount: 2}}
    schedulingConstraints: {topology: [{key: rack}]}
---
"""


def test_a_delegating_job_gets_only_a_podgroup_from_the_named_template_in_1_38():
    """What `oracle expand --k8s-version 1.38` creates for these two documents (job_scheduling_manager.go
    getOrCreateDelegatedPodGroup, workloadbuilder newPodGroup): no Workload, one PodGroup copying the template
    (gang 2, the rack constraint), under the Workload and parented by the annotation, and both pods in it.
    Upstream names it pipeline-workers-<hash of the Job's UID>; wasplan pipeline-workers-worker."""
    plan, diags = inputs(manifests=PIPELINE + DELEGATING, version="1.38")
    made = [r for r in plan.arrivals if isinstance(r, Group) and isinstance(r.obj, hub.PodGroup)]
    assert [(g.name, g.obj.policy.min_count, g.obj.topology_keys, g.obj.parent_composite,
             (g.obj.workload_ref.workload_name, g.obj.workload_ref.template_name)) for g in made] == [
        ("pipeline-workers-worker", 2, ("rack",), "top", ("pipeline", "workers"))]
    assert [(o["kind"], o["name"]) for o in made[0].obj.metadata["ownerReferences"]] == [("Job", "worker")]
    assert {p.name: p.pod_group for p in plan.arrivals if isinstance(p, Pod)} == {
        "worker-0": "pipeline-workers-worker", "worker-1": "pipeline-workers-worker"}
    assert not [d for d in diags if d.code == "WAS607"]


def test_without_the_named_workload_the_job_creates_nothing_in_1_38():
    """The controller errs (`workload ml/pipeline not found for job worker`) and retries: the oracle prints no
    object at all for the Job alone."""
    plan, diags = inputs(manifests=DELEGATING, version="1.38")
    assert [r for r in plan.arrivals if isinstance(r, (Group, Pod))] == []
    (note,) = [d for d in diags if d.code == "WAS607"]
    assert note.message == ("Job ml/worker creates no pods in this plan: the Workload ml/pipeline it delegates its "
                            "PodGroup to is not among the inputs, and the Job controller retries it")
    _, diags = inputs(manifests=PIPELINE + DELEGATING.replace("group-template-name: workers", "group-template-name: x"),
                      version="1.38")
    assert [d.message for d in diags if d.code == "WAS607"] == [
        "Job ml/worker creates no pods in this plan: the podGroupTemplate 'x' of Workload ml/pipeline it delegates "
        "its PodGroup to is not among the inputs, and the Job controller retries it"]


def test_1_37_gives_a_delegating_job_a_workload_of_its_own():
    plan, _ = inputs(manifests=PIPELINE + DELEGATING, version="1.37")
    assert sorted(r.name for r in plan.arrivals if isinstance(r, Group)) == ["pipeline", "worker", "worker-job"]


def test_the_parent_annotation_parents_a_jobs_own_podgroup_in_1_38():
    """`oracle expand --k8s-version 1.38`: Job solo with the annotation gets its Workload and a PodGroup whose
    parentCompositePodGroupName is `top` (createPodGroup); 1.37 ignores the annotation."""
    job = _job(False)
    job["metadata"] = {"name": "solo", "namespace": "ml",
                       "annotations": {"scheduling.k8s.io/parent-compositepodgroup": "top"}}
    for release, parent in (("1.38", "top"), ("1.37", None)):
        records = expand_job(job, default_gates(get_release(release)), Ctx(None))
        (group,) = [r for r in records if isinstance(r, Group) and isinstance(r.obj, hub.PodGroup)]
        assert group.obj.parent_composite == parent
