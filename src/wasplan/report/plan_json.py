"""Machine-readable renderings of a plan: the Plan contract as JSON or YAML, and the cluster after the plan as
ordinary Kubernetes objects (`--emit-snapshot`) that `--cluster` reads back.

Output is deterministic: same plan, same bytes. Conditions the scheduler writes get a fixed
lastTransitionTime (the Unix epoch) because a plan has no wall clock.
"""

from __future__ import annotations

import copy
import json

import yaml

from wasplan.api import hub
from wasplan.api.convert import from_hub
from wasplan.api.releases import Release
from wasplan.cluster.model import CPU, Group, Node, Pod, PriorityClass
from wasplan.plan import Plan

PLAN_EPOCH = "1970-01-01T00:00:00Z"


def render_plan_json(plan: Plan) -> str:
    return json.dumps(plan.to_dict(), indent=2) + "\n"


def render_plan_yaml(plan: Plan) -> str:
    return yaml.safe_dump(plan.to_dict(), sort_keys=False, default_flow_style=False)


def _quantity(name: str, amount: int) -> str:
    return f"{amount}m" if name == CPU else str(amount)


def node_object(node: Node) -> dict:
    amounts = {k: _quantity(k, v) for k, v in sorted(node.allocatable.items())}
    spec: dict = {}
    if node.taints:
        spec["taints"] = [{"key": t.key, **({"value": t.value} if t.value else {}), "effect": t.effect}
                          for t in node.taints]
    if node.unschedulable:
        spec["unschedulable"] = True
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": node.name, "labels": dict(node.labels)},
            "spec": spec, "status": {"capacity": amounts, "allocatable": dict(amounts)}}


def priority_class_object(pc: PriorityClass) -> dict:
    out = {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": pc.name},
           "value": pc.value, "preemptionPolicy": pc.preemption_policy}
    if pc.global_default:
        out["globalDefault"] = True
    return out


def _with_times(obj):
    conds = getattr(obj, "conditions", None)
    if not conds:
        return obj
    fixed = tuple(c if c.last_transition_time else c.model_copy(update={"last_transition_time": PLAN_EPOCH,
                                                                         "message": c.message or ""})
                  for c in conds)
    return obj.model_copy(update={"conditions": fixed})


def group_object(group: Group, release: Release) -> dict:
    kind = type(group.obj).__name__
    version = release.preferred[kind]
    out, _ = from_hub(_with_times(group.obj), version, allow_lossy=True, keep_status=True)
    meta = out.setdefault("metadata", {})
    meta["name"], meta["namespace"] = group.name, group.namespace
    return out


def _synthesised_pod(pod: Pod) -> dict:
    requests = {k: _quantity(k, v) for k, v in sorted(pod.requests.items()) if v}
    spec: dict = {"schedulerName": pod.scheduler_name,
                  "containers": [{"name": "main", "image": "registry.k8s.io/pause:3.10",
                                  "resources": {"requests": requests}}]}
    if pod.priority_class_name:
        spec["priorityClassName"] = pod.priority_class_name
    if pod.node_selector:
        spec["nodeSelector"] = dict(pod.node_selector)
    if pod.tolerations:
        spec["tolerations"] = [{k: v for k, v in (("key", t.key), ("operator", t.operator), ("value", t.value),
                                                  ("effect", t.effect)) if v} for t in pod.tolerations]
    if pod.pod_group:
        spec["schedulingGroup"] = {"podGroupName": pod.pod_group}
    meta: dict = {"name": pod.name, "namespace": pod.namespace}
    if pod.labels:
        meta["labels"] = dict(pod.labels)
    if pod.owner:
        meta["ownerReferences"] = [{"apiVersion": "batch/v1", "kind": pod.owner.kind, "name": pod.owner.name,
                                    "controller": True, "uid": ""}]
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}


def pod_object(pod: Pod) -> dict:
    source = getattr(pod, "source", None)
    raw = getattr(source, "obj", None)
    if isinstance(raw, dict) and raw.get("kind") == "Pod":
        out = copy.deepcopy(raw)
    else:
        out = _synthesised_pod(pod)
    if pod.node_name:
        out.setdefault("spec", {})["nodeName"] = pod.node_name
    return out


def snapshot_objects(final, release: Release) -> list[dict]:
    objs = [node_object(n) for n in final.nodes]
    objs += [priority_class_object(pc) for pc in sorted(final.priority_classes, key=lambda p: p.name)]
    order = {hub.Workload: 0, hub.CompositePodGroup: 1, hub.PodGroup: 2}
    for g in sorted(final.groups, key=lambda g: order[type(g.obj)]):
        if isinstance(g.obj, hub.CompositePodGroup) and "CompositePodGroup" not in release.preferred:
            continue
        objs.append(group_object(g, release))
    objs += [pod_object(p) for p in final.pods]
    return objs


def render_snapshot(final, release: Release) -> str:
    doc = {"apiVersion": "v1", "kind": "List", "items": snapshot_objects(final, release)}
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=False)
