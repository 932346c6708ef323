"""Workloads of Kueue's pod-based integrations (plain Pods and pod groups, Deployment, StatefulSet) and of
LeaderWorkerSet, as Kueue v0.17.0 builds them.

Upstream (KDIR = sigs.k8s.io/kueue@v0.17.0, under pkg/controller/jobs/):
* pod/pod_controller.go: a queued Pod without `kueue.x-k8s.io/pod-group-name` is a single-pod Workload
  (`constructPodSets`: one PodSet "main" of count 1, named by `GetWorkloadNameForPod`, i.e.
  `pod-<pod name>-<hash>`). Pods sharing a group label form one Workload named after the group
  (`workloadName`), whose PodSets are the pods' roles (`constructGroupPodSets`: one PodSet per role hash,
  counting its pods, sorted by name; more than 8 roles is refused), once the group has
  `kueue.x-k8s.io/pod-group-total-count` runnable pods (`validatePodGroupMetadata`: fewer is an error,
  every pod must carry the same queue and total count; excess pods, the newest, are removed
  (`ConstructComposableWorkload`, `sortActivePods`)).
* KDIR/pkg/util/pod/pod.go `GenerateRoleHash`: the first 8 hex digits of the SHA-256 of the JSON of the
  pod's shape (containers' and init containers' requests and ports, nodeSelector, affinity, tolerations,
  runtimeClassName, priority, topologySpreadConstraints, overhead, resourceClaims), as Go's encoding/json writes
  the corev1 structs: struct fields in declaration order, map keys sorted, `omitempty` fields dropped when
  empty, `null` for an absent field without it. The hash is taken of the pod the API server stored, so the
  defaults it applies before Kueue's webhook are applied first: `spec.priority` from the PriorityClass (else the
  global default, else 0; the Priority admission plugin), a container port's protocol `TCP` and a missing request
  taken from the limit (k8s.io/kubernetes pkg/apis/core/v1/defaults.go).
* pod/pod_webhook.go: a plain Pod is managed only in a namespace the managed-jobs namespace selector matches; by
  default (KDIR/apis/config/v1beta2/defaults.go) every namespace but kube-system and kueue-system.
* deployment/deployment_webhook.go: the Deployment's pods carry its queue name (and WorkloadPriorityClass label)
  and each is a single-pod Workload. The pods are named as wasplan's Deployment controller names them
  (`<deployment>-<template hash>-<i>`, cluster/controllers/apps.py), so the Workloads are
  `pod-<deployment>-<template hash>-<i>-<hash>`.
* statefulset/statefulset_reconciler.go `constructWorkload`: one Workload for the whole StatefulSet,
  `statefulset-<name>-<hash>`, PodSet "main" of count `replicas` (default 1); none for 0 replicas.
* leaderworkerset/leaderworkerset_reconciler.go `filterWorkloads`, `podSets`: one Workload per group
  0..replicas-1, named by `GetWorkloadName` (`leaderworkerset-<name>-<group>-<hash>`, the hash over the name
  `<name>-<group>`); with a leaderTemplate the PodSets "leader" (1) and "worker" (size - 1), else "main" (size).

The UID every hash reads is `uid-<namespace>-<name>` (of the pod, the StatefulSet or the LeaderWorkerSet), as the
Kueue oracle (oracle/kueue017) stamps it. Creation times: the object's place in the input; a Deployment's pods
and a LeaderWorkerSet's groups one second apart from it, and a pod group at its first pod's time.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from wasplan.api.quantity import QuantityError, parse_quantity
from wasplan.cluster.controllers.names import template_hash

from .jobs import Classes, _pod_set, workload_name
from .model import PRIORITY_CLASS_LABEL, QUEUE_LABEL, PodSet, Source, Workload

POD_GROUP_LABEL = "kueue.x-k8s.io/pod-group-name"
GROUP_TOTAL_COUNT = "kueue.x-k8s.io/pod-group-total-count"
UNMANAGED_NAMESPACES = ("kube-system", "kueue-system")  # the default managedJobsNamespaceSelector excludes them
MAX_ROLES = 8
LWS_GROUP = "leaderworkerset.x-k8s.io"

# Go's encoding/json of the corev1 structs in the role shape: (field, omit, inner shape), in declaration order;
# omit is False (always written), "empty" (omitempty on a value: dropped when empty) or "nil" (omitempty on a
# pointer: dropped only when absent)
_Shape = tuple[tuple[str, object, object], ...]
_SELECTOR_REQ: _Shape = (("key", False, None), ("operator", False, None), ("values", "empty", None))
_LABEL_SELECTOR: _Shape = (("matchLabels", "empty", None), ("matchExpressions", "empty", _SELECTOR_REQ))
_NODE_TERM: _Shape = (("matchExpressions", "empty", _SELECTOR_REQ), ("matchFields", "empty", _SELECTOR_REQ))
_POD_TERM: _Shape = (("labelSelector", "nil", _LABEL_SELECTOR), ("namespaces", "empty", None),
                     ("topologyKey", False, None), ("namespaceSelector", "nil", _LABEL_SELECTOR),
                     ("matchLabelKeys", "empty", None), ("mismatchLabelKeys", "empty", None))
_POD_AFFINITY: _Shape = (("requiredDuringSchedulingIgnoredDuringExecution", "empty", _POD_TERM),
                         ("preferredDuringSchedulingIgnoredDuringExecution", "empty",
                          (("weight", False, None), ("podAffinityTerm", False, _POD_TERM))))
_AFFINITY: _Shape = (
    ("nodeAffinity", "nil", (
        ("requiredDuringSchedulingIgnoredDuringExecution", "nil", (("nodeSelectorTerms", False, _NODE_TERM),)),
        ("preferredDuringSchedulingIgnoredDuringExecution", "empty",
         (("weight", False, None), ("preference", False, _NODE_TERM))))),
    ("podAffinity", "nil", _POD_AFFINITY), ("podAntiAffinity", "nil", _POD_AFFINITY))
_TOLERATION: _Shape = (("key", "empty", None), ("operator", "empty", None), ("value", "empty", None),
                       ("effect", "empty", None), ("tolerationSeconds", "nil", None))
_SPREAD: _Shape = (("maxSkew", False, None), ("topologyKey", False, None), ("whenUnsatisfiable", False, None),
                   ("labelSelector", "nil", _LABEL_SELECTOR), ("minDomains", "nil", None),
                   ("nodeAffinityPolicy", "nil", None), ("nodeTaintsPolicy", "nil", None),
                   ("matchLabelKeys", "empty", None))
_PORT: _Shape = (("name", "empty", None), ("hostPort", "empty", None), ("containerPort", False, None),
                 ("protocol", "empty", None), ("hostIP", "empty", None))
_CLAIM: _Shape = (("name", False, None), ("resourceClaimName", "nil", None),
                  ("resourceClaimTemplateName", "nil", None))
_ZERO = {"maxSkew": 0, "weight": 0, "containerPort": 0}  # other scalars written always are strings
_SLICES = {"nodeSelectorTerms"}  # fields written always that are lists (null when absent)


def _empty(value: object) -> bool:
    return value is None or value in ("", 0, [], {}) and not isinstance(value, bool)


def _go(value: object, shape: object) -> object:
    """`value` as Go's encoding/json writes the struct (or list of structs) `shape` describes."""
    if isinstance(value, list):
        return [_go(v, shape) for v in value]
    if shape is None:
        return dict(sorted(value.items())) if isinstance(value, dict) else value  # a Go map: keys sorted
    if not isinstance(value, dict):
        return value
    out: dict = {}  # a Go struct: fields in declaration order
    for name, omit, inner in shape:  # type: ignore[union-attr]
        got = value.get(name)
        if omit == "empty" and _empty(got) or omit == "nil" and got is None:
            continue
        if got is None:
            got = None if name in _SLICES else _ZERO.get(name, "") if inner is None else {}
        out[name] = _go(got, inner)
    return out


def _quantities(raw: object) -> dict | None:
    if not isinstance(raw, dict) or not raw:
        return None if not isinstance(raw, dict) else {}
    out = {}
    for k, v in sorted(raw.items()):
        try:
            out[str(k)] = str(parse_quantity(v))
        except QuantityError:
            out[str(k)] = str(v)
    return out


def _containers(raw: object) -> list | None:
    out = []
    for c in raw if isinstance(raw, list) else ():
        c = c if isinstance(c, dict) else {}
        resources = c.get("resources") if isinstance(c.get("resources"), dict) else {}
        ports = c.get("ports")
        out.append({"ports": _go(ports, _PORT) if isinstance(ports, list) else None,
                    "resources": {"requests": _quantities(resources.get("requests"))}})
    return out or None


def _orNone(value: object, shape: object = None) -> object:
    return None if value is None else _go(value, shape)


def spec_shape(spec: dict) -> dict:
    """KDIR/pkg/util/pod/pod.go SpecShape, as encoding/json writes it (a Go map: keys in sorted order)."""
    return {"affinity": _orNone(spec.get("affinity"), _AFFINITY),
            "containers": _containers(spec.get("containers")),
            "initContainers": _containers(spec.get("initContainers")),
            "nodeSelector": _go(spec.get("nodeSelector"), None),
            "overhead": _quantities(spec.get("overhead")),
            "priority": spec.get("priority"),
            "resourceClaims": _orNone(spec.get("resourceClaims"), _CLAIM),
            "runtimeClassName": spec.get("runtimeClassName"),
            "tolerations": _orNone(spec.get("tolerations"), _TOLERATION),
            "topologySpreadConstraints": _orNone(spec.get("topologySpreadConstraints"), _SPREAD)}


def _go_json(value: object) -> str:
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def role_hash(spec: dict) -> str:
    """GenerateRoleHash of a stored (defaulted) pod spec."""
    return hashlib.sha256(_go_json({"spec": spec_shape(spec)}).encode()).hexdigest()[:8]  # shape keys are sorted


def stored_spec(spec: dict, priority: int) -> dict:
    """The pod spec as the API server stores it, for what the role shape reads: spec.priority set, ports'
    protocol defaulted to TCP, requests defaulted from limits."""
    out = dict(spec)
    out["priority"] = spec["priority"] if isinstance(spec.get("priority"), int) else priority
    for key in ("containers", "initContainers"):
        if isinstance(spec.get(key), list):
            out[key] = [_stored_container(c) for c in spec[key]]
    return out


def _stored_container(c: object) -> object:
    if not isinstance(c, dict):
        return c
    c = dict(c)
    if isinstance(c.get("ports"), list):
        c["ports"] = [{**p, "protocol": p.get("protocol") or "TCP"} if isinstance(p, dict) else p for p in c["ports"]]
    res = c.get("resources") if isinstance(c.get("resources"), dict) else None
    if res and isinstance(res.get("limits"), dict) and res["limits"]:
        requests = dict(res.get("requests") or {})
        for k, v in res["limits"].items():
            requests.setdefault(k, v)
        c["resources"] = {**res, "requests": requests}
    return c


Member = tuple[str, str]  # (pod name, PodSet name): which PodSet of its Workload a pod is


@dataclass(slots=True)
class Built:
    """What the pod-based builders give back: Workloads, the pods each Workload stands for, and the objects
    Kueue would fail to build one for (with why)."""

    workloads: list[Workload] = field(default_factory=list)
    members: dict[tuple[str, str], tuple[Member, ...]] = field(default_factory=dict)  # (ns, workload) -> pods
    not_built: list[str] = field(default_factory=list)

    def add(self, wl: Workload | None, problem: str | None, what: str, members: tuple[Member, ...]) -> None:
        if wl is None:
            self.not_built.append(f"{what}: {problem}")
            return
        self.workloads.append(wl)
        self.members[(wl.namespace, wl.name)] = members


def _meta(obj: dict) -> dict:
    meta = obj.get("metadata")
    return meta if isinstance(meta, dict) else {}


def _spec(obj: dict) -> dict:
    spec = obj.get("spec")
    return spec if isinstance(spec, dict) else {}


def _labels(obj: dict) -> dict:
    labels = _meta(obj).get("labels")
    return labels if isinstance(labels, dict) else {}


def _int(value: object, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _uid(meta: dict, namespace: str, name: str) -> str:
    uid = meta.get("uid")
    return uid if isinstance(uid, str) and uid else f"uid-{namespace}-{name}"


def pod_group(obj: dict) -> str | None:
    group = _labels(obj).get(POD_GROUP_LABEL)
    return group if isinstance(group, str) and group else None


def managed_pod_namespace(namespace: str) -> bool:
    """Whether Kueue's pod webhook manages a plain pod of this namespace under the default selector."""
    return namespace not in UNMANAGED_NAMESPACES


def _template(spec: dict, key: str = "template") -> dict:
    template = spec.get(key)
    return template if isinstance(template, dict) else {}


def controller_pods(obj: dict, name: str) -> list[tuple[str, dict]]:
    """(name, pod template) of each pod a Deployment, ReplicaSet, StatefulSet or LeaderWorkerSet creates, named as
    wasplan's controllers name them (cluster/controllers/apps.py, lws.py), in the order they create them."""
    kind, spec = obj.get("kind"), _spec(obj)
    if kind == "LeaderWorkerSet":
        lwt = _template(spec, "leaderWorkerTemplate")
        worker, size = _template(lwt, "workerTemplate"), _int(lwt.get("size"), 1)
        leader = _template(lwt, "leaderTemplate") or worker
        groups = range(max(_int(spec.get("replicas"), 1), 0))
        return ([(f"{name}-{g}", leader) for g in groups]
                + [(f"{name}-{g}-{w}", worker) for g in groups for w in range(1, size)])
    template, replicas = _template(spec), max(_int(spec.get("replicas"), 1), 0)
    if kind == "Deployment":
        return [] if spec.get("paused") is True else [(f"{name}-{template_hash(template)}-{i}", template)
                                                        for i in range(replicas)]
    if kind == "StatefulSet":
        ordinals = spec.get("ordinals") if isinstance(spec.get("ordinals"), dict) else {}
        start = max(_int(ordinals.get("start"), 0), 0)
        return [(f"{name}-{start + i}", template) for i in range(replicas)]
    return [(f"{name}-{i}", template) for i in range(replicas)]


def build_template_pods(obj: dict, namespace: str, name: str, created: int, classes: Classes, out: Built) -> int:
    """The pods of an object whose pod template alone carries the queue label: Kueue's pod webhook manages each
    as a plain pod (no ancestor is managed by Kueue), so each is a single-pod Workload, in a namespace the
    default selector manages. Returns how many creation seconds they take (one per pod)."""
    pods = controller_pods(obj, name)
    if not managed_pod_namespace(namespace):
        return max(len(pods), 1)
    for i, (pod_name, template) in enumerate(pods):
        labels = _labels(template)
        if not labels.get(QUEUE_LABEL):
            continue
        wl, problem = single_pod(labels, pod_name, namespace, template, created + i, classes,
                                 f"uid-{namespace}-{pod_name}")
        out.add(wl, problem, f"Pod {namespace}/{pod_name} of {obj.get('kind')} {name}", ((pod_name, "main"),))
    return max(len(pods), 1)


def _template_spec(template: object) -> str:
    spec = template.get("spec") if isinstance(template, dict) else None
    return str(spec.get("priorityClassName") or "") if isinstance(spec, dict) else ""


def _workload(kind: str, group: str, base: str, uid: str, namespace: str, queue: str, priority: int,
              created: int, pod_sets: list[PodSet], source: Source, name: str | None = None) -> Workload:
    wl_name = name or workload_name(kind, group, base, uid)
    return Workload(namespace=namespace, name=wl_name, uid=f"uid-{namespace}-{wl_name}", queue=queue,
                    priority=priority, created=created, pod_sets=pod_sets, source=source, job_uid=uid)


def single_pod(labels: dict, pod_name: str, namespace: str, template: dict, created: int, classes: Classes,
               uid: str) -> tuple[Workload | None, str | None]:
    """A single-pod Workload (`constructPodSets`), its priority from the pod's labels and class."""
    priority, problem = classes.priority(labels, _template_spec(template))
    if priority is None:
        return None, problem
    ps = _pod_set("main", 1, template, namespace, classes)
    return _workload("Pod", "", pod_name, uid, namespace, str(labels.get(QUEUE_LABEL, "")), priority, created,
                     [ps], Source("v1", "Pod", namespace, pod_name)), None


def build_deployment(obj: dict, namespace: str, name: str, created: int, classes: Classes, out: Built) -> int:
    """One single-pod Workload per pod of the Deployment (deployment_webhook.go puts the Deployment's queue
    name and WorkloadPriorityClass label on them); returns how many creation seconds it took."""
    pods = controller_pods(obj, name)
    for i, (pod_name, template) in enumerate(pods):
        labels = {**_labels(template), QUEUE_LABEL: _labels(obj).get(QUEUE_LABEL, "")}
        if _labels(obj).get(PRIORITY_CLASS_LABEL):
            labels[PRIORITY_CLASS_LABEL] = _labels(obj)[PRIORITY_CLASS_LABEL]
        wl, problem = single_pod(labels, pod_name, namespace, template, created + i, classes,
                                 f"uid-{namespace}-{pod_name}")
        out.add(wl, problem, f"Pod {namespace}/{pod_name} of Deployment {name}", ((pod_name, "main"),))
    return max(len(pods), 1)


def build_statefulset(obj: dict, namespace: str, name: str, created: int, classes: Classes, out: Built) -> int:
    """statefulset_reconciler.go `constructWorkload`: one Workload, PodSet "main" of `replicas` pods."""
    spec = _spec(obj)
    replicas = _int(spec.get("replicas"), 1)
    if replicas <= 0:
        return 1
    template = spec.get("template") if isinstance(spec.get("template"), dict) else {}
    priority, problem = classes.priority(_labels(obj), _template_spec(template))
    start = _int((spec.get("ordinals") or {}).get("start") if isinstance(spec.get("ordinals"), dict) else 0, 0)
    members = tuple((f"{name}-{start + i}", "main") for i in range(replicas))
    wl = None if priority is None else _workload(
        "StatefulSet", "apps", name, _uid(_meta(obj), namespace, name), namespace,
        str(_labels(obj).get(QUEUE_LABEL, "")), priority, created,
        [_pod_set("main", replicas, template, namespace, classes)], Source(obj.get("apiVersion", "apps/v1"),
                                                                            "StatefulSet", namespace, name))
    out.add(wl, problem, f"StatefulSet {namespace}/{name}", members)
    return 1


def lws_pod_sets(obj: dict) -> list[tuple[str, int, dict]]:
    """leaderworkerset_reconciler.go `podSets`: (name, count, template) of one group's PodSets."""
    spec = _spec(obj)
    lwt = spec.get("leaderWorkerTemplate") if isinstance(spec.get("leaderWorkerTemplate"), dict) else {}
    size = _int(lwt.get("size"), 1)
    worker = lwt.get("workerTemplate") if isinstance(lwt.get("workerTemplate"), dict) else {}
    if isinstance(lwt.get("leaderTemplate"), dict):
        return [("leader", 1, lwt["leaderTemplate"]), ("worker", size - 1, worker)]
    return [("main", size, worker)]


def build_lws(obj: dict, namespace: str, name: str, created: int, classes: Classes, out: Built) -> int:
    """One Workload per group of the LeaderWorkerSet (`filterWorkloads`, `constructWorkload`)."""
    replicas = max(_int(_spec(obj).get("replicas"), 1), 0)
    shapes = lws_pod_sets(obj)
    template_class = next((_template_spec(t) for _, _, t in shapes if _template_spec(t)), "")
    priority, problem = classes.priority(_labels(obj), template_class)
    uid = _uid(_meta(obj), namespace, name)
    size = sum(count for _, count, _ in shapes)
    for group in range(replicas):
        leader = f"{name}-{group}"
        roles = [r for r, c, _ in shapes for _ in range(c)] if shapes[0][0] == "leader" else ["main"] * size
        members = tuple((leader if w == 0 else f"{leader}-{w}", role) for w, role in enumerate(roles))
        wl = None if priority is None else _workload(
            "LeaderWorkerSet", LWS_GROUP, leader, uid, namespace, str(_labels(obj).get(QUEUE_LABEL, "")), priority,
            created + group, [_pod_set(n, c, t, namespace, classes) for n, c, t in shapes],
            Source(obj.get("apiVersion", f"{LWS_GROUP}/v1"), "LeaderWorkerSet", namespace, name))
        out.add(wl, problem, f"LeaderWorkerSet {namespace}/{name} group {group}", members)
    return max(replicas, 1)


@dataclass(slots=True)
class GroupMember:
    """A pod of a Kueue pod group: the pod, its name, its creation second."""

    obj: dict
    name: str
    created: int


def _pod_priority(spec: dict, classes: Classes) -> int:
    pcn = spec.get("priorityClassName")
    return classes.pod_priority.get(pcn, 0) if isinstance(pcn, str) and pcn else classes.default_priority


def build_pod_group(namespace: str, group: str, members: list[GroupMember], classes: Classes, out: Built) -> None:
    """The Workload of a pod group (`ConstructComposableWorkload` with `constructGroupPodSets`)."""
    what = f"pod group {namespace}/{group}"
    by_name = sorted(members, key=lambda m: m.name)
    first = by_name[0]  # the pod Kueue's reconciler loaded the group through (listed by name)
    totals = [(m.name, (_meta(m.obj).get("annotations") or {}).get(GROUP_TOTAL_COUNT)) for m in by_name]
    raw = totals[0][1]
    if not isinstance(raw, str):
        out.add(None, f"failed to extract '{GROUP_TOTAL_COUNT}' annotation", what, ())
        return
    total = int(raw) if raw.strip().lstrip("-").isdigit() else None
    if total is None or total < 1:
        out.add(None, f"incorrect annotation value '{GROUP_TOTAL_COUNT}={raw}': group total count should be "
                      "greater than zero" if total is not None else f'strconv.Atoi: parsing "{raw}": invalid syntax',
                what, ())
        return
    if len(members) < total:
        out.add(None, f"'{group}' group has fewer runnable pods than expected", what, ())
        return
    queue = _labels(first.obj).get(QUEUE_LABEL, "")
    for m in by_name:
        if _labels(m.obj).get(QUEUE_LABEL, "") != queue:
            out.add(None, f"pods '{first.name}' and '{m.name}' has different queue names: {queue}!="
                          f"{_labels(m.obj).get(QUEUE_LABEL, '')}", what, ())
            return
    for name, tc in totals:
        if tc != raw:
            out.add(None, f"pods '{first.name}' and '{name}' has different '{GROUP_TOTAL_COUNT}' values: "
                          f"{total}!={tc}", what, ())
            return
    kept = sorted(members, key=lambda m: m.created)[:total]  # sortActivePods: the newest excess pods go
    roles: dict[str, list[GroupMember]] = {}
    for m in sorted(kept, key=lambda m: m.name):
        spec = _spec(m.obj)
        roles.setdefault(role_hash(stored_spec(spec, _pod_priority(spec, classes))), []).append(m)
    if len(roles) > MAX_ROLES:
        out.add(None, "pod group can't include more than 8 roles", what, ())
        return
    pod_sets = [_pod_set(h, len(ms), {"metadata": _meta(ms[0].obj), "spec": _spec(ms[0].obj)}, namespace, classes)
                for h, ms in sorted(roles.items())]
    template_class = next((_template_spec(ps.template) for ps in pod_sets if _template_spec(ps.template)), "")
    priority, problem = classes.priority(_labels(first.obj), template_class)
    wl = None if priority is None else _workload(
        "Pod", "", group, _uid(_meta(first.obj), namespace, first.name), namespace, str(queue), priority,
        min(m.created for m in members), pod_sets, Source("v1", "Pod", namespace, first.name), name=group)
    out.add(wl, problem, what, tuple((m.name, h) for h, ms in sorted(roles.items()) for m in ms))
