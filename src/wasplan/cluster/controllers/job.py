"""The Job controller's part in a plan: which pods a new Job gets, and which Workload/PodGroup with them.

Rules per release (api-reference §6.3, engine-semantics §1.15; upstream pkg/controller/job and KEP-5547), with
the gates `WorkloadWithJob` and `GenericWorkload` both required for any scheduling object:

* 1.36 (implicit): an Indexed Job with `parallelism == completions > 1`, no `schedulingGroup` in its template and
  the built-in controller in charge gets a Workload and a gang PodGroup with `minCount = parallelism`; every
  other Job only gets pods.
* 1.37 (explicit): every Job without a `schedulingGroup` in its template gets a Workload and a PodGroup built from
  `spec.scheduling` (basic when absent; gang `minCount` defaults to parallelism; constraints, disruption mode and
  resource claims copied). A template with `schedulingGroup` brings its own PodGroup: the pods join it.

A Job with a controller owner (a JobSet's child Job) is a non-root workload node: from 1.37 the controller makes
no Workload or PodGroup for it (pkg/controller/job/job_scheduling_manager.go, shouldManageWorkloadForJob), unless,
from 1.38, it has `spec.scheduling` (getManagementMode of v1.38.0-beta.0: the field asks for both); the parent
expansion passes `ChildOf` so the pods name the top-level owner and get the parent's per-pod mutations.

* 1.38 also lets a Job delegate: with `scheduling.k8s.io/workload-name` and `scheduling.k8s.io/group-template-name`
  it gets only a PodGroup, copied from that top-level template of that Workload (which must be among the inputs,
  else the controller retries and creates no pods), parented by `scheduling.k8s.io/parent-compositepodgroup`.

Upstream names the objects with random or hashed suffixes; a plan must be reproducible, so names here are fixed
(docs/workload-expansion.md): Workload `<job>`, PodGroup template `job`, PodGroup `<job>-job`, a delegated
PodGroup `<workload>-<template>-<job>`, pods `<job>-<i>`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from wasplan.api import hub
from wasplan.api.jobs import implicit_gang_size
from wasplan.api.releases import GateSet
from wasplan.cluster.controllers.pods import copy_pod, prototype
from wasplan.cluster.controllers.read import count, has_controller, mapping
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Group, Owner, Pod, Record, StartAfter

TEMPLATE_NAME = "job"
JOB_CONTROLLER = "kubernetes.io/job-controller"
JOB_NAME_LABEL = "batch.kubernetes.io/job-name"
LEGACY_JOB_NAME_LABEL = "job-name"
INDEX_LABEL = "batch.kubernetes.io/job-completion-index"
EXPANDED_FROM = "wasplan.io/expanded-from"
# the 1.38 delegation annotations (pkg/apis/scheduling/annotation_key_constants.go)
WORKLOAD_NAME = "scheduling.k8s.io/workload-name"
GROUP_TEMPLATE_NAME = "scheduling.k8s.io/group-template-name"
PARENT_COMPOSITE = "scheduling.k8s.io/parent-compositepodgroup"
_TEMPLATE_FIELDS = ("policy", "topology_keys", "disruption_mode", "priority_class_name", "priority",
                    "preemption_policy", "resource_claims")


@dataclass(frozen=True, slots=True)
class JobShape:
    """The fields of a Job that decide what the controller creates, checked once."""

    name: str
    namespace: str
    parallelism: int
    completions: int | None
    indexed: bool
    suspended: bool
    managed_by: str | None
    template_meta: dict
    template_spec: dict
    scheduling: dict | None
    controlled: bool = False  # has a controller ownerReference (a JobSet's child Job, a CronJob's Job)
    annotations: dict = field(default_factory=dict)

    @property
    def pod_count(self) -> int:
        """Pods a new Job starts with: parallelism, capped by completions."""
        return self.parallelism if self.completions is None else min(self.parallelism, self.completions)

    @property
    def builtin_controller(self) -> bool:
        return self.managed_by in (None, JOB_CONTROLLER)

    @property
    def byo_group(self) -> bool:
        return self.template_spec.get("schedulingGroup") is not None


@dataclass(frozen=True)
class ChildOf:
    """How a parent controller's expansion shapes its child Job's pods: the owner chain they report, the
    mutations its pod webhook makes per completion index, and the pods the child Job waits for."""

    owner: Owner
    per_pod: Callable[[Pod, int], Pod] | None = None
    start_after: StartAfter | None = None


def job_shape(obj: dict, ctx: Ctx) -> JobShape | None:
    """Read the Job; None (with a finding) when the controller could not act on it at all."""
    meta, spec = mapping(obj.get("metadata")), mapping(obj.get("spec"))
    template = spec.get("template")
    if not isinstance(template, dict) or not isinstance(template.get("spec"), dict):
        ctx.report("WAS602", "a Job needs spec.template.spec (the pod template)", ("spec", "template"))
        return None
    indexed = spec.get("completionMode") == "Indexed"
    # the API server defaults completions to 1 when neither it nor parallelism is set (pkg/apis/batch/v1 defaults)
    completions = count(spec, "completions", ctx.at("spec"), 1 if spec.get("parallelism") is None else None)
    if indexed and completions is None:
        ctx.report("WAS602", "an Indexed Job needs spec.completions", ("spec", "completions"))
        return None
    managed_by = spec.get("managedBy")
    return JobShape(
        name=meta.get("name") or "", namespace=meta.get("namespace") or "default",
        parallelism=count(spec, "parallelism", ctx.at("spec"), 1) or 0,
        completions=completions, indexed=indexed, suspended=spec.get("suspend") is True,
        managed_by=managed_by if isinstance(managed_by, str) else None,
        template_meta=mapping(template.get("metadata")), template_spec=template["spec"],
        scheduling=spec.get("scheduling") if isinstance(spec.get("scheduling"), dict) else None,
        controlled=has_controller(meta), annotations=mapping(meta.get("annotations")),
    )


# ------------------------------------------------------------------------------------ scheduling objects


def _policy_from_field(scheduling: dict, job: JobShape, ctx: Ctx) -> hub.SchedulingPolicy:
    """`spec.scheduling.schedulingPolicy` resolved the way the controller does: basic when absent, gang minCount
    defaulting to parallelism (at least 1)."""
    raw = mapping(scheduling.get("schedulingPolicy"))
    if raw.get("gang") is None:
        return hub.SchedulingPolicy(kind=hub.PolicyKind.BASIC)
    min_count = mapping(raw["gang"]).get("minCount")
    if min_count is not None and (not isinstance(min_count, int) or isinstance(min_count, bool) or min_count < 1):
        ctx.report("WAS602", f"gang.minCount must be an integer >= 1, got {min_count!r}",
                   ("spec", "scheduling", "schedulingPolicy", "gang", "minCount"))
        min_count = None
    return hub.SchedulingPolicy(kind=hub.PolicyKind.GANG, min_count=min_count or max(job.parallelism, 1))


def _settings_from_field(scheduling: dict, job: JobShape, ctx: Ctx) -> dict:
    """The PodGroup settings `spec.scheduling` carries besides the policy, and the pod template's
    priorityClassName."""
    topology = mapping(scheduling.get("schedulingConstraints")).get("topology") or []
    mode = scheduling.get("disruptionMode")
    claims = scheduling.get("resourceClaims") or []
    pcn = job.template_spec.get("priorityClassName")
    return dict(
        policy=_policy_from_field(scheduling, job, ctx),
        # the controller copies the pod template's class into the PodGroupTemplate (and so the PodGroup), not its
        # preemptionPolicy: what upstream v1.37.2's controller creates (oracle expand)
        priority_class_name=pcn if isinstance(pcn, str) and pcn else None,
        topology_keys=tuple(t["key"] for t in topology if isinstance(t, dict) and isinstance(t.get("key"), str)),
        disruption_mode=None if not isinstance(mode, dict) else
        hub.DisruptionMode.ALL if mode.get("all") is not None else hub.DisruptionMode.SINGLE,
        resource_claims=tuple(claim for i, c in enumerate(claims) if (claim := _claim(c, i, ctx)) is not None),
    )


def _claim(raw: object, index: int, ctx: Ctx) -> hub.ResourceClaim | None:
    """One `spec.scheduling.resourceClaims` entry as the PodGroup gets it; an entry without a string name is
    passed over (validation reports it), one whose claim or template name is not a string is reported and left
    out (a snapshot's Job is not schema-validated)."""
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
        return None
    names = {key: raw.get(key) for key in ("resourceClaimName", "resourceClaimTemplateName")}
    for key, value in names.items():
        if value is not None and not isinstance(value, str):
            ctx.report("WAS602", f"resourceClaims[].{key} must be a string, got {value!r}",
                       ("spec", "scheduling", "resourceClaims", index, key))
            return None
    return hub.ResourceClaim(name=raw["name"], resource_claim_name=names["resourceClaimName"],
                             resource_claim_template_name=names["resourceClaimTemplateName"])


def _metadata(name: str, job: JobShape, extra_owner: dict | None = None) -> dict:
    owners = [{"apiVersion": "batch/v1", "kind": "Job", "name": job.name, "controller": True}]
    if extra_owner:
        owners.append(extra_owner)
    return {"name": name, "namespace": job.namespace, "ownerReferences": owners,
            "annotations": {EXPANDED_FROM: f"Job/{job.name}"}}


def scheduling_objects(job: JobShape, settings: dict, workload_api_version: str) -> tuple[Group, Group]:
    """The Workload (one PodGroupTemplate) and its PodGroup, named deterministically; a `parent_composite` in
    `settings` is the PodGroup's only."""
    template = hub.PodGroupTemplate(name=TEMPLATE_NAME, **{k: v for k, v in settings.items() if k != "parent_composite"})
    workload = hub.Workload(
        metadata=_metadata(job.name, job),
        controller_ref=hub.ControllerRef(api_group="batch", kind="Job", name=job.name),
        pod_group_templates=(template,),
    )
    group_name = f"{job.name}-{TEMPLATE_NAME}"
    podgroup = hub.PodGroup(
        metadata=_metadata(group_name, job, {"apiVersion": workload_api_version, "kind": "Workload", "name": job.name}),
        workload_ref=hub.WorkloadRef(workload_name=job.name, template_name=TEMPLATE_NAME),
        **settings,
    )
    return Group(job.namespace, job.name, workload), Group(job.namespace, group_name, podgroup)


def group_settings(job: JobShape, gates: GateSet, ctx: Ctx) -> dict | None:
    """What the controller would put in the PodGroup, or None when it creates no scheduling objects."""
    if not (gates.on.workload_with_job and gates.on.generic_workload):
        return None
    if job.byo_group or not job.builtin_controller:
        return None
    caps = gates.release.caps
    if job.controlled and caps.child_jobs_get_no_workload and not (caps.owned_jobs_follow_scheduling and job.scheduling):
        return None
    if not gates.release.caps.job_scheduling_field:
        size = implicit_gang_size(job.indexed, job.parallelism, job.completions)
        if size is None:
            return None
        return {"policy": hub.SchedulingPolicy(kind=hub.PolicyKind.GANG, min_count=size)}
    return _settings_from_field(job.scheduling or {}, job, ctx)


def delegates(job: JobShape, gates: GateSet) -> bool:
    """1.38 getManagementMode: a Job whose pod template names no PodGroup and that carries a delegation
    annotation gets only a PodGroup, from a Workload someone else made (checked before ownership and
    spec.scheduling)."""
    return (gates.release.caps.job_delegation and gates.on.workload_with_job and gates.on.generic_workload
            and not job.byo_group and (WORKLOAD_NAME in job.annotations or GROUP_TEMPLATE_NAME in job.annotations))


def delegated_group(job: JobShape, workloads: dict, ctx: Ctx) -> Group | None:
    """The PodGroup of a delegating Job (getOrCreateDelegatedPodGroup, workloadbuilder newPodGroup of
    v1.38.0-beta.0): the named top-level PodGroupTemplate of the named Workload, copied, with the Job as its
    only owner and the parent-compositepodgroup annotation as its parent. None (WAS607) when either annotation
    is empty or the Workload or its template is not among the inputs: the controller then errs and retries,
    and creates no pods at all."""
    workload_name, template_name = job.annotations.get(WORKLOAD_NAME), job.annotations.get(GROUP_TEMPLATE_NAME)
    where = ("metadata", "annotations")
    if not workload_name or not template_name:
        empty = WORKLOAD_NAME if not workload_name else GROUP_TEMPLATE_NAME
        ctx.report("WAS607", f"Job {job.namespace}/{job.name} creates no pods in this plan: its {empty} annotation "
                             "is missing or empty, and the Job controller retries it", where)
        return None
    workload = workloads.get((job.namespace, workload_name))
    template = next((t for t in workload.pod_group_templates if t.name == template_name), None) if workload else None
    if template is None:
        missing = (f"Workload {job.namespace}/{workload_name}" if workload is None else
                   f"podGroupTemplate {template_name!r} of Workload {job.namespace}/{workload_name}")
        ctx.report("WAS607", f"Job {job.namespace}/{job.name} creates no pods in this plan: the {missing} it "
                             "delegates its PodGroup to is not among the inputs, and the Job controller retries it",
                   where)
        return None
    name = f"{workload_name}-{template_name}-{job.name}"  # upstream: <workload>-<template>-<hash of the Job's UID>
    podgroup = hub.PodGroup(metadata=_metadata(name, job),
                            workload_ref=hub.WorkloadRef(workload_name=workload_name, template_name=template_name),
                            parent_composite=job.annotations.get(PARENT_COMPOSITE) or None,
                            **{f: getattr(template, f) for f in _TEMPLATE_FIELDS})
    return Group(job.namespace, name, podgroup)


# ------------------------------------------------------------------------------------ pods


def job_pods(job: JobShape, proto: Pod, pod_group: str | None, child: ChildOf | None = None) -> list[Pod]:
    """`pod_count` pods named `<job>-<i>`, labelled as the controller labels them, owned by the Job (or by the
    parent the Job belongs to, with the Job in the owner chain)."""
    base_labels = dict(proto.labels)
    base_labels[JOB_NAME_LABEL] = job.name
    base_labels[LEGACY_JOB_NAME_LABEL] = job.name
    owner = child.owner if child else Owner("Job", job.name)
    start_after = child.start_after if child else None
    pods = []
    for i in range(job.pod_count):
        labels = dict(base_labels)
        if job.indexed:
            labels[INDEX_LABEL] = str(i)
        pod = copy_pod(proto, f"{job.name}-{i}", labels, pod_group, owner, start_after)
        pods.append(child.per_pod(pod, i) if child and child.per_pod else pod)
    return pods


# The planner's limit on the pods one Job starts: upstream's own threshold for Indexed Jobs with many completions
# (`parallelismLimitForHighCompletions`, pkg/apis/batch/validation/validation.go). Beyond it a plan would take
# minutes, mostly proving that the cluster is full; docs/exit-codes.md: Limits.
MAX_JOB_PODS = 10_000


def _skip_reason(job: JobShape) -> str | None:
    if not job.builtin_controller:
        return f"spec.managedBy is {job.managed_by!r}: the built-in Job controller leaves this Job to that controller"
    if job.suspended:
        return "the Job is suspended (spec.suspend: true): the controller creates no pods until it is resumed"
    if job.pod_count == 0:
        return "spec.parallelism (or spec.completions) is 0: the controller creates no pods"
    return None


def expand_job(obj: dict, gates: GateSet, ctx: Ctx, child: ChildOf | None = None,
               workloads: dict | None = None) -> list[Record]:
    """Workload, PodGroup (when the release and gates create them), then the pods, in that order. `workloads`:
    the input's Workloads by (namespace, name), which a 1.38 Job may delegate its PodGroup to."""
    job = job_shape(obj, ctx)
    if job is None:
        return []
    reason = _skip_reason(job)
    if reason is not None:
        ctx.report("WAS607", f"Job {job.namespace}/{job.name} creates no pods in this plan: {reason}", ("spec",))
        return []
    if job.pod_count > MAX_JOB_PODS:
        ctx.report("WAS610", f"Job {job.namespace}/{job.name} would start {job.pod_count:,} pods; the planner expands "
                             f"at most {MAX_JOB_PODS:,} per Job", ("spec", "parallelism"),
                   hint="plan a scaled-down copy of the Job (the scheduler treats its pods alike)")
        return []
    meta = dict(job.template_meta, namespace=job.namespace)
    proto = prototype(meta, job.template_spec, ctx.at("spec", "template"))
    if delegates(job, gates):
        podgroup = delegated_group(job, workloads or {}, ctx)
        return [] if podgroup is None else [podgroup, *job_pods(job, proto, podgroup.name, child)]
    settings = group_settings(job, gates, ctx)
    if settings is None:
        return list(job_pods(job, proto, proto.pod_group, child))
    if gates.release.caps.job_delegation and job.annotations.get(PARENT_COMPOSITE):  # 1.38 createPodGroup
        settings = {**settings, "parent_composite": job.annotations[PARENT_COMPOSITE]}
    workload, podgroup = scheduling_objects(job, settings, gates.release.preferred["Workload"])
    return [workload, podgroup, *job_pods(job, proto, podgroup.name, child)]
