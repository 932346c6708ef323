"""The Deployment, ReplicaSet and StatefulSet controllers' part in a plan (kubernetes/kubernetes).

Followed: pkg/controller/deployment/sync.go (`getNewReplicaSet`: the ReplicaSet `<deployment>-<hash>` with the
`pod-template-hash` label on it and its pods; a paused Deployment creates none), pkg/controller/replicaset/
replica_set.go (`manageReplicas`: `replicas` pods, generateName `<replicaset>-`, pkg/controller/
controller_utils.go `GetPodsFromTemplate`), pkg/controller/statefulset/stateful_set_utils.go (`getPodName`
`<set>-<ordinal>`, labels `statefulset.kubernetes.io/pod-name`, `apps.kubernetes.io/pod-index`,
`controller-revision-hash`) and stateful_set_control.go (OrderedReady creates ordinal i+1 once i is running
and ready; Parallel creates all; ordinals start at `spec.ordinals.start`).

Deterministic names (names.py): ReplicaSet `<deployment>-<template hash stand-in>`; ReplicaSet pods
`<replicaset>-<i>` where upstream appends 5 random characters.
"""

from __future__ import annotations

from wasplan.cluster.controllers.context import Expansion
from wasplan.cluster.controllers.job import MAX_JOB_PODS
from wasplan.cluster.controllers.names import template_hash
from wasplan.cluster.controllers.pods import copy_pod, prototype
from wasplan.cluster.controllers.read import count, mapping
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Owner, Pod, Record, StartAfter

TEMPLATE_HASH = "pod-template-hash"
STS_POD_NAME, POD_INDEX = "statefulset.kubernetes.io/pod-name", "apps.kubernetes.io/pod-index"
REVISION = "controller-revision-hash"


class _Shape:
    def __init__(self, obj: dict, ctx: Ctx):
        meta, spec = mapping(obj.get("metadata")), mapping(obj.get("spec"))
        self.kind, self.name = obj.get("kind"), meta["name"]
        self.namespace = meta.get("namespace") or "default"
        self.spec, self.template = spec, mapping(spec.get("template"))
        self.replicas = count(spec, "replicas", ctx.at("spec"), 1)

    def prototype(self, ctx: Ctx) -> Pod:
        meta = dict(mapping(self.template.get("metadata")), namespace=self.namespace)
        return prototype(meta, self.template["spec"], ctx.at("spec", "template"))


def _replica_pods(shape: _Shape, proto: Pod, rs_name: str, extra: dict[str, str], owner: Owner) -> list[Pod]:
    labels = {**proto.labels, **extra}
    return [copy_pod(proto, f"{rs_name}-{i}", dict(labels), proto.pod_group, owner) for i in range(shape.replicas)]


def _deployment(shape: _Shape, proto: Pod) -> list[Record]:
    digest = template_hash(shape.template)
    rs_name = f"{shape.name}-{digest}"
    owner = Owner("Deployment", shape.name, (Owner("ReplicaSet", rs_name),))
    return list(_replica_pods(shape, proto, rs_name, {TEMPLATE_HASH: digest}, owner))


def _replicaset(shape: _Shape, proto: Pod) -> list[Record]:
    return list(_replica_pods(shape, proto, shape.name, {}, Owner("ReplicaSet", shape.name)))


def _statefulset(shape: _Shape, proto: Pod) -> list[Record]:
    start = mapping(shape.spec.get("ordinals")).get("start")
    start = start if isinstance(start, int) and not isinstance(start, bool) and start >= 0 else 0
    ordered = shape.spec.get("podManagementPolicy", "OrderedReady") != "Parallel"
    revision = f"{shape.name}-{template_hash(shape.template)}"
    pods: list[Record] = []
    previous: Pod | None = None
    for ordinal in range(start, start + shape.replicas):
        name = f"{shape.name}-{ordinal}"
        labels = {**proto.labels, STS_POD_NAME: name, POD_INDEX: str(ordinal), REVISION: revision}
        wait = None
        if ordered and previous is not None:
            wait = StartAfter((previous.key,), f"StatefulSet podManagementPolicy OrderedReady: created once "
                                               f"{previous.name} is running and ready")
        previous = copy_pod(proto, name, labels, proto.pod_group, Owner("StatefulSet", shape.name), wait)
        pods.append(previous)
    return pods


_EXPAND = {"Deployment": _deployment, "ReplicaSet": _replicaset, "StatefulSet": _statefulset}


def expand_apps(obj: dict, exp: Expansion, ctx: Ctx) -> list[Record]:
    """The pods of a Deployment, ReplicaSet or StatefulSet, in the order the controller creates them."""
    shape = _Shape(obj, ctx)
    if not isinstance(shape.template.get("spec"), dict):
        ctx.report("WAS602", f"a {shape.kind} needs spec.template.spec (the pod template)", ("spec", "template"))
        return []
    reason = None
    if shape.kind == "Deployment" and shape.spec.get("paused") is True:
        reason = "the Deployment is paused (spec.paused: true): it creates no ReplicaSet until it is resumed"
    elif not shape.replicas:
        reason = "spec.replicas is 0"
    if shape.replicas > MAX_JOB_PODS:  # refused before expanding (docs/exit-codes.md: Limits)
        ctx.report("WAS610", f"{shape.kind} {shape.namespace}/{shape.name} would start {shape.replicas:,} pods; the "
                             f"planner expands at most {MAX_JOB_PODS:,} per workload", ("spec", "replicas"))
        return []
    if reason is not None:
        ctx.report("WAS621", f"{shape.kind} {shape.namespace}/{shape.name} creates no pods in this plan: {reason}",
                   ("spec",))
        return []
    return _EXPAND[shape.kind](shape, shape.prototype(ctx))
