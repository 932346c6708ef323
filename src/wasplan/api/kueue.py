"""Kueue's names that several layers read: the labels a job carries to be queued, and the kinds Kueue v0.17.0 has
an integration for. Kept here once (the api layer, below cluster, kueue, validate and explain), so that the lint
(`validate/kueue_lint.py`), the admission model (`kueue/`), the snapshot builder (`cluster/kueue.py`) and explain
agree on them.

Upstream: KDIR/apis/kueue/v1beta2/constants.go (`QueueLabel`, `WorkloadPriorityClassLabel`) and
KDIR/pkg/controller/jobs/*, one package per integration, each registering its GroupVersionKind (KDIR is
sigs.k8s.io/kueue@v0.17.0).
"""

from __future__ import annotations

QUEUE_LABEL = "kueue.x-k8s.io/queue-name"
PRIORITY_CLASS_LABEL = "kueue.x-k8s.io/priority-class"

# (API group, kind) of the integrations whose Workloads the admission model builds (kueue/jobs.py, kueue/pods.py)
BUILT_INTEGRATIONS = frozenset({
    ("batch", "Job"), ("jobset.x-k8s.io", "JobSet"), ("", "Pod"), ("apps", "Deployment"), ("apps", "StatefulSet"),
    ("leaderworkerset.x-k8s.io", "LeaderWorkerSet")})

# (API group, kind) of Kueue's other integrations: Kueue builds their Workloads, the model does not (docs/kueue.md)
UNBUILT_INTEGRATIONS = frozenset({
    ("kubeflow.org", "MPIJob"), ("kubeflow.org", "PyTorchJob"), ("kubeflow.org", "TFJob"),
    ("kubeflow.org", "XGBoostJob"), ("kubeflow.org", "PaddleJob"), ("kubeflow.org", "JAXJob"),
    ("trainer.kubeflow.org", "TrainJob"), ("ray.io", "RayJob"), ("ray.io", "RayCluster"), ("ray.io", "RayService"),
    ("workload.codeflare.dev", "AppWrapper"), ("sparkoperator.k8s.io", "SparkApplication")})

INTEGRATIONS = BUILT_INTEGRATIONS | UNBUILT_INTEGRATIONS
