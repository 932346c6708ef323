"""The Job controller's part in a plan: which pods a new Job gets, and which Workload/PodGroup with them.

Rules per release (api-reference §6.3, engine-semantics §1.15; upstream pkg/controller/job and KEP-5547), with
the gates `WorkloadWithJob` and `GenericWorkload` both required for any scheduling object:

* 1.36 (implicit): an Indexed Job with `parallelism == completions > 1`, no `schedulingGroup` in its template and
  the built-in controller in charge gets a Workload and a gang PodGroup with `minCount = parallelism`; every
  other Job only gets pods.
* 1.37 (explicit): every Job without a `schedulingGroup` in its template gets a Workload and a PodGroup built from
  `spec.scheduling` (basic when absent; gang `minCount` defaults to parallelism; constraints, disruption mode and
  resource claims copied). A template with `schedulingGroup` brings its own PodGroup: the pods join it.

Upstream names the objects with random or hashed suffixes; a plan must be reproducible, so names here are fixed
(docs/job-expansion.md): Workload `<job>`, PodGroup template `job`, PodGroup `<job>-job`, pods `<job>-<i>`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from wasplan.api import hub
from wasplan.api.releases import GateSet
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Group, Owner, Pod, Record
from wasplan.cluster.parse_pod import pod_from_parts

TEMPLATE_NAME = "job"
JOB_CONTROLLER = "kubernetes.io/job-controller"
JOB_NAME_LABEL = "batch.kubernetes.io/job-name"
LEGACY_JOB_NAME_LABEL = "job-name"
INDEX_LABEL = "batch.kubernetes.io/job-completion-index"
EXPANDED_FROM = "wasplan.io/expanded-from"


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


def _count(spec: dict, key: str, ctx: Ctx, default: int | None) -> int | None:
    value = spec.get(key)
    if value is None:
        return default
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    ctx.report("WAS602", f"spec.{key} must be a non-negative integer, got {value!r}", ("spec", key))
    return default


def _dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def job_shape(obj: dict, ctx: Ctx) -> JobShape | None:
    """Read the Job; None (with a finding) when the controller could not act on it at all."""
    meta, spec = _dict(obj.get("metadata")), _dict(obj.get("spec"))
    template = spec.get("template")
    if not isinstance(template, dict) or not isinstance(template.get("spec"), dict):
        ctx.report("WAS602", "a Job needs spec.template.spec (the pod template)", ("spec", "template"))
        return None
    indexed = spec.get("completionMode") == "Indexed"
    completions = _count(spec, "completions", ctx, None)
    if indexed and completions is None:
        ctx.report("WAS602", "an Indexed Job needs spec.completions", ("spec", "completions"))
        return None
    managed_by = spec.get("managedBy")
    return JobShape(
        name=meta.get("name") or "", namespace=meta.get("namespace") or "default",
        parallelism=_count(spec, "parallelism", ctx, 1) or 0,
        completions=completions, indexed=indexed, suspended=spec.get("suspend") is True,
        managed_by=managed_by if isinstance(managed_by, str) else None,
        template_meta=_dict(template.get("metadata")), template_spec=template["spec"],
        scheduling=spec.get("scheduling") if isinstance(spec.get("scheduling"), dict) else None,
    )


# ------------------------------------------------------------------------------------ scheduling objects


def _policy_137(scheduling: dict, job: JobShape, ctx: Ctx) -> hub.SchedulingPolicy:
    """`spec.scheduling.schedulingPolicy` resolved the way the controller does: basic when absent, gang minCount
    defaulting to parallelism (at least 1)."""
    raw = _dict(scheduling.get("schedulingPolicy"))
    if raw.get("gang") is None:
        return hub.SchedulingPolicy(kind=hub.PolicyKind.BASIC)
    min_count = _dict(raw["gang"]).get("minCount")
    if min_count is not None and (not isinstance(min_count, int) or isinstance(min_count, bool) or min_count < 1):
        ctx.report("WAS602", f"gang.minCount must be an integer >= 1, got {min_count!r}",
                   ("spec", "scheduling", "schedulingPolicy", "gang", "minCount"))
        min_count = None
    return hub.SchedulingPolicy(kind=hub.PolicyKind.GANG, min_count=min_count or max(job.parallelism, 1))


def _settings_137(scheduling: dict, job: JobShape, ctx: Ctx) -> dict:
    """The PodGroup settings `spec.scheduling` carries besides the policy."""
    topology = _dict(scheduling.get("schedulingConstraints")).get("topology") or []
    mode = scheduling.get("disruptionMode")
    claims = scheduling.get("resourceClaims") or []
    return dict(
        policy=_policy_137(scheduling, job, ctx),
        topology_keys=tuple(t["key"] for t in topology if isinstance(t, dict) and isinstance(t.get("key"), str)),
        disruption_mode=None if not isinstance(mode, dict) else
        hub.DisruptionMode.ALL if mode.get("all") is not None else hub.DisruptionMode.SINGLE,
        resource_claims=tuple(
            hub.ResourceClaim(name=c["name"], resource_claim_name=c.get("resourceClaimName"),
                              resource_claim_template_name=c.get("resourceClaimTemplateName"))
            for c in claims if isinstance(c, dict) and isinstance(c.get("name"), str)),
    )


def _metadata(name: str, job: JobShape, extra_owner: dict | None = None) -> dict:
    owners = [{"apiVersion": "batch/v1", "kind": "Job", "name": job.name, "controller": True}]
    if extra_owner:
        owners.append(extra_owner)
    return {"name": name, "namespace": job.namespace, "ownerReferences": owners,
            "annotations": {EXPANDED_FROM: f"Job/{job.name}"}}


def scheduling_objects(job: JobShape, settings: dict, workload_api_version: str) -> tuple[Group, Group]:
    """The Workload (one PodGroupTemplate) and its PodGroup, named deterministically."""
    template = hub.PodGroupTemplate(name=TEMPLATE_NAME, **settings)
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
    if not (gates.enabled("WorkloadWithJob") and gates.enabled("GenericWorkload")):
        return None
    if job.byo_group or not job.builtin_controller:
        return None
    if not gates.release.caps.job_scheduling_field:
        implicit_gang = job.indexed and job.parallelism > 1 and job.completions == job.parallelism
        if not implicit_gang:
            return None
        return {"policy": hub.SchedulingPolicy(kind=hub.PolicyKind.GANG, min_count=job.parallelism)}
    return _settings_137(job.scheduling or {}, job, ctx)


# ------------------------------------------------------------------------------------ pods


def _prototype(job: JobShape, ctx: Ctx) -> Pod:
    """The template parsed once; every pod of the Job is a copy with its own name, labels and group."""
    meta = dict(job.template_meta, namespace=job.namespace)
    return pod_from_parts(meta, job.template_spec, {}, ctx.at("spec", "template", "metadata"),
                          ctx.at("spec", "template", "spec"), None)


def job_pods(job: JobShape, proto: Pod, pod_group: str | None) -> list[Pod]:
    """`pod_count` pods named `<job>-<i>`, labelled as the controller labels them, owned by the Job."""
    base_labels = dict(proto.labels)
    base_labels[JOB_NAME_LABEL] = job.name
    base_labels[LEGACY_JOB_NAME_LABEL] = job.name
    pods = []
    for i in range(job.pod_count):
        labels = dict(base_labels)
        if job.indexed:
            labels[INDEX_LABEL] = str(i)
        pods.append(replace(
            proto, name=f"{job.name}-{i}", labels=labels, requests=dict(proto.requests),
            non_zero_requests=dict(proto.non_zero_requests), node_selector=dict(proto.node_selector),
            pod_group=pod_group, owner=Owner("Job", job.name), source=None,
        ))
    return pods


def _skip_reason(job: JobShape) -> str | None:
    if not job.builtin_controller:
        return f"spec.managedBy is {job.managed_by!r}: the built-in Job controller leaves this Job to that controller"
    if job.suspended:
        return "the Job is suspended (spec.suspend: true): the controller creates no pods until it is resumed"
    if job.pod_count == 0:
        return "spec.parallelism (or spec.completions) is 0: the controller creates no pods"
    return None


def expand_job(obj: dict, gates: GateSet, ctx: Ctx) -> list[Record]:
    """Workload, PodGroup (when the release and gates create them), then the pods, in that order."""
    job = job_shape(obj, ctx)
    if job is None:
        return []
    reason = _skip_reason(job)
    if reason is not None:
        ctx.report("WAS607", f"Job {job.namespace}/{job.name} creates no pods in this plan: {reason}", ("spec",))
        return []
    proto = _prototype(job, ctx)
    settings = group_settings(job, gates, ctx)
    if settings is None:
        return list(job_pods(job, proto, proto.pod_group))
    workload, podgroup = scheduling_objects(job, settings, gates.release.preferred["Workload"])
    return [workload, podgroup, *job_pods(job, proto, podgroup.name)]
