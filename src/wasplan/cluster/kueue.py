"""Kueue: objects it manages wait for its admission before their pods reach kube-scheduler.

Kueue (kubernetes-sigs/kueue) admits a workload once its ClusterQueue has quota for it. Until then:
- a Job or JobSet is kept suspended: Kueue's webhook sets `spec.suspend: true` on create
  (pkg/controller/jobs/job/job_webhook.go), and its reconciler clears it on admission
  (pkg/controller/jobframework/reconciler.go); the published sample site/static/examples/jobs/sample-job.yaml
  carries `suspend: true` for that reason;
- a Pod, and the pods of a Deployment, StatefulSet or LeaderWorkerSet (Kueue's pod-based integrations), get
  the scheduling gate `kueue.x-k8s.io/admission`, removed on admission (pkg/controller/jobs/pod/pod_webhook.go:
  a pod is managed when it has the queue label, and then gated).
Plain pods form one Kueue workload per pod group: the label `kueue.x-k8s.io/pod-group-name` with the annotation
`kueue.x-k8s.io/pod-group-total-count` (site/content/en/docs/tasks/run/plain_pods.md); the group is still queued
through the queue label.

What decides here: the object is an arrival (a manifest, not the snapshot, which shows what Kueue already
did: an unadmitted pod there carries Kueue's gate), of a kind Kueue integrates listed below, and has a non-empty
`kueue.x-k8s.io/queue-name` label in its own `metadata.labels`; or, for the pod-based integrations, the pods it
creates carry that label from their template (Kueue's own Deployment sample,
site/static/examples/serving-workloads/sample-deployment.yaml, labels the pod template; the pod webhook
manages any pod with the label whose owner is not a Job or JobSet, which Kueue manages as a whole).

With a ClusterQueue among the inputs, Kueue's admission is modelled (wasplan/kueue, pipeline/kueue_stage.py) and
its verdicts (`KueueVerdict`, below) decide. Without one, this module decides alone: that the integration is
enabled is taken from the label, `manageJobsWithoutQueueName` as its default (false), and the plan cannot tell
when, or whether, admission happens. So by default the pods wait for admission (their own status); `assume_admitted` plans them as if Kueue
admitted the object now: suspended or not as written, the controller creates its pods.

Kueue's Topology Aware Scheduling is not modelled either. A pod template annotated
`kueue.x-k8s.io/podset-required-topology` (or `-preferred-topology`, `-unconstrained-topology`, and the later
`podset-slice-*`, `podset-group-name`, `podset-topology-spreading`; apis/kueue/v1alpha1/tas_types.go) has Kueue
choose a topology domain at admission and inject node selectors for it before its pods reach kube-scheduler (the
`kueue.x-k8s.io/topology` scheduling gate). Planned as admitted, such pods go wherever kube-scheduler alone would
put them, so `tas_annotations` finds every such annotation for the plan to name as not honoured.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from wasplan.api.kueue import QUEUE_LABEL
from wasplan.cluster.model import Toleration

POD_GROUP_LABEL = "kueue.x-k8s.io/pod-group-name"
ADMISSION_GATE = "kueue.x-k8s.io/admission"  # the scheduling gate Kueue's pod webhook adds
TAS_PREFIX = "kueue.x-k8s.io/podset-"  # every PodSet annotation of Kueue's Topology Aware Scheduling
# the default managed-jobs namespace selector of Kueue's Configuration (KDIR/apis/config/v1beta2/defaults.go)
# leaves plain pods of these namespaces alone
UNMANAGED_NAMESPACES = ("kube-system", "kueue-system")

# (API group, kind) Kueue integrates that wasplan expands; the first two Kueue suspends, the rest it gates
_SUSPENDED = frozenset({("batch", "Job"), ("jobset.x-k8s.io", "JobSet")})
_GATED = frozenset({("", "Pod"), ("apps", "Deployment"), ("apps", "StatefulSet"),
                    ("leaderworkerset.x-k8s.io", "LeaderWorkerSet")})
_POD_LABELLED = _GATED | {("apps", "ReplicaSet")}  # kinds whose pods Kueue's pod webhook manages by their own label


@dataclass(frozen=True, slots=True)
class KueueAdmission:
    """What a pod waits for: Kueue to admit its workload from this LocalQueue; `verdict` is Kueue's own word on
    it when the inputs hold a ClusterQueue and the admission stage ran (pipeline/kueue_stage.py)."""

    namespace: str
    queue: str
    pod_group: str | None = None  # a plain pod's Kueue pod group
    verdict: "KueueVerdict | None" = None

    def describe(self) -> str:
        group = f", pod group {self.pod_group}" if self.pod_group else ""
        return f"LocalQueue {self.namespace}/{self.queue}{group}"

    def waiting_message(self) -> str:
        """The waiting pod's message: Kueue's status, reason and message, or that its quotas were not read."""
        if self.verdict is None:
            return f"waiting for Kueue to admit it ({self.describe()}); Kueue's quotas are not modelled"
        return f"waiting for Kueue to admit it ({self.describe()}): {self.verdict.explain()}"


@dataclass(frozen=True, slots=True)
class KueueVerdict:
    """Kueue's decision on the Workload built from one object (the admission stage's, pipeline/kueue_stage.py).
    `pod_sets`: per admitted PodSet name, (node selector, tolerations) of its flavors, as Kueue's job framework
    merges them into the pod template on admission (KDIR/pkg/controller/jobframework/reconciler.go
    `startJob` -> `RunWithPodSetsInfo`, KDIR/pkg/podset/podset.go `Merge`); with topology-aware scheduling, the
domains Kueue assigned each PodSet and how many of its pods go to each (`pin_to_domains`)."""

    workload: str
    cluster_queue: str | None
    admitted: bool
    status: str
    reason: str
    message: str
    # (PodSet name, node selector, tolerations, TAS domains: ((label, value) pairs, pod count) in Kueue's order)
    pod_sets: tuple[tuple[str, dict, tuple, tuple], ...] = ()

    def explain(self) -> str:
        """`Workload job-x-1a2b3 in ClusterQueue team-a is Pending: couldn't assign flavors ...`; an admitted one
        without Kueue's stock message."""
        where = f" in ClusterQueue {self.cluster_queue}" if self.cluster_queue else ""
        why = f" ({self.reason})" if self.reason and self.reason != self.status else ""
        text = f": {self.message}" if self.message and not self.admitted else ""
        return f"Workload {self.workload}{where} is {self.status}{why}{text}"


# (API group, kind, namespace, name) of the object -> Kueue's verdict on its Workload
KueueDecisions = dict[tuple[str, str, str, str], KueueVerdict]


def verdict_for(decisions: KueueDecisions | None, obj: dict, namespace: str) -> KueueVerdict | None:
    if not decisions:
        return None
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    return decisions.get((_group(obj), str(obj.get("kind")), namespace, str(meta.get("name"))))


def with_flavors(obj: dict, verdict: KueueVerdict) -> dict:
    """The object with each admitted PodSet's flavor node selector and tolerations merged into its pod template
    (a copy): a Job's PodSet "main" is spec.template, a JobSet's PodSet is the replicatedJob of that name."""
    out = copy.deepcopy(obj)
    for name, selector, tolerations, _ in verdict.pod_sets:
        for template in _pod_templates(out, name):
            spec = template.setdefault("spec", {})
            if selector:
                spec["nodeSelector"] = {**(spec.get("nodeSelector") or {}), **selector}
            if tolerations:
                spec["tolerations"] = [*(spec.get("tolerations") or []), *[dict(t) for t in tolerations]]
    return out


def pin_to_domains(records: list, obj: dict, verdict: KueueVerdict) -> None:
    """Each PodSet's pods, in the order its controller creates them (a Job's completion index), pinned to the TAS
    domains Kueue assigned: the first `count` to the first domain's node labels, and so on. Kueue's
    topology ungater (KDIR/pkg/controller/tas/topology_ungater.go) adds these node selectors when it lifts the
    pods' `kueue.x-k8s.io/topology` gate, by rank where the pods carry one (a Job's completion index)."""
    for name, _, _, domains in verdict.pod_sets:
        if not domains:
            continue
        pods = [r for r in records if getattr(r, "admission", "") is None and _in_pod_set(r, obj, name)]
        start = 0
        for labels, count in domains:
            for pod in pods[start:start + count]:
                pod.node_selector = {**pod.node_selector, **dict(labels)}
            start += count


def pod_verdicts(records: list, decisions: KueueDecisions, namespace: str) -> list[tuple[object, KueueVerdict]]:
    """The pods among `records` that Kueue decided on one by one (the pod-based integrations and LeaderWorkerSet:
    pipeline/kueue_stage.py keys each such pod's verdict as a Pod), each with its verdict. An admitted pod gets its
    PodSet's flavor node selector and tolerations, and its TAS domain's node labels, as Kueue sets them on the pod
    when it lifts its scheduling gates (KDIR/pkg/controller/jobs/pod/pod_controller.go `Run`, `prepare`)."""
    out = []
    for pod in records:
        verdict = decisions.get(("", "Pod", namespace, getattr(pod, "name", None))) if hasattr(pod, "node_selector") else None
        if verdict is None:
            continue
        out.append((pod, verdict))
        if not verdict.admitted:
            continue
        for _, selector, tolerations, domains in verdict.pod_sets:
            pod.node_selector = {**pod.node_selector, **selector, **{k: v for labels, _ in domains for k, v in labels}}
            pod.tolerations = (*pod.tolerations, *(_toleration(t) for t in tolerations))
    return out


def _toleration(raw: dict) -> Toleration:
    seconds = raw.get("tolerationSeconds")
    return Toleration(str(raw.get("key") or ""), str(raw.get("operator") or "Equal"), str(raw.get("value") or ""),
                      str(raw.get("effect") or ""), seconds if isinstance(seconds, int) else None)


def _in_pod_set(pod, obj: dict, pod_set: str) -> bool:
    """Whether a record is a pod of the PodSet: every pod of a Job, the pod itself for a Pod (its verdict holds its
    own PodSet only); a JobSet's pods by their replicated Job."""
    if not hasattr(pod, "node_selector"):
        return False
    if (_group(obj), obj.get("kind")) in (("batch", "Job"), ("", "Pod")):
        return True
    template = getattr(pod, "template", None)
    path = template[1] if template else ()
    if len(path) > 2 and path[:2] == ("spec", "replicatedJobs") and isinstance(path[2], int):
        rjobs = (obj.get("spec") or {}).get("replicatedJobs") or []
        return path[2] < len(rjobs) and (rjobs[path[2]] or {}).get("name") == pod_set
    return False


def _pod_templates(obj: dict, pod_set: str) -> list[dict]:
    spec = obj.get("spec") if isinstance(obj.get("spec"), dict) else {}
    if (_group(obj), obj.get("kind")) == ("", "Pod"):
        return [obj]  # a pod is its own template; its verdict holds its own PodSet only
    if (_group(obj), obj.get("kind")) == ("batch", "Job"):
        return [spec["template"]] if isinstance(spec.get("template"), dict) else []
    out = []
    for rjob in spec.get("replicatedJobs") or ():
        if isinstance(rjob, dict) and rjob.get("name") == pod_set:
            job_spec = (rjob.get("template") or {}).get("spec") or {}
            if isinstance(job_spec.get("template"), dict):
                out.append(job_spec["template"])
    return out


def _group(obj: dict) -> str:
    api_version = obj.get("apiVersion")
    return api_version.rsplit("/", 1)[0] if isinstance(api_version, str) and "/" in api_version else ""


def _labels(obj: dict) -> dict:
    meta = obj.get("metadata")
    labels = meta.get("labels") if isinstance(meta, dict) else None
    return labels if isinstance(labels, dict) else {}


def admission_of(obj: dict, namespace: str) -> KueueAdmission | None:
    """The Kueue admission an arriving object waits for, or None when Kueue does not manage it (a plain pod in a
    namespace the default managed-jobs namespace selector excludes: kube-system, kueue-system)."""
    kind = obj.get("kind")
    if not isinstance(kind, str) or (_group(obj), kind) not in _SUSPENDED | _GATED:
        return None
    if kind == "Pod" and namespace in UNMANAGED_NAMESPACES:
        return None
    labels = _labels(obj)
    queue = labels.get(QUEUE_LABEL)
    if not isinstance(queue, str) or not queue:
        return None
    group = labels.get(POD_GROUP_LABEL) if kind == "Pod" else None
    return KueueAdmission(namespace, queue, group if isinstance(group, str) and group else None)


def pod_admission(obj: dict, pod_labels: dict[str, str], namespace: str) -> KueueAdmission | None:
    """The admission a pod the object creates waits for through its own queue label (pod-based integrations)."""
    kind = obj.get("kind")
    queue = pod_labels.get(QUEUE_LABEL)
    if not isinstance(kind, str) or (_group(obj), kind) not in _POD_LABELLED or not queue:
        return None
    if namespace in UNMANAGED_NAMESPACES:
        return None
    group = pod_labels.get(POD_GROUP_LABEL) if kind == "Pod" else None
    return KueueAdmission(namespace, queue, group or None)


def as_admitted(obj: dict) -> dict:
    """The object as Kueue leaves it on admission: a Job or JobSet no longer suspended (a copy; others as is)."""
    kind = obj.get("kind")
    spec = obj.get("spec")
    if (_group(obj), kind) not in _SUSPENDED or not isinstance(spec, dict) or spec.get("suspend") is not True:
        return obj
    out = copy.copy(obj)
    out["spec"] = {k: v for k, v in spec.items() if k != "suspend"}
    return out


def tas_annotations(obj: dict, path: tuple = ()) -> list[tuple[tuple, str, str]]:
    """Every Kueue Topology Aware Scheduling annotation in the object, its own or a (nested) pod template's:
    (field path of the annotation, key, value), in document order."""
    found: list[tuple[tuple, str, str]] = []
    if isinstance(obj, list):
        for i, item in enumerate(obj):
            found.extend(tas_annotations(item, path + (i,)))
        return found
    if not isinstance(obj, dict):
        return found
    for key, value in obj.items():
        if key == "metadata" and isinstance(value, dict) and isinstance(value.get("annotations"), dict):
            found.extend((path + ("metadata", "annotations", k), k, str(v))
                         for k, v in value["annotations"].items() if isinstance(k, str) and k.startswith(TAS_PREFIX))
        elif key != "metadata":
            found.extend(tas_annotations(value, path + (key,)))
    return found
