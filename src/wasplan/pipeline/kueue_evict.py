"""The snapshot pods Kueue stops when it evicts a Workload that held quota (preempted, or drained by a
HoldAndDrain queue), found the way Kueue's job framework reaches them.

Kueue v0.17.0 (sigs.k8s.io/kueue@v0.17.0/pkg/controller/jobframework/reconciler.go, `ReconcileGenericJob` and
`stopJob`) answers an Evicted condition by stopping the Workload's job: a batch/v1 Job is suspended
(jobs/job/job_controller.go `Stop`), after which the Job controller deletes its active pods; a JobSet is suspended
and its child Jobs with it (jobs/jobset); the pod integration deletes the pods itself, marking each with a
TerminationTarget condition whose reason is `WorkloadEvictedDueTo<the Evicted reason>` (jobs/pod/pod_controller.go
`Stop`, which lists a group's pods by the `kueue.x-k8s.io/pod-group-name` label). A Workload names its job by its
controller ownerReference (kind, name, uid), as the job framework writes it.

So, per evicted Workload, its job (the Workload the model built from a manifest names its object; a snapshot
Workload its controller ownerReference), then the snapshot pods that are not finished and:
* Job: whose controller ownerReference is that Job (same uid when both carry one), or that carry the Job
  controller's `batch.kubernetes.io/job-name` label;
* JobSet: whose controller is a Job the JobSet controls (when the snapshot holds the child Jobs), or that carry
  the JobSet controller's `jobset.sigs.k8s.io/jobset-name` label;
* Pod: the pods of the group named like the Workload (`kueue.x-k8s.io/pod-group-name`), else the pods the
  Workload's ownerReferences name;
* any other kind (StatefulSet, LeaderWorkerSet, Deployment: Kueue's pod-based integrations): the pods of the
  group named like the Workload, or those the object controls.
None found (a Workload with no owner, a JobSet whose child Jobs and labels are absent, a job whose pods are not
in the snapshot) means the plan cannot tell which pods stop: the caller keeps them running and says so (WAS693).
"""

from __future__ import annotations

from wasplan.cluster.controllers.job import JOB_NAME_LABEL
from wasplan.cluster.controllers.jobset import PREFIX as JOBSET_PREFIX
from wasplan.cluster.kueue import POD_GROUP_LABEL
from wasplan.cluster.snapshot import FINISHED_PHASES

KUEUE_GROUP = "kueue.x-k8s.io"
JOBSET_NAME_LABEL = JOBSET_PREFIX + "jobset-name"


def eviction_reason(evicted_reason: str) -> str:
    """The reason Kueue writes on a stopped pod: the stop reason joined with the Evicted condition's reason."""
    return "WorkloadEvictedDueTo" + (evicted_reason or "Preempted")


def _phase(doc) -> object:
    status = doc.obj.get("status")
    return status.get("phase") if isinstance(status, dict) else None


def stopped_pods(wl, docs: list) -> list[str]:
    """Names of the snapshot pods (in the Workload's namespace) Kueue stops with the evicted Workload `wl`
    (a wasplan.kueue WorkloadOutcome); [] when the plan cannot tell which they are."""
    namespace = wl.namespace
    owner = _job_of(wl, docs)
    if owner is None:
        return []
    kind, name, uid = owner
    pods = [d for d in docs if d.kind == "Pod" and (d.namespace or "default") == namespace and d.name
            and _phase(d) not in FINISHED_PHASES]
    if kind == "Job":
        found = [p for p in pods if _controlled_by(p, "Job", name, uid) or _label(p, JOB_NAME_LABEL) == name]
    elif kind == "JobSet":
        children = {d.name for d in docs if d.kind == "Job" and (d.namespace or "default") == namespace
                    and _controlled_by(d, "JobSet", name, uid)}
        found = [p for p in pods if _label(p, JOBSET_NAME_LABEL) == name
                 or any(_controlled_by(p, "Job", child, None) for child in children)]
    else:
        found = [p for p in pods if _label(p, POD_GROUP_LABEL) == wl.name]
        if not found and kind == "Pod":
            named = {name, *_owned_pods(workload_doc(wl, docs))}
            found = [p for p in pods if p.name in named]
        elif not found:
            found = [p for p in pods if _controlled_by(p, kind, name, uid)]
    return sorted({p.name for p in found})


def _job_of(wl, docs: list) -> tuple[str, str, str | None] | None:
    """(kind, name, uid) of the object whose Workload `wl` is: the manifest it was built from, else the snapshot
    Workload's controller ownerReference."""
    if wl.source is not None:
        return wl.source.kind, wl.source.name, None
    ref = next((r for r in _refs(workload_doc(wl, docs)) if r.get("controller") is True), None)
    if ref is None or not ref.get("kind") or not ref.get("name"):
        return None
    return str(ref["kind"]), str(ref["name"]), str(ref["uid"]) if ref.get("uid") else None


def workload_doc(wl, docs: list):
    """The snapshot's own document of Workload `wl`, or None."""
    return next((d for d in docs if d.kind == "Workload" and d.api_version.startswith(KUEUE_GROUP + "/")
                 and d.name == wl.name and (d.namespace or "default") == wl.namespace), None)


def _owned_pods(doc) -> list[str]:
    return [str(r.get("name")) for r in _refs(doc) if r.get("kind") == "Pod" and r.get("name")]


def _refs(doc) -> list[dict]:
    refs = doc.metadata.get("ownerReferences") if doc is not None else None
    return [r for r in refs if isinstance(r, dict)] if isinstance(refs, list) else []


def _controlled_by(doc, kind: str, name: str, uid: str | None) -> bool:
    return any(r.get("controller") is True and r.get("kind") == kind and r.get("name") == name
               and (uid is None or not r.get("uid") or r.get("uid") == uid) for r in _refs(doc))


def _label(doc, key: str) -> str | None:
    labels = doc.metadata.get("labels")
    return labels.get(key) if isinstance(labels, dict) else None
