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
manages any pod with the label whose owner is not a Job or JobSet, which Kueue manages as a whole). Kueue's configuration is not read (that the
integration is enabled is taken from the label, `manageJobsWithoutQueueName` is taken as its default, false),
and neither are its LocalQueues, ClusterQueues or quotas: the plan cannot tell when, or whether, admission
happens. So by default the pods wait for admission (their own status); `assume_admitted` plans them as if Kueue
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

QUEUE_LABEL = "kueue.x-k8s.io/queue-name"
POD_GROUP_LABEL = "kueue.x-k8s.io/pod-group-name"
ADMISSION_GATE = "kueue.x-k8s.io/admission"  # the scheduling gate Kueue's pod webhook adds
TAS_PREFIX = "kueue.x-k8s.io/podset-"  # every PodSet annotation of Kueue's Topology Aware Scheduling

# (API group, kind) Kueue integrates that wasplan expands; the first two Kueue suspends, the rest it gates
_SUSPENDED = frozenset({("batch", "Job"), ("jobset.x-k8s.io", "JobSet")})
_GATED = frozenset({("", "Pod"), ("apps", "Deployment"), ("apps", "StatefulSet"),
                    ("leaderworkerset.x-k8s.io", "LeaderWorkerSet")})
_POD_LABELLED = _GATED | {("apps", "ReplicaSet")}  # kinds whose pods Kueue's pod webhook manages by their own label


@dataclass(frozen=True, slots=True)
class KueueAdmission:
    """What a pod waits for: Kueue to admit its workload from this LocalQueue."""

    namespace: str
    queue: str
    pod_group: str | None = None  # a plain pod's Kueue pod group

    def describe(self) -> str:
        group = f", pod group {self.pod_group}" if self.pod_group else ""
        return f"LocalQueue {self.namespace}/{self.queue}{group}"


def _group(obj: dict) -> str:
    api_version = obj.get("apiVersion")
    return api_version.rsplit("/", 1)[0] if isinstance(api_version, str) and "/" in api_version else ""


def _labels(obj: dict) -> dict:
    meta = obj.get("metadata")
    labels = meta.get("labels") if isinstance(meta, dict) else None
    return labels if isinstance(labels, dict) else {}


def admission_of(obj: dict, namespace: str) -> KueueAdmission | None:
    """The Kueue admission an arriving object waits for, or None when Kueue does not manage it."""
    kind = obj.get("kind")
    if not isinstance(kind, str) or (_group(obj), kind) not in _SUSPENDED | _GATED:
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
