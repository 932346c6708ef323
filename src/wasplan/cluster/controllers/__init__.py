"""Workload controllers in a plan: which kinds are expanded into the pods (and scheduling objects) their
controllers would create, and which kinds run pods that the plan cannot expand.

One module per controller — job.py (batch Job), jobset.py (JobSet), lws.py (LeaderWorkerSet), apps.py
(Deployment, ReplicaSet, StatefulSet) — each returning a plain list of records in the order the controller
creates them (docs/workload-expansion.md). Any other object that carries a pod template or container (a Kubeflow
PyTorchJob, an Argo Workflow, a RayJob, a CronJob, a DaemonSet), or that is known to run pods built from
elsewhere (a Kubeflow TrainJob), is reported as not planned; objects that only hold templates (a
ClusterTrainingRuntime, a PodTemplate) are not. The rule is in unmodelled.py.
"""

from __future__ import annotations

from typing import Callable

from wasplan.cluster.controllers.apps import expand_apps
from wasplan.cluster.controllers.context import Expansion
from wasplan.cluster.controllers.job import expand_job
from wasplan.cluster.controllers.jobset import expand_jobset
from wasplan.cluster.controllers.lws import expand_lws
from wasplan.cluster.controllers.unmodelled import runs_pods_elsewhere
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Record

Expander = Callable[[dict, Expansion, Ctx], list[Record]]

_CONTROLLERS: dict[tuple[str, str], Expander] = {
    ("batch", "Job"): lambda obj, exp, ctx: expand_job(obj, exp.gates, ctx, workloads=exp.workloads),
    ("jobset.x-k8s.io", "JobSet"): expand_jobset,
    ("leaderworkerset.x-k8s.io", "LeaderWorkerSet"): expand_lws,
    ("apps", "Deployment"): expand_apps,
    ("apps", "ReplicaSet"): expand_apps,
    ("apps", "StatefulSet"): expand_apps,
}
# kinds the planner reads itself (cluster/parse_core.py) or knows to run no pods of their own
_PLANNER_KINDS = frozenset({"Pod", "Node", "PriorityClass", "PodDisruptionBudget", "Workload", "PodGroup",
                            "CompositePodGroup", "PodTemplate", "ControllerRevision", "List"})


def group_of(obj: dict) -> str:
    api_version = obj.get("apiVersion")
    return api_version.split("/", 1)[0] if isinstance(api_version, str) and "/" in api_version else ""


def expander(obj: dict) -> Expander | None:
    """The expansion for a workload kind wasplan plans, or None."""
    kind = obj.get("kind")
    return _CONTROLLERS.get((group_of(obj), kind)) if isinstance(kind, str) else None


def runs_unplanned_pods(obj: dict) -> bool:
    """An object that would run pods through a controller the plan does not model (the rule: unmodelled.py)."""
    kind = obj.get("kind")
    if not isinstance(kind, str) or kind in _PLANNER_KINDS or expander(obj) is not None:
        return False
    return runs_pods_elsewhere(group_of(obj), kind, obj.get("spec"))
