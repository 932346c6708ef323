"""Kueue's inputs read from parsed documents: its own kinds (kueue.x-k8s.io v1beta1 and v1beta2, converted to
v1beta2 with the CRD defaults applied), the objects carrying the queue-name label, and the core objects Kueue's
admission reads (Namespace, LimitRange, RuntimeClass, PriorityClass, Node, Pod).

Upstream: KDIR/apis/kueue/v1beta2/*_types.go (fields, `+kubebuilder:default` markers: queueingStrategy
BestEffortFIFO, stopPolicy None, preemption Never/Never/Never, flavorFungibility MayStopSearch/TryNextFlavor),
KDIR/apis/kueue/v1beta1/clusterqueue_conversion.go (v1beta1 `cohort` -> `cohortName`, `admissionChecks` ->
`admissionChecksStrategy`, fungibility `Borrow`/`Preempt` -> `MayStopSearch`) and workload_conversion.go
(`priorityClassName` + `priorityClassSource` -> `priorityClassRef`). A nil namespaceSelector selects nothing
(KDIR/pkg/cache/scheduler/clusterqueue.go: `labels.Nothing()`).

Creation times: an object's `metadata.creationTimestamp` when given, else its place in the input, one second
apart, Workloads written directly first and then the objects Kueue builds Workloads from, each in input order (as
the Kueue oracle stamps them, oracle/kueue017/jobs.go). So the pipeline passes the cluster snapshot's objects
before the manifests'. Times are seconds from 2026-01-01T00:00:00Z.

The objects may be plain dicts or the pipeline's documents (anything with an `obj` dict attribute).
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field

from wasplan.api.kueue import UNBUILT_INTEGRATIONS
from wasplan.api.quantity import QuantityError, parse_quantity
from wasplan.cluster.controllers.names import Namer

from .config import KueueConfig, is_configuration, parse_config
from .jobs import Classes, build, builds
from .pods import (Built, GroupMember, build_deployment, build_lws, build_pod_group, build_statefulset,
                   build_template_pods, managed_pod_namespace, pod_group, single_pod)
from .model import (QUEUE_LABEL, ClusterQueue, Cohort, Condition, FlavorFungibility, LocalQueue, PodSet,
                    PodSetAdmission, Preemption, ResourceFlavor, ResourceGroup, ResourceQuota, Selector, Workload,
                    resource_value)
from .requests import _amounts, limit_range_violations, pod_requests
from .tas import decode

KUEUE_GROUP = "kueue.x-k8s.io"
BASE = _dt.datetime(2026, 1, 1, tzinfo=_dt.timezone.utc)
# the pod-based integrations and LeaderWorkerSet (pods.py): the object's own queue label makes Kueue manage it
_POD_BASED = {("apps", "Deployment"): build_deployment, ("apps", "StatefulSet"): build_statefulset,
              ("leaderworkerset.x-k8s.io", "LeaderWorkerSet"): build_lws}
# queued only through their pod template's label (these and a ReplicaSet): Kueue's pod integration manages
# each pod as a plain pod
_TEMPLATE_QUEUED = {*_POD_BASED, ("apps", "ReplicaSet")}


def _obj(item: object) -> dict:
    obj = getattr(item, "obj", item)
    return obj if isinstance(obj, dict) else {}


def _group(obj: dict) -> tuple[str, str]:
    api_version = obj.get("apiVersion") if isinstance(obj.get("apiVersion"), str) else ""
    group, _, version = api_version.rpartition("/")
    return group, version


def _meta(obj: dict) -> dict:
    meta = obj.get("metadata")
    return meta if isinstance(meta, dict) else {}


def _spec(obj: dict) -> dict:
    spec = obj.get("spec")
    return spec if isinstance(spec, dict) else {}


def _seconds(stamp: object) -> int | None:
    if not isinstance(stamp, str):
        return None
    try:
        when = _dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=_dt.timezone.utc)
    return int((when - BASE).total_seconds())


def _quantity(resource: str, raw: object) -> tuple[int, str] | None:
    if raw is None:
        return None
    try:
        q = parse_quantity(raw)
    except QuantityError:
        return None
    return resource_value(resource, q), str(q)


def _quotas(groups: object) -> tuple[list[ResourceGroup], dict]:
    out_groups, quotas = [], {}
    for rg in groups if isinstance(groups, list) else ():
        if not isinstance(rg, dict):
            continue
        flavors = []
        for fq in rg.get("flavors") or ():
            if not isinstance(fq, dict):
                continue
            flavors.append(str(fq.get("name", "")))
            for rq in fq.get("resources") or ():
                if not isinstance(rq, dict):
                    continue
                res = str(rq.get("name", ""))
                nominal = _quantity(res, rq.get("nominalQuota", 0)) or (0, "0")
                borrowing = _quantity(res, rq.get("borrowingLimit"))
                lending = _quantity(res, rq.get("lendingLimit"))
                quotas[(flavors[-1], res)] = ResourceQuota(nominal[0], borrowing and borrowing[0],
                                                           lending and lending[0], nominal[1])
        covered = tuple(str(r) for r in rg.get("coveredResources") or ())
        out_groups.append(ResourceGroup(covered, tuple(flavors)))
    return out_groups, quotas


def _selector(raw: object) -> Selector:
    if not isinstance(raw, dict):
        return Selector(nothing=True)
    labels = tuple(sorted((str(k), str(v)) for k, v in (raw.get("matchLabels") or {}).items()))
    exprs = tuple((str(e.get("key")), str(e.get("operator")), tuple(str(v) for v in e.get("values") or ()))
                  for e in raw.get("matchExpressions") or () if isinstance(e, dict))
    return Selector(labels, exprs)


def _fungibility(raw: object, v1beta1: bool) -> FlavorFungibility:
    raw = raw if isinstance(raw, dict) else {}
    borrow = raw.get("whenCanBorrow") or "MayStopSearch"
    preempt = raw.get("whenCanPreempt") or "TryNextFlavor"
    if v1beta1:
        borrow = "MayStopSearch" if borrow == "Borrow" else borrow
        preempt = "MayStopSearch" if preempt == "Preempt" else preempt
    return FlavorFungibility(borrow, preempt, raw.get("preference"))


def _preemption(raw: object) -> Preemption:
    raw = raw if isinstance(raw, dict) else {}
    bwc = raw.get("borrowWithinCohort") if isinstance(raw.get("borrowWithinCohort"), dict) else {}
    threshold = bwc.get("maxPriorityThreshold")
    return Preemption(raw.get("withinClusterQueue") or "Never", raw.get("reclaimWithinCohort") or "Never",
                      bwc.get("policy") or "Never", threshold if isinstance(threshold, int) else None)


def parse_cluster_queue(obj: dict, version: str) -> ClusterQueue:
    spec = obj.get("spec") if isinstance(obj.get("spec"), dict) else {}
    groups, quotas = _quotas(spec.get("resourceGroups"))
    v1beta1 = version == "v1beta1"
    cohort = spec.get("cohort") if v1beta1 else spec.get("cohortName")
    if v1beta1:
        checks = tuple(str(c) for c in spec.get("admissionChecks") or ())
    else:
        strategy = spec.get("admissionChecksStrategy") or {}
        checks = tuple(str(r.get("name")) for r in strategy.get("admissionChecks") or () if isinstance(r, dict))
    fair = spec.get("fairSharing") if isinstance(spec.get("fairSharing"), dict) else None
    return ClusterQueue(name=str(_meta(obj).get("name", "")), resource_groups=groups, quotas=quotas,
                        cohort=str(cohort) if cohort else None,
                        namespace_selector=_selector(spec.get("namespaceSelector")),
                        queueing_strategy=spec.get("queueingStrategy") or "BestEffortFIFO",
                        stop_policy=spec.get("stopPolicy") or "None", preemption=_preemption(spec.get("preemption")),
                        fungibility=_fungibility(spec.get("flavorFungibility"), v1beta1), admission_checks=checks,
                        fair_sharing_weight=str(fair.get("weight")) if fair and "weight" in fair else None)


def _parse_workload(obj: dict, namespace: str, created: int, classes: Classes) -> Workload:
    meta, spec = _meta(obj), obj.get("spec") if isinstance(obj.get("spec"), dict) else {}
    status = obj.get("status") if isinstance(obj.get("status"), dict) else {}
    name = str(meta.get("name", ""))
    pod_sets = []
    for ps in spec.get("podSets") or ():
        if not isinstance(ps, dict):
            continue
        template = ps.get("template") if isinstance(ps.get("template"), dict) else {}
        pod_spec, ranges = template.get("spec") or {}, classes.limit_ranges.get(namespace, [])
        requests = pod_requests(pod_spec, ranges, classes.overheads)
        count = ps.get("count", 1)
        min_count = ps.get("minCount")
        tr = ps.get("topologyRequest") if isinstance(ps.get("topologyRequest"), dict) else {}
        topology = (("required", str(tr["required"])) if tr.get("required") else
                    ("preferred", str(tr["preferred"])) if tr.get("preferred") else
                    ("unconstrained", None) if tr.get("unconstrained") else None)
        unsupported = next((f for f in ("podSetSliceRequiredTopology", "podSetSliceSize", "podSetGroupName",
                                        "podsetSliceRequiredTopologyConstraints") if tr.get(f)), None)
        pod_sets.append(PodSet(str(ps.get("name", "main")), count if isinstance(count, int) else 1, requests,
                               template, min_count if isinstance(min_count, int) else None,
                               tas=topology is not None or unsupported is not None, topology=topology,
                               tas_unsupported=unsupported,
                               limit_range=limit_range_violations(pod_spec, ranges, requests)))
    priority = spec.get("priority")
    labels = meta.get("labels") or {}
    wl = Workload(namespace=namespace, name=name, uid=str(meta.get("uid") or f"uid-{namespace}-{name}"),
                  queue=str(spec.get("queueName") or ""), priority=priority if isinstance(priority, int) else 0,
                  created=created, pod_sets=pod_sets, job_uid=labels.get("kueue.x-k8s.io/job-uid"),
                  active=spec.get("active", True) is not False)
    admission = status.get("admission")
    if isinstance(admission, dict):
        wl.admission_cq = str(admission.get("clusterQueue", ""))
        wl.admission = []
        counts = {ps.name: ps.count for ps in pod_sets}
        for psa in admission.get("podSetAssignments") or ():
            if not isinstance(psa, dict):
                continue
            ps_name = str(psa.get("name", "main"))
            count = psa.get("count")
            wl.admission.append(PodSetAdmission(ps_name, count if isinstance(count, int) else counts.get(ps_name, 1),
                                                {str(k): str(v) for k, v in (psa.get("flavors") or {}).items()},
                                                _amounts(psa.get("resourceUsage") or {}),
                                                decode(psa.get("topologyAssignment"))))
    for c in status.get("conditions") or ():
        if isinstance(c, dict) and isinstance(c.get("type"), str):
            when = _seconds(c.get("lastTransitionTime"))
            wl.conditions[c["type"]] = Condition(c.get("status") == "True", str(c.get("reason", "")),
                                                 str(c.get("message", "")), when if when is not None else 0)
    if wl.admission is None:
        wl.conditions.pop("QuotaReserved", None)
        wl.conditions.pop("Admitted", None)
    return wl


def _owned(workloads: list[dict]) -> set[tuple[str, str, str]]:
    """(kind, namespace, name) of every object a Workload among the inputs names as its owner: a snapshot's
    Workload stands for its job, whose reconciler finds it and builds no other (KDIR/pkg/controller/jobframework/
    reconciler.go `ensureOneWorkload`)."""
    return {(ref.get("kind"), _meta(wl).get("namespace") or "default", ref.get("name"))
            for wl in workloads for ref in (_meta(wl).get("ownerReferences") or ()) if isinstance(ref, dict)}


def _without_workload(objects: list[tuple[str, str, str]], owned: set[tuple[str, str, str]]) -> list[str]:
    """The queued objects of unbuilt integrations no Workload among the inputs stands for (a snapshot's Workload
    of a RayJob holds its quota, and is read as written), as `Kind namespace/name`."""
    return [f"{kind} {ns}/{name}" for kind, ns, name in objects if (kind, ns, name) not in owned]


@dataclass(slots=True)
class KueueInputs:
    """Everything Kueue's admission reads, parsed; `from_objects` builds it."""

    flavors: dict[str, ResourceFlavor] = field(default_factory=dict)
    cluster_queues: dict[str, ClusterQueue] = field(default_factory=dict)
    cohorts: dict[str, Cohort] = field(default_factory=dict)
    local_queues: dict[tuple[str, str], LocalQueue] = field(default_factory=dict)
    topologies: dict[str, list[str]] = field(default_factory=dict)
    admission_checks: dict[str, bool] = field(default_factory=dict)  # name -> Active condition True
    namespaces: dict[str, dict[str, str]] = field(default_factory=dict)
    workloads: list[Workload] = field(default_factory=list)
    nodes: list[dict] = field(default_factory=list)
    pods: list[dict] = field(default_factory=list)
    not_built: list[str] = field(default_factory=list)  # objects Kueue would fail to build a Workload for
    # queued objects of Kueue's integrations the model builds no Workload for (api/kueue.UNBUILT_INTEGRATIONS)
    unbuilt: list[str] = field(default_factory=list)
    # (namespace, Workload name) -> (pod name, PodSet name) of each pod it stands for, for the pod-based
    # integrations and LeaderWorkerSet (several objects' pods, or one object's pods in several Workloads)
    members: dict[tuple[str, str], tuple[tuple[str, str], ...]] = field(default_factory=dict)
    fair_sharing: bool = False  # some ClusterQueue or Cohort sets a fairSharing weight
    config: KueueConfig | None = None  # Kueue's Configuration, the first one given

    @property
    def has_cluster_queue(self) -> bool:
        return bool(self.cluster_queues)

    @classmethod
    def from_objects(cls, objects, nodes=(), pods=()) -> "KueueInputs":
        out = cls()
        docs = [_obj(o) for o in objects]
        classes = Classes({}, {}, 0, {}, {})
        defaults: list[tuple[int, str]] = []
        namer = Namer()
        direct, owners, unbuilt = [], [], []
        out.nodes = [_obj(n) for n in nodes]
        out.pods = [_obj(p) for p in pods]
        for obj in docs:
            group, version = _group(obj)
            kind = obj.get("kind")
            meta = _meta(obj)
            name = str(meta.get("name", ""))
            if group == KUEUE_GROUP:
                out._add_kueue(obj, kind, version, classes, direct)
            elif is_configuration(obj):
                out.config = out.config or parse_config(obj)
            elif (group, kind) == ("", "Namespace"):
                out.namespaces[name] = {str(k): str(v) for k, v in (meta.get("labels") or {}).items()}
            elif (group, kind) == ("", "LimitRange"):
                classes.limit_ranges.setdefault(meta.get("namespace") or "default", []).append(obj)
            elif (group, kind) == ("node.k8s.io", "RuntimeClass"):
                classes.overheads[name] = ((obj.get("overhead") or {}).get("podFixed") or {})
            elif (group, kind) == ("scheduling.k8s.io", "PriorityClass"):
                value = obj.get("value") if isinstance(obj.get("value"), int) else 0
                classes.pod_priority[name] = value
                if obj.get("globalDefault") is True:
                    defaults.append((value, name))
            elif (group, kind) == ("", "Node"):
                out.nodes.append(obj)
            elif (group, kind) == ("", "Pod") and (not _queued(obj) or _spec(obj).get("nodeName")):
                out.pods.append(obj)  # a bound pod counts against TAS capacity, whoever admitted it
            elif (builds(obj) or (group, kind) in _POD_BASED) and (meta.get("labels") or {}).get(QUEUE_LABEL):
                owners.append(obj)
            elif (group, kind) == ("", "Pod"):
                if managed_pod_namespace(meta.get("namespace") or "default"):
                    owners.append(obj)  # a queued plain pod not yet bound: Kueue's pod integration gates it
            elif (group, kind) in _TEMPLATE_QUEUED and _queued(obj):
                owners.append(obj)
            elif (group, kind) in UNBUILT_INTEGRATIONS and (meta.get("labels") or {}).get(QUEUE_LABEL):
                unbuilt.append((kind, meta.get("namespace") or "default", name))
        if defaults:
            classes.default_priority = min(defaults)[0]
        owned = _owned(direct)
        out.unbuilt = _without_workload(unbuilt, owned)
        seq = 0
        for obj in direct:
            meta = _meta(obj)
            ns = meta.get("namespace") or "default"
            created = _seconds(meta.get("creationTimestamp"))
            out.workloads.append(_parse_workload(obj, ns, created if created is not None else seq, classes))
            seq += 1
        built, groups = Built(), {}
        for obj in owners:
            meta = _meta(obj)
            ns = meta.get("namespace") or "default"
            name = meta.get("name") or (namer.name(obj.get("kind", ""), ns, meta["generateName"])
                                        if meta.get("generateName") else "")
            if (obj.get("kind"), ns, name) in owned:
                continue  # the snapshot holds its Workload, read as written
            created = _seconds(meta.get("creationTimestamp"))
            seq += out._add_owner(obj, ns, name, created if created is not None else seq, classes, built, groups)
        for (ns, group), members in groups.items():
            build_pod_group(ns, group, members, classes, built)
        out.workloads += built.workloads
        out.members.update(built.members)
        out.not_built += built.not_built
        for wl in out.workloads:
            out.namespaces.setdefault(wl.namespace, {})
        for ns, labels in out.namespaces.items():
            labels["kubernetes.io/metadata.name"] = ns
        out._label_keys()
        return out

    def _add_owner(self, obj: dict, ns: str, name: str, created: int, classes: Classes, built: Built,
                   groups: dict) -> int:
        """The Workload(s) of one queued object (a pod group's once all its pods are read); returns how many
        creation seconds the object's Workloads take."""
        group, _ = _group(obj)
        kind = obj.get("kind")
        if (group, kind) in _POD_BASED and (_meta(obj).get("labels") or {}).get(QUEUE_LABEL):
            return _POD_BASED[(group, kind)](obj, ns, name, created, classes, built)
        if (group, kind) in _TEMPLATE_QUEUED:
            return build_template_pods(obj, ns, name, created, classes, built)
        if (group, kind) == ("", "Pod"):
            pod_group_name = pod_group(obj)
            if pod_group_name:
                groups.setdefault((ns, pod_group_name), []).append(GroupMember(obj, name, created))
                return 1
            meta = _meta(obj)
            template = {"metadata": meta, "spec": obj.get("spec") if isinstance(obj.get("spec"), dict) else {}}
            uid = meta.get("uid") if isinstance(meta.get("uid"), str) and meta.get("uid") else f"uid-{ns}-{name}"
            wl, problem = single_pod(meta.get("labels") or {}, name, ns, template, created, classes, uid)
            built.add(wl, problem, f"Pod {ns}/{name}", ((name, "main"),))
            return 1
        wl, problem = build(obj, ns, name, created, classes)
        if wl is None:
            self.not_built.append(f"{obj.get('kind')} {ns}/{name}: {problem}")
        else:
            self.workloads.append(wl)
        return 1

    def _add_kueue(self, obj: dict, kind: object, version: str, classes: Classes, direct: list) -> None:
        meta = _meta(obj)
        name = str(meta.get("name", ""))
        spec = obj.get("spec") if isinstance(obj.get("spec"), dict) else {}
        if kind == "ResourceFlavor":
            self.flavors[name] = ResourceFlavor(name, dict(spec.get("nodeLabels") or {}),
                                                list(spec.get("nodeTaints") or []), list(spec.get("tolerations") or []),
                                                spec.get("topologyName"))
        elif kind == "ClusterQueue":
            cq = parse_cluster_queue(obj, version)
            self.cluster_queues[cq.name] = cq
            if cq.fair_sharing_weight is not None:
                self.fair_sharing = True
        elif kind == "Cohort":
            _, quotas = _quotas(spec.get("resourceGroups"))
            parent = spec.get("parentName") or spec.get("parent")
            fair = spec.get("fairSharing") if isinstance(spec.get("fairSharing"), dict) else None
            weight = str(fair.get("weight")) if fair and "weight" in fair else None
            self.cohorts[name] = Cohort(name, str(parent) if parent else None, quotas, weight)
            if weight is not None:
                self.fair_sharing = True
        elif kind == "LocalQueue":
            ns = meta.get("namespace") or "default"
            self.local_queues[(ns, name)] = LocalQueue(ns, name, str(spec.get("clusterQueue", "")),
                                                       spec.get("stopPolicy") or "None")
        elif kind == "Topology":
            self.topologies[name] = [str(lv.get("nodeLabel")) for lv in spec.get("levels") or () if isinstance(lv, dict)]
        elif kind == "AdmissionCheck":
            conds = (obj.get("status") or {}).get("conditions") or ()
            self.admission_checks[name] = any(isinstance(c, dict) and c.get("type") == "Active"
                                              and c.get("status") == "True" for c in conds)
        elif kind == "WorkloadPriorityClass":
            value = obj.get("value")
            classes.workload_priority[name] = value if isinstance(value, int) else 0
        elif kind == "Workload":
            direct.append(obj)

    def _label_keys(self) -> None:
        for cq in self.cluster_queues.values():
            cq.resource_groups = [
                ResourceGroup(rg.covered, rg.flavors,
                              frozenset(k for f in rg.flavors if f in self.flavors for k in self.flavors[f].node_labels))
                for rg in cq.resource_groups]


def _queued(obj: dict) -> bool:
    """Whether the object or one of its pod templates (a LeaderWorkerSet's worker or leader template) carries the
    queue-name label."""
    labels = _meta(obj).get("labels")
    if isinstance(labels, dict) and labels.get(QUEUE_LABEL):
        return True
    spec = obj.get("spec") if isinstance(obj.get("spec"), dict) else {}
    lwt = spec.get("leaderWorkerTemplate") if isinstance(spec.get("leaderWorkerTemplate"), dict) else {}
    for template in (spec.get("template"), lwt.get("workerTemplate"), lwt.get("leaderTemplate")):
        meta = template.get("metadata") if isinstance(template, dict) else None
        if isinstance(meta, dict) and isinstance(meta.get("labels"), dict) and meta["labels"].get(QUEUE_LABEL):
            return True
    return False
