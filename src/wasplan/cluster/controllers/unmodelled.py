"""Which input objects run pods through a controller wasplan does not model (WAS622, "Not planned").

The rule, in order (docs/plan.md "Not planned"; docs/workload-expansion.md):

1. Kinds the planner reads itself (Pod, Node, PriorityClass, the scheduling.k8s.io kinds, ...) and the
   workload kinds it expands (controllers/__init__.py) are planned, never listed.
2. Objects that only hold templates or configuration run nothing by themselves and are never listed: the
   core holders (PodTemplate, ConfigMap, Secret, ControllerRevision, CustomResourceDefinition, ...) and every
   kind whose name ends in `Template`, `Runtime` or `Policy`. That catches Kubeflow Trainer's TrainingRuntime
   and ClusterTrainingRuntime (the blueprints a TrainJob points at: trainer.kubeflow.org
   pkg/apis/trainer/v1alpha1/trainingruntime_types.go), Argo's WorkflowTemplate and ClusterWorkflowTemplate,
   KServe's ServingRuntime and ClusterServingRuntime, and policy engines' pod patterns (Kyverno ClusterPolicy),
   none of which creates a pod until some other object refers to it.
3. A few kinds run pods whose template lives elsewhere or is built by their controller, so nothing in their own
   spec looks like a pod: Kubeflow Trainer's TrainJob (its pods come from the runtime named by
   `spec.runtimeRef`), an Argo Workflow or CronWorkflow started from `workflowTemplateRef`, KServe's
   InferenceService (`spec.predictor.model`), the Spark operator's SparkApplication (`spec.driver`,
   `spec.executor`), a RayJob that submits to an existing cluster (`spec.clusterSelector`). They are listed
   by kind.
4. Any other object with a pod spec (`containers: [...]`) or a single container (`container: {image: ...}`)
   somewhere in its `spec` runs pods through its controller and is listed: a PyTorchJob, MPIJob, RayCluster,
   CronJob, DaemonSet, Notebook or any custom resource with a pod template.
"""

from __future__ import annotations

# rule 2: the core objects that hold templates or configuration (a pod template in a PodTemplate runs nothing)
CONFIGURATION_KINDS = frozenset({"PodTemplate", "ControllerRevision", "ConfigMap", "Secret", "LimitRange",
                                 "ResourceQuota", "CustomResourceDefinition", "Namespace", "ServiceAccount"})
CONFIGURATION_SUFFIXES = ("Template", "Runtime", "Policy")

# rule 3: (API group, kind) of workloads whose own spec carries no pod template
_POD_RUNNING_KINDS = frozenset({
    ("trainer.kubeflow.org", "TrainJob"),
    ("argoproj.io", "Workflow"), ("argoproj.io", "CronWorkflow"),
    ("serving.kserve.io", "InferenceService"),
    ("sparkoperator.k8s.io", "SparkApplication"), ("sparkoperator.k8s.io", "ScheduledSparkApplication"),
    ("ray.io", "RayJob"), ("ray.io", "RayCluster"), ("ray.io", "RayService"),
})

_MAX_DEPTH = 12  # deeper than any pod template in a real workload; bounds the walk on hostile input


def holds_configuration(kind: str) -> bool:
    """Rule 2: an object that only holds templates or configuration."""
    return kind in CONFIGURATION_KINDS or kind.endswith(CONFIGURATION_SUFFIXES)


def known_pod_runner(group: str, kind: str) -> bool:
    """Rule 3: a workload kind whose pods are built by its controller from something outside its own spec."""
    return (group, kind) in _POD_RUNNING_KINDS


def carries_pods(value: object, depth: int = 0) -> bool:
    """Rule 4: a pod spec (`containers: [...]`) or a single container (`container: {image: ...}`) anywhere below."""
    if depth > _MAX_DEPTH:
        return False
    if isinstance(value, dict):
        if isinstance(value.get("containers"), list):
            return True
        if isinstance(value.get("container"), dict) and "image" in value["container"]:
            return True
        return any(carries_pods(v, depth + 1) for v in value.values())
    if isinstance(value, list):
        return any(carries_pods(v, depth + 1) for v in value)
    return False


def runs_pods_elsewhere(group: str, kind: str, spec: object) -> bool:
    """Rules 2-4 for an object the planner neither reads nor expands (rule 1 is the caller's)."""
    if holds_configuration(kind):
        return False
    return known_pod_runner(group, kind) or carries_pods(spec)
