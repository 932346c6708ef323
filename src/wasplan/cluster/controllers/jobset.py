"""The JobSet controller's part in a plan (kubernetes-sigs/jobset, main at 08dfbdf, August 2026).

Followed: pkg/controllers/jobset_controller.go (`reconcileReplicatedJobs`, `constructJob`,
`labelAndAnnotateObject`, `globalJobIndex`, `groupJobIndex`), pkg/controllers/startup_policy.go,
pkg/controllers/depends_on.go, pkg/util/placement/placement.go (`GenJobName`), pkg/webhooks/pod_webhook.go
(exclusive placement, the priority label), pkg/webhooks/jobset_webhook.go (`Default`: completionMode Indexed)
and api/jobset/v1alpha2/jobset_types.go (keys, defaults).

* Each `replicatedJobs[i]` makes `replicas` (default 1) Jobs named `<jobset>-<replicatedJob>-<index>`, each
  expanded by the Job controller (job.py): a child Job has a controller owner, so from 1.37 it gets no
  Workload or PodGroup of its own; pods that name a PodGroup in the template join it (JobSet's own
  workload-aware scheduling examples pair the JobSet with a hand-written Workload and PodGroup). JobSet itself
  creates no scheduling.k8s.io objects in that source.
* `startupPolicy.startupPolicyOrder: InOrder`: replicated job i is created once every pod of i-1 runs;
  `dependsOn` with status Ready likewise waits for the named replicated job, Complete for its completion,
  which a plan never reaches.
* Exclusive placement (`alpha.jobset.sigs.k8s.io/exclusive-topology` on the JobSet or a replicated job's
  template): exclusive.py; with `alpha.jobset.sigs.k8s.io/node-selector` the nodeSelector strategy instead.
"""

from __future__ import annotations

import hashlib

from wasplan.cluster.controllers import exclusive
from wasplan.cluster.controllers.context import Expansion
from wasplan.cluster.controllers.job import ChildOf, expand_job
from wasplan.cluster.controllers.read import count, mapping
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Owner, Pod, Record, Requirement, StartAfter

API_VERSION = "jobset.x-k8s.io/v1alpha2"
PREFIX = "jobset.sigs.k8s.io/"
EXCLUSIVE = "alpha.jobset.sigs.k8s.io/exclusive-topology"
NODE_SELECTOR_STRATEGY = "alpha.jobset.sigs.k8s.io/node-selector"
NAMESPACED_JOB = "alpha.jobset.sigs.k8s.io/namespaced-job"
NO_SCHEDULE = "alpha.jobset.sigs.k8s.io/no-schedule"
JOB_KEY = PREFIX + "job-key"
PRIORITY = PREFIX + "priority"
CONTROLLER = "jobset.sigs.k8s.io/jobset-controller"


def job_name(jobset: str, replicated_job: str, index: int) -> str:
    return f"{jobset}-{replicated_job}-{index}"


def _replicated_jobs(spec: dict, ctx: Ctx) -> list[tuple[int, dict]]:
    raw = spec.get("replicatedJobs")
    if not isinstance(raw, list) or not raw:
        ctx.report("WAS602", "a JobSet needs spec.replicatedJobs", ("spec", "replicatedJobs"))
        return []
    out = []
    for i, rjob in enumerate(raw):
        if isinstance(rjob, dict) and isinstance(rjob.get("name"), str) and isinstance(rjob.get("template"), dict):
            out.append((i, rjob))
        else:
            ctx.report("WAS602", "a replicated job needs a name and a template", ("spec", "replicatedJobs", i))
    return out


class _Layout:
    """Replica counts by replicated job and group: the global and group job indexes derive from them."""

    def __init__(self, rjobs: list[tuple[int, dict]], ctx: Ctx):
        self.rows = [(r["name"], r.get("groupName") or "default",
                      count(r, "replicas", ctx.at("spec", "replicatedJobs", i), 1) or 0) for i, r in rjobs]

    def replicas(self, name: str) -> int:
        return next(n for r, _, n in self.rows if r == name)

    def global_index(self, name: str, index: int, group: str | None = None) -> int:
        """Jobs of the replicated jobs before this one (of the same group when `group` is given), plus index."""
        before = 0
        for r, g, n in self.rows:
            if group is not None and g != group:
                continue
            if r == name:
                return before + index
            before += n
        return index

    def group_replicas(self, group: str) -> int:
        return sum(n for _, g, n in self.rows if g == group)


def _labels(js: str, ns: str, rjob: dict, index: int, layout: _Layout, coordinator: str | None) -> dict[str, str]:
    """The labels (and, identically, annotations) JobSet puts on each child Job and its pod template."""
    name, group = rjob["name"], rjob.get("groupName") or "default"
    child = job_name(js, name, index)
    out = {PREFIX + "jobset-name": js, PREFIX + "replicatedjob-name": name, PREFIX + "restart-attempt": "0",
           PREFIX + "replicatedjob-replicas": str(layout.replicas(name)),
           PREFIX + "global-replicas": str(sum(n for _, _, n in layout.rows)),
           PREFIX + "job-index": str(index), JOB_KEY: hashlib.sha1(f"{ns}/{child}".encode()).hexdigest(),
           PREFIX + "job-global-index": str(layout.global_index(name, index)), PREFIX + "group-name": group,
           PREFIX + "group-replicas": str(layout.group_replicas(group)),
           PREFIX + "job-group-index": str(layout.global_index(name, index, group))}
    if coordinator:
        out[PREFIX + "coordinator"] = coordinator
    return out


def _coordinator(js: str, spec: dict) -> str | None:
    raw = mapping(spec.get("coordinator"))
    if not raw.get("replicatedJob"):
        return None
    subdomain = mapping(spec.get("network")).get("subdomain") or js
    return f"{js}-{raw['replicatedJob']}-{raw.get('jobIndex', 0)}-{raw.get('podIndex', 0)}.{subdomain}"


def _child_job(js: dict, rjob: dict, index: int, labels: dict[str, str], priority: int) -> dict:
    """The Job `constructJob` would create: the template (completionMode defaulted to Indexed) with JobSet's
    labels and annotations on the Job and its pod template, a controller owner, `suspend` taken from the JobSet,
    and the nodeSelector strategy."""
    meta, template = mapping(js.get("metadata")), mapping(rjob.get("template"))
    tmeta, tspec = mapping(template.get("metadata")), dict(mapping(template.get("spec")))
    annotations = dict(labels)
    for source in (mapping(meta.get("annotations")), mapping(tmeta.get("annotations"))):
        annotations.update({k: v for k, v in source.items() if k in (EXCLUSIVE, NODE_SELECTOR_STRATEGY)})
    pod_template = mapping(tspec.get("template"))
    pod_meta = mapping(pod_template.get("metadata"))
    pod_labels = {**mapping(pod_meta.get("labels")), **labels, PRIORITY: str(priority)}
    pod_spec = dict(mapping(pod_template.get("spec")))
    name = job_name(meta["name"], rjob["name"], index)
    if EXCLUSIVE in annotations and NODE_SELECTOR_STRATEGY in annotations:
        pod_spec["nodeSelector"] = {**mapping(pod_spec.get("nodeSelector")), NAMESPACED_JOB: f"{meta['namespace']}_{name}"}
        pod_spec["tolerations"] = [*(pod_spec.get("tolerations") or []),
                                   {"key": NO_SCHEDULE, "operator": "Exists", "effect": "NoSchedule"}]
    tspec["template"] = {"metadata": {**pod_meta, "labels": pod_labels,
                                      "annotations": {**mapping(pod_meta.get("annotations")), **annotations}},
                         "spec": pod_spec}
    tspec["suspend"] = mapping(js.get("spec")).get("suspend") is True
    if tspec.get("completionMode") is None:  # JobSet's webhook defaults it (pkg/webhooks/jobset_webhook.go)
        tspec["completionMode"] = "Indexed"
    return {"apiVersion": "batch/v1", "kind": "Job",
            "metadata": {"name": name, "namespace": meta["namespace"],
                         "labels": {**mapping(tmeta.get("labels")), **labels}, "annotations": annotations,
                         "ownerReferences": [{"apiVersion": API_VERSION, "kind": "JobSet", "name": meta["name"],
                                              "controller": True}]},
            "spec": tspec}


def _exclusive(job: dict, priority: int, followers_wait: StartAfter):
    """The pod webhook's per-pod mutation for exclusive placement, or None when it does not apply."""
    annotations = job["metadata"]["annotations"]
    topology = annotations.get(EXCLUSIVE)
    if not topology or NODE_SELECTOR_STRATEGY in annotations:
        return None
    also = (Requirement(PRIORITY, "In", (str(priority),)),)

    def mutate(pod: Pod, index: int) -> Pod:
        if index == 0:
            return exclusive.leader(pod, JOB_KEY, topology, all_namespaces=True, also=also)
        pod = exclusive.follower(pod, JOB_KEY, topology, all_namespaces=True)
        pod.start_after = followers_wait
        return pod
    return mutate


def _skip_reason(spec: dict) -> str | None:
    managed_by = spec.get("managedBy")
    if isinstance(managed_by, str) and managed_by != CONTROLLER:
        return f"spec.managedBy is {managed_by!r}: the JobSet controller leaves it to that controller"
    if spec.get("suspend") is True:
        return "the JobSet is suspended (spec.suspend: true): its Jobs create no pods until it is resumed"
    return None


def _waits(spec: dict, rjob: dict, pods_of: dict[str, list[str]], previous: str | None) -> StartAfter | None:
    """What the replicated job's Jobs wait for before JobSet creates them: dependsOn, else InOrder startup."""
    depends = [d for d in rjob.get("dependsOn") or () if isinstance(d, dict) and d.get("name") in pods_of]
    if depends:
        if any(d.get("status") == "Complete" for d in depends):
            names = ", ".join(d["name"] for d in depends)
            return StartAfter((), f"JobSet dependsOn: created once replicated job(s) {names} complete, "
                                  "which a plan never sees", never=True)
        keys = tuple(k for d in depends for k in pods_of[d["name"]])
        return StartAfter(keys, f"JobSet dependsOn: created once every pod of {depends[0]['name']} is running")
    in_order = mapping(spec.get("startupPolicy")).get("startupPolicyOrder") == "InOrder"
    if in_order and previous is not None:
        return StartAfter(tuple(pods_of[previous]),
                          f"JobSet startupPolicy InOrder: created once every pod of replicated job {previous} runs")
    return None


def _note_ignored_scheduling(rjob: dict, exp: Expansion, ctx: Ctx) -> None:
    """A Job template's `spec.scheduling` does nothing for a JobSet's child Job in releases where the Job
    controller leaves controller-owned Jobs to their parent (WAS623); 1.38 manages them when they have it."""
    job_spec = mapping(mapping(rjob["template"]).get("spec"))
    pod_spec = mapping(mapping(job_spec.get("template")).get("spec"))
    caps = exp.gates.release.caps
    if (isinstance(job_spec.get("scheduling"), dict) and pod_spec.get("schedulingGroup") is None
            and caps.child_jobs_get_no_workload and not caps.owned_jobs_follow_scheduling):
        ctx.report("WAS623", f"spec.scheduling of replicated job {rjob['name']!r} is ignored: the JobSet owns its "
                   "child Jobs, and the Job controller makes no Workload or PodGroup for a Job with a controller owner",
                   ("spec", "scheduling"), "write a Workload and PodGroup and set spec.schedulingGroup.podGroupName in "
                   "the pod template, as JobSet's workload-aware scheduling examples do")


def expand_jobset(obj: dict, exp: Expansion, ctx: Ctx) -> list[Record]:
    """Every child Job's Workload/PodGroup (when the release makes them) and pods, replicated jobs in order."""
    meta, spec = mapping(obj.get("metadata")), mapping(obj.get("spec"))
    name, ns = meta["name"], meta.get("namespace") or "default"
    obj = {**obj, "metadata": {**meta, "namespace": ns}}
    reason = _skip_reason(spec)
    if reason is not None:
        ctx.report("WAS621", f"JobSet {ns}/{name} creates no pods in this plan: {reason}", ("spec",))
        return []
    rjobs = _replicated_jobs(spec, ctx)
    layout, coordinator = _Layout(rjobs, ctx), _coordinator(name, spec)
    records: list[Record] = []
    pods_of: dict[str, list[str]] = {}
    previous = None
    for i, rjob in rjobs:
        wait = _waits(spec, rjob, pods_of, previous)
        rctx = ctx.at("spec", "replicatedJobs", i, "template")
        _note_ignored_scheduling(rjob, exp, rctx)
        pod_spec = mapping(mapping(mapping(mapping(rjob["template"]).get("spec")).get("template")).get("spec"))
        priority = exp.priority(pod_spec)
        pods_of[rjob["name"]] = []
        for index in range(layout.replicas(rjob["name"])):
            labels = _labels(name, ns, rjob, index, layout, coordinator)
            job = _child_job(obj, rjob, index, labels, priority)
            leader_key = f"{ns}/{job['metadata']['name']}-0"
            followers = StartAfter((leader_key,), "JobSet exclusive placement: a follower pod is admitted once its "
                                                  "leader (completion index 0) is scheduled")
            child = ChildOf(Owner("JobSet", name, (Owner("Job", job["metadata"]["name"]),)),
                            _exclusive(job, priority, followers), wait)
            # findings of the shared template are reported once, for the first Job
            jctx = rctx if index == 0 else Ctx(ctx.doc, [], rctx.prefix)
            made = expand_job(job, exp.gates, jctx, child, exp.workloads)
            pods_of[rjob["name"]] += [r.key for r in made if isinstance(r, Pod)]
            records += made
        previous = rjob["name"]
    return records
