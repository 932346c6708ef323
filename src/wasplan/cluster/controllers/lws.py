"""The LeaderWorkerSet controller's part in a plan (kubernetes-sigs/lws, main at 060ab4d, August 2026).

Followed: pkg/controllers/leaderworkerset_controller.go (`constructLeaderStatefulSetApplyConfiguration`: a
leader StatefulSet `<lws>` with `replicas` pods, Parallel), pkg/controllers/pod_controller.go (one worker
StatefulSet per leader pod, named like the leader, `size - 1` pods from ordinal 1, Parallel; created once the
leader exists, or is ready with `startupPolicy: LeaderReady`, or is scheduled with exclusive placement),
pkg/webhooks/pod_webhook.go (group index, group key, sub-groups, exclusive affinities) and
api/leaderworkerset/v1/leaderworkerset_types.go (keys, defaults).

Pods: leaders `<lws>-<group>` (all of them first: one StatefulSet), then each group's workers
`<lws>-<group>-<worker>` (one StatefulSet per leader).
LWS's gang scheduling integration is a Volcano PodGroup (pkg/schedulerprovider/volcano_provider.go); it makes
no scheduling.k8s.io objects, so for kube-scheduler only a template's own `schedulingGroup` groups pods.
"""

from __future__ import annotations

import hashlib

from wasplan.cluster.controllers import exclusive
from wasplan.cluster.controllers.context import Expansion
from wasplan.cluster.controllers.names import template_hash
from wasplan.cluster.controllers.pods import copy_pod, prototype
from wasplan.cluster.controllers.read import count, mapping
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Owner, Pod, Record, StartAfter

PREFIX = "leaderworkerset.sigs.k8s.io/"
NAME, GROUP_INDEX, WORKER_INDEX = PREFIX + "name", PREFIX + "group-index", PREFIX + "worker-index"
GROUP_KEY, REVISION = PREFIX + "group-key", PREFIX + "template-revision-hash"
SUBGROUP_INDEX, SUBGROUP_KEY = PREFIX + "subgroup-index", PREFIX + "subgroup-key"
EXCLUSIVE, SUBGROUP_EXCLUSIVE = PREFIX + "exclusive-topology", PREFIX + "subgroup-exclusive-topology"


def _sha1(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def subgroup_of(size: int, subgroup_size: int, worker: int, leader_excluded: bool) -> int | None:
    """The sub-group of worker index `worker` (0 = the leader): the webhook's getSubGroupIndex."""
    if worker == 0:
        return None if leader_excluded else 0
    if (size - 1) % subgroup_size == 0 and size % subgroup_size != 0:
        return (worker - 1) // subgroup_size
    return worker // subgroup_size


class _Shape:
    """The LWS fields that decide its pods, read once."""

    def __init__(self, obj: dict, ctx: Ctx):
        meta, spec = mapping(obj.get("metadata")), mapping(obj.get("spec"))
        lwt = mapping(spec.get("leaderWorkerTemplate"))
        self.name, self.namespace = meta["name"], meta.get("namespace") or "default"
        self.annotations = mapping(meta.get("annotations"))
        self.replicas = count(spec, "replicas", ctx.at("spec"), 1)
        self.size = count(lwt, "size", ctx.at("spec", "leaderWorkerTemplate"), 1) or 1
        self.worker_template = mapping(lwt.get("workerTemplate"))
        self.leader_template = mapping(lwt.get("leaderTemplate")) or None
        sub = mapping(lwt.get("subGroupPolicy"))
        self.subgroup_size = sub.get("subGroupSize") if isinstance(sub.get("subGroupSize"), int) else None
        self.leader_excluded = sub.get("subGroupPolicyType") == "LeaderExcluded"
        self.leader_ready = spec.get("startupPolicy") == "LeaderReady"
        self.revision = template_hash(lwt)

    def labels(self, group: int, worker: int) -> dict[str, str]:
        leader = f"{self.name}-{group}"
        out = {NAME: self.name, GROUP_INDEX: str(group), WORKER_INDEX: str(worker),
               GROUP_KEY: _sha1(f"{self.namespace}/{leader}"), REVISION: self.revision}
        sub = subgroup_of(self.size, self.subgroup_size, worker, self.leader_excluded) if self.subgroup_size else None
        if sub is not None:
            out[SUBGROUP_INDEX], out[SUBGROUP_KEY] = str(sub), _sha1(f"{leader}/{sub}")
        return out


def _leader(shape: _Shape, proto: Pod, group: int) -> Pod:
    name = f"{shape.name}-{group}"
    pod = copy_pod(proto, name, {**proto.labels, **shape.labels(group, 0)}, proto.pod_group,
                   Owner("LeaderWorkerSet", shape.name, (Owner("StatefulSet", shape.name),)))
    if shape.annotations.get(EXCLUSIVE):
        pod = exclusive.leader(pod, GROUP_KEY, shape.annotations[EXCLUSIVE])
    if SUBGROUP_KEY in pod.labels and shape.annotations.get(SUBGROUP_EXCLUSIVE):
        pod = exclusive.leader(pod, SUBGROUP_KEY, shape.annotations[SUBGROUP_EXCLUSIVE])
    return pod


def _worker_wait(shape: _Shape, leader: Pod) -> StartAfter | None:
    if shape.annotations.get(EXCLUSIVE):
        return StartAfter((leader.key,), "LeaderWorkerSet exclusive placement: the worker StatefulSet is created "
                                         "once the leader pod is scheduled")
    if shape.leader_ready:
        return StartAfter((leader.key,), "LeaderWorkerSet startupPolicy LeaderReady: the worker StatefulSet is "
                                         "created once the leader pod is ready")
    return None


def _workers(shape: _Shape, proto: Pod, leader: Pod, group: int) -> list[Pod]:
    chain = (Owner("StatefulSet", shape.name), Owner("Pod", leader.name), Owner("StatefulSet", leader.name))
    wait = _worker_wait(shape, leader)
    out = []
    for worker in range(1, shape.size):
        pod = copy_pod(proto, f"{leader.name}-{worker}", {**proto.labels, **shape.labels(group, worker)},
                       proto.pod_group, Owner("LeaderWorkerSet", shape.name, chain), wait)
        if shape.annotations.get(EXCLUSIVE):
            pod = exclusive.follower(pod, GROUP_KEY, shape.annotations[EXCLUSIVE])
        if SUBGROUP_KEY in pod.labels and shape.annotations.get(SUBGROUP_EXCLUSIVE):
            pod = exclusive.leader(pod, SUBGROUP_KEY, shape.annotations[SUBGROUP_EXCLUSIVE])
        out.append(pod)
    return out


def _proto(template: dict, shape: _Shape, ctx: Ctx) -> Pod:
    meta = dict(mapping(template.get("metadata")), namespace=shape.namespace)
    return prototype(meta, mapping(template.get("spec")), ctx)


def expand_lws(obj: dict, exp: Expansion, ctx: Ctx) -> list[Record]:
    """Every leader, then every group's workers."""
    shape = _Shape(obj, ctx)
    base = ctx.at("spec", "leaderWorkerTemplate")
    if not isinstance(shape.worker_template.get("spec"), dict):
        ctx.report("WAS602", "a LeaderWorkerSet needs spec.leaderWorkerTemplate.workerTemplate.spec",
                   ("spec", "leaderWorkerTemplate", "workerTemplate"))
        return []
    if not shape.replicas:
        ctx.report("WAS621", f"LeaderWorkerSet {shape.namespace}/{shape.name} creates no pods in this plan: "
                   "spec.replicas is 0", ("spec", "replicas"))
        return []
    worker_proto = _proto(shape.worker_template, shape, base.at("workerTemplate"))
    leader_proto = (_proto(shape.leader_template, shape, base.at("leaderTemplate"))
                    if shape.leader_template else worker_proto)
    leaders = [_leader(shape, leader_proto, g) for g in range(shape.replicas)]
    records: list[Record] = list(leaders)
    for g, leader in enumerate(leaders):
        records += _workers(shape, worker_proto, leader, g)
    return records
