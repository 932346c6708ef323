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
