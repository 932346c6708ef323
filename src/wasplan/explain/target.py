"""Which objects an explanation is about: `podgroup/NAME`, `workload/NAME`, `job/NAME`, `pod/NAME`,
`compositepodgroup/NAME`, and the workloads expanded into pods — `jobset/NAME`, `lws/NAME` (or
`leaderworkerset/NAME`), `deployment/NAME`, `statefulset/NAME`, `replicaset/NAME` (kubectl style, namespace from `-n` or `kind/NAMESPACE/NAME`, else the only match in
any namespace), or — with no TARGET — every PodGroup and plain pod the plan leaves pending.

Everything resolves to units the engine schedules: PodGroups (a Workload, Job or CompositePodGroup stands for
the PodGroups under it; a workload for the groups and plain pods it owns, directly or through its owner chain;
a pod in a PodGroup for its group) and plain pods. An unknown or ambiguous TARGET is a
`TargetError` whose message suggests the closest existing names.
"""

from __future__ import annotations

from dataclasses import dataclass

from wasplan.api import hub
from wasplan.cluster.model import Group, PlanInputs, Pod
from wasplan.plan import UNPLACED, GroupStatus, Plan
from wasplan.suggest import closest

KINDS = {"podgroup": "PodGroup", "podgroups": "PodGroup", "pg": "PodGroup", "workload": "Workload",
         "workloads": "Workload", "job": "Job", "jobs": "Job", "pod": "Pod", "pods": "Pod", "po": "Pod",
         "compositepodgroup": "CompositePodGroup", "compositepodgroups": "CompositePodGroup",
         "cpg": "CompositePodGroup", "jobset": "JobSet", "jobsets": "JobSet", "js": "JobSet",
         "leaderworkerset": "LeaderWorkerSet", "leaderworkersets": "LeaderWorkerSet", "lws": "LeaderWorkerSet",
         "deployment": "Deployment", "deployments": "Deployment", "deploy": "Deployment",
         "statefulset": "StatefulSet", "statefulsets": "StatefulSet", "sts": "StatefulSet",
         "replicaset": "ReplicaSet", "replicasets": "ReplicaSet", "rs": "ReplicaSet"}
# kinds that name pods through Pod.owner (the top-level owner or a link of its chain)
OWNER_KINDS = frozenset({"Job", "JobSet", "LeaderWorkerSet", "Deployment", "StatefulSet", "ReplicaSet"})


class TargetError(ValueError):
    """The TARGET names nothing, or several things; the message says what exists instead."""


@dataclass(frozen=True, slots=True)
class Unit:
    kind: str  # PodGroup | Pod
    key: str  # namespace/name


def parse(target: str, namespace: str | None) -> tuple[str, str | None, str]:
    parts = target.split("/")
    if len(parts) not in (2, 3) or not all(parts) or parts[0].lower() not in KINDS:
        raise TargetError(f"WAS801 TARGET {target!r} is not KIND/NAME; KIND is one of podgroup, workload, job, pod, "
                          "compositepodgroup, jobset, lws, deployment, statefulset, replicaset")
    kind = KINDS[parts[0].lower()]
    if len(parts) == 3:
        if namespace and namespace != parts[1]:
            raise TargetError(f"WAS801 TARGET {target!r} names namespace {parts[1]!r} but -n says {namespace!r}")
        return kind, parts[1], parts[2]
    return kind, namespace, parts[1]


def _objects(inputs: PlanInputs) -> dict[str, list[tuple[str, str]]]:
    """(namespace, name) of every object a TARGET can name, by kind."""
    out: dict[str, list[tuple[str, str]]] = {k: [] for k in set(KINDS.values())}
    for r in [*inputs.existing, *inputs.arrivals]:
        if isinstance(r, Group):
            out[type(r.obj).__name__].append((r.namespace, r.name))
        elif isinstance(r, Pod):
            out["Pod"].append((r.namespace, r.name))
            for o in (r.owner, *r.owner.chain) if r.owner is not None else ():
                if o.kind in OWNER_KINDS and (r.namespace, o.name) not in out[o.kind]:
                    out[o.kind].append((r.namespace, o.name))
    return out


def _did_you_mean(kind: str, name: str, objects: dict[str, list[tuple[str, str]]]) -> str:
    names = {f"{k.lower()}/{ns}/{n}": n for k, pairs in objects.items() for ns, n in pairs}
    close = closest(name, names.values(), 3)
    hits = [full for full, n in sorted(names.items()) if n in close]
    same_kind = [h for h in hits if h.startswith(kind.lower() + "/")]
    hits = (same_kind or hits)[:3]
    return f"; did you mean {' or '.join(hits)}?" if hits else ""


def find(kind: str, namespace: str | None, name: str, inputs: PlanInputs) -> tuple[str, str]:
    """The (namespace, name) the TARGET names, or a TargetError that lists what exists."""
    objects = _objects(inputs)
    matches = [(ns, n) for ns, n in objects[kind] if n == name and (namespace is None or ns == namespace)]
    if len(matches) == 1:
        return matches[0]
    where = f" in namespace {namespace}" if namespace else ""
    if not matches:
        raise TargetError(f"WAS801 no {kind} named {name!r}{where}{_did_you_mean(kind, name, objects)}")
    listed = ", ".join(f"{kind.lower()}/{ns}/{n}" for ns, n in sorted(matches))
    raise TargetError(f"WAS802 {kind} {name!r} exists in several namespaces ({listed}); say which with -n")


def _groups(inputs: PlanInputs) -> list[Group]:
    return [r for r in [*inputs.existing, *inputs.arrivals] if isinstance(r, Group)]


def _pods(inputs: PlanInputs) -> list[Pod]:
    return [r for r in [*inputs.existing, *inputs.arrivals] if isinstance(r, Pod)]


def _pod_unit(pod: Pod, group_keys: set[str]) -> Unit:
    key = f"{pod.namespace}/{pod.pod_group}" if pod.pod_group else None
    return Unit("PodGroup", key) if key in group_keys else Unit("Pod", pod.key)


def _composite_children(ns: str, name: str, groups: list[Group]) -> list[Unit]:
    """PodGroups anywhere below the CompositePodGroup `name`."""
    parents = {name}
    out: list[Unit] = []
    changed = True
    while changed:
        changed = False
        for g in groups:
            if g.namespace == ns and getattr(g.obj, "parent_composite", None) in parents and g.name not in parents:
                if isinstance(g.obj, hub.CompositePodGroup):
                    parents.add(g.name)
                    changed = True
                elif Unit("PodGroup", g.key) not in out:
                    out.append(Unit("PodGroup", g.key))
    return out


def resolve(target: str, namespace: str | None, inputs: PlanInputs) -> list[Unit]:
    kind, ns, name = parse(target, namespace)
    ns, name = find(kind, ns, name, inputs)
    groups = _groups(inputs)
    group_keys = {g.key for g in groups if isinstance(g.obj, hub.PodGroup)}
    if kind == "PodGroup":
        return [Unit("PodGroup", f"{ns}/{name}")]
    if kind == "Pod":
        pod = next(p for p in _pods(inputs) if p.namespace == ns and p.name == name)
        return [_pod_unit(pod, group_keys)]
    if kind == "Workload":
        units = [Unit("PodGroup", g.key) for g in groups if isinstance(g.obj, hub.PodGroup) and g.namespace == ns
                 and g.obj.workload_ref is not None and g.obj.workload_ref.workload_name == name]
    elif kind in OWNER_KINDS:
        units = []
        for pod in _pods(inputs):
            if pod.namespace == ns and pod.owner is not None and pod.owner.names(kind, name):
                unit = _pod_unit(pod, group_keys)
                if unit not in units:
                    units.append(unit)
    else:
        units = _composite_children(ns, name, groups)
    if not units:
        raise TargetError(f"WAS801 {kind} {ns}/{name} has no PodGroups or pods to explain")
    return units


def pending(plan: Plan) -> list[Unit]:
    """Every PodGroup the plan does not schedule or leaves members of pending (a basic group is Scheduled with
    some pods placed, a 1.37 Job's group for one), and every plain pod it leaves pending or gated."""
    group_keys = {g.key for g in plan.pod_groups}
    waiting = {p.pod_group for p in plan.pods if p.status in UNPLACED}
    units = [Unit("PodGroup", g.key) for g in plan.pod_groups if g.status != GroupStatus.SCHEDULED or g.key in waiting]
    for p in plan.pods:
        if p.status in UNPLACED and (p.pod_group is None or p.pod_group not in group_keys):
            units.append(Unit("Pod", p.key))
    return units
