"""Workloads from the objects Kueue's job framework manages, as its reconciler builds them on creation.

Upstream: KDIR/pkg/controller/jobframework/reconciler.go (`ConstructWorkload`, `ExtractPriority`,
`PrepareWorkloadPriority`), KDIR/pkg/controller/jobframework/workload_names.go (`GetWorkloadNameForOwnerWithGVK`),
KDIR/pkg/controller/jobs/job/job_controller.go (`PodSets`: one PodSet "main", count min(parallelism,
completions), minCount from `kueue.x-k8s.io/job-min-parallelism`) and
KDIR/pkg/controller/jobs/jobset/jobset_controller.go (`PodSets`: one PodSet per replicatedJob, named after it,
count replicas x pods per replica).

Naming: `<kind lowercased>-<name>` truncated to 253-1-5 characters (ShortWorkloadNames is off by default in
v0.17.0), a dash, and the first five hex digits of the SHA-1 of kind, group, name and UID joined by newlines.
Manifests carry no UID, so, as the Kueue oracle does (oracle/kueue017/jobs.go), an object's UID is taken to be
`uid-<namespace>-<name>`; the real names differ by their hash suffix.

Priority: the object's `kueue.x-k8s.io/priority-class` label names a WorkloadPriorityClass; else the pod
template's priorityClassName (the first PodSet naming one, for JobSet) names a PriorityClass; else the
globalDefault PriorityClass (the lowest one, should several claim it), else 0. A named class that does not
exist makes the reconciler fail to create the Workload: `build` then returns the reason instead.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .model import (MIN_PARALLELISM, PREFERRED_TOPOLOGY, PRIORITY_CLASS_LABEL, QUEUE_LABEL,
                    REQUIRED_TOPOLOGY, TAS_UNMODELLED, UNCONSTRAINED_TOPOLOGY, PodSet, Source, Workload)
from .requests import limit_range_violations, pod_requests

_MAX_PREFIX = 253 - 1 - 5


def workload_name(kind: str, group: str, name: str, uid: str) -> str:
    digest = hashlib.sha1(f"{kind}\n{group}\n{name}\n{uid}".encode()).hexdigest()
    return f"{(kind.lower() + '-' + name)[:_MAX_PREFIX]}-{digest[:5]}"


@dataclass(slots=True)
class Classes:
    """What priority and request adjustment read: priority classes, LimitRanges, RuntimeClass overheads."""

    workload_priority: dict[str, int]
    pod_priority: dict[str, int]
    default_priority: int
    limit_ranges: dict[str, list[dict]]  # namespace -> LimitRanges
    overheads: dict[str, dict]  # RuntimeClass name -> overhead.podFixed

    def priority(self, labels: dict, template_class: str) -> tuple[int | None, str | None]:
        """(priority, None), or (None, why the Workload cannot be built)."""
        wpc = labels.get(PRIORITY_CLASS_LABEL)
        if isinstance(wpc, str) and wpc:
            if wpc not in self.workload_priority:
                return None, f'workloadpriorityclasses.kueue.x-k8s.io "{wpc}" not found'
            return self.workload_priority[wpc], None
        if template_class:
            if template_class not in self.pod_priority:
                return None, f'priorityclasses.scheduling.k8s.io "{template_class}" not found'
            return self.pod_priority[template_class], None
        return self.default_priority, None


def _int(value: object, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _pod_set(name: str, count: int, template: dict, namespace: str, classes: Classes,
             min_count: int | None = None) -> PodSet:
    template = template if isinstance(template, dict) else {}
    spec = template.get("spec") if isinstance(template.get("spec"), dict) else {}
    annotations = ((template.get("metadata") or {}).get("annotations") or {})
    ranges = classes.limit_ranges.get(namespace, [])
    requests = pod_requests(spec, ranges, classes.overheads)
    topology = topology_request(annotations if isinstance(annotations, dict) else {})
    unsupported = next((a for a in TAS_UNMODELLED if isinstance(annotations, dict) and a in annotations), None)
    return PodSet(name=name, count=count, requests=requests, template=template, min_count=min_count,
                  tas=topology is not None or unsupported is not None, topology=topology, tas_unsupported=unsupported,
                  limit_range=limit_range_violations(spec, ranges, requests))


def topology_request(annotations: dict) -> tuple[str, str | None] | None:
    """KDIR/pkg/controller/jobframework/tas.go NewPodSetTopologyRequest: the PodSet's TAS request, from its
    template's annotations (required, else preferred, else unconstrained "true")."""
    if isinstance(annotations.get(REQUIRED_TOPOLOGY), str):
        return "required", annotations[REQUIRED_TOPOLOGY]
    if isinstance(annotations.get(PREFERRED_TOPOLOGY), str):
        return "preferred", annotations[PREFERRED_TOPOLOGY]
    if str(annotations.get(UNCONSTRAINED_TOPOLOGY, "")).lower() == "true":
        return "unconstrained", None
    return None


def _job_pod_sets(spec: dict, namespace: str, classes: Classes, annotations: dict) -> list[PodSet]:
    parallelism = _int(spec.get("parallelism"), 1)
    completions = spec.get("completions")
    if spec.get("parallelism") is None and completions is None:
        completions = 1
    count = parallelism
    if isinstance(completions, int) and completions < count:
        count = completions
    min_count = None
    raw = annotations.get(MIN_PARALLELISM)
    if isinstance(raw, str) and raw.lstrip("-").isdigit():
        min_count = int(raw)
    return [_pod_set("main", count, spec.get("template") or {}, namespace, classes, min_count)]


def _jobset_pod_sets(spec: dict, namespace: str, classes: Classes) -> list[PodSet]:
    out = []
    for rj in spec.get("replicatedJobs") or ():
        if not isinstance(rj, dict):
            continue
        job_spec = ((rj.get("template") or {}).get("spec") or {})
        replicas = _int(rj.get("replicas"), 1) or 1
        per_replica = _job_pod_sets(job_spec, namespace, classes, {})[0]
        per_replica.name = str(rj.get("name", ""))
        per_replica.count *= replicas
        per_replica.min_count = None
        out.append(per_replica)
    return out


# (group, kind) -> how its PodSets are built
BUILDERS = {
    ("batch", "Job"): lambda obj, ns, classes: _job_pod_sets(obj.get("spec") or {}, ns, classes,
                                                             (obj.get("metadata") or {}).get("annotations") or {}),
    ("jobset.x-k8s.io", "JobSet"): lambda obj, ns, classes: _jobset_pod_sets(obj.get("spec") or {}, ns, classes),
}


def build(obj: dict, namespace: str, name: str, created: int, classes: Classes) -> tuple[Workload | None, str | None]:
    """The Workload Kueue's reconciler creates for a Job or JobSet, or (None, the reason it cannot)."""
    api_version = obj.get("apiVersion", "")
    group = api_version.rsplit("/", 1)[0] if "/" in api_version else ""
    kind = obj.get("kind", "")
    meta = obj.get("metadata") or {}
    labels = meta.get("labels") or {}
    pod_sets = BUILDERS[(group, kind)](obj, namespace, classes)
    template_class = next((ps.template.get("spec", {}).get("priorityClassName") or "" for ps in pod_sets
                           if (ps.template.get("spec") or {}).get("priorityClassName")), "")
    priority, problem = classes.priority(labels, template_class)
    if priority is None:
        return None, problem
    uid = meta.get("uid") if isinstance(meta.get("uid"), str) and meta.get("uid") else f"uid-{namespace}-{name}"
    wl_name = workload_name(kind, group, name, uid)
    wl = Workload(namespace=namespace, name=wl_name, uid=f"uid-{namespace}-{wl_name}", queue=str(labels.get(QUEUE_LABEL, "")),
                  priority=priority, created=created, pod_sets=pod_sets,
                  source=Source(api_version, kind, namespace, name), job_uid=uid)
    return wl, None


def builds(obj: dict) -> bool:
    api_version = obj.get("apiVersion", "")
    group = api_version.rsplit("/", 1)[0] if isinstance(api_version, str) and "/" in api_version else ""
    return (group, obj.get("kind")) in BUILDERS
