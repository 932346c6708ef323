"""What the visual reports of a plan show (`plan -o html`, `-o markdown`, `--report`), assembled from the Plan,
the cluster after the plan and, with `--baseline`, the plan diff: the report layer renders a PlanView and
computes nothing itself (DESIGN.md §2).

* Topology: nodes are grouped by the topology keys the plan's groups and pods use (PodGroup and
  CompositePodGroup `schedulingConstraints.topology` keys, the placement domains the plan chose, pods' topology
  spread keys) and the well-known `topology.kubernetes.io/region` and `/zone` labels, coarsest first (fewest
  distinct values), at most three levels; `kubernetes.io/hostname` is a node, not a group of nodes.
* Fullness: per node, the requests NodeResourcesFit counts against allocatable after the plan
  (`FinalCluster.usage`, the engine's own arrays), accelerators (extended resources) first, then DRA devices per
  driver (the devices of ResourceSlices published for the node, and how many of them the plan's claims hold),
  then cpu and memory. `fullness` is the first accelerator's share, else the larger of cpu's and memory's.
* Colour: each PodGroup, each workload outside PodGroups (a Job, JobSet, ... by its top-level owner) and the
  pods outside both get a numbered entity; a node takes the entity with the most pods the plan binds on it, or
  "running before the plan" when only the snapshot's pods run there. The number travels with the colour, so no
  meaning is carried by colour alone.
* Selections: every PodGroup, CompositePodGroup, owner of the owner chain (Job, JobSet, ...) and namespace,
  each with the nodes of its placed (or nominated) pods.
* Pending: the PodGroups left unscheduled with their message, then every pending or gated pod grouped by its
  PodGroup, else its top-level owner, else itself, and within that by status and kube-scheduler's message, with
  counts and the `wasplan explain` command that answers why (targets as explain/target.py takes them).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from wasplan.plan import PLACED, UNPLACED, ClaimStatus, GroupStatus, Plan, PodOutcome, PodStatus
from wasplan.plandiff import IMPROVEMENT, NEUTRAL, REGRESSION, PlanDiff

REGION, ZONE, HOSTNAME = "topology.kubernetes.io/region", "topology.kubernetes.io/zone", "kubernetes.io/hostname"
MAX_LEVELS = 3
CPU, MEMORY = "cpu", "memory"
_NOT_METERED = frozenset({"pods", "ephemeral-storage"})
# explain's TARGET kinds for the owners a plan expands (explain/target.py KINDS)
_EXPLAIN_KINDS = {"PodGroup": "podgroup", "Job": "job", "JobSet": "jobset", "LeaderWorkerSet": "lws",
                  "Deployment": "deployment", "StatefulSet": "statefulset", "ReplicaSet": "replicaset", "Pod": "pod"}
_EFFECT_RANK = {REGRESSION: 0, IMPROVEMENT: 1, NEUTRAL: 2}
RUNNING = "running"  # the entity key of pods the snapshot already ran


@dataclass(frozen=True, slots=True)
class Invocation:
    """How `plan` was run, so the report can print the `wasplan explain` command for the same inputs."""

    paths: tuple[str, ...] = ()
    clusters: tuple[str, ...] = ()
    k8s_version: str | None = None
    extra: tuple[str, ...] = ()  # --arrival batch, --no-preemption, --scheduler-config FILE, --feature-gates ...

    def explain(self, target: str, namespace: str) -> str:
        words = ["wasplan", "explain", target, "-n", namespace, *self.paths]
        for c in self.clusters:
            words += ["--cluster", c]
        if self.k8s_version:
            words += ["--k8s-version", self.k8s_version]
        return shlex.join([*words, *self.extra])


@dataclass(frozen=True, slots=True)
class Meter:
    resource: str
    used: int
    total: int
    kind: str  # accelerator | device | cpu | memory

    @property
    def share(self) -> float:
        return min(self.used / self.total, 1.0) if self.total > 0 else 0.0


@dataclass(frozen=True, slots=True)
class NodeView:
    index: int
    name: str
    path: tuple[str, ...]  # the node's value for each topology key ("" without the label)
    meters: tuple[Meter, ...]
    fullness: float
    taints: tuple[str, ...] = ()
    unschedulable: bool = False
    entity: int | None = None  # index into PlanView.entities
    pods: tuple[tuple[str, int], ...] = ()  # (entity label, pods on the node after the plan)
    victims: tuple[str, ...] = ()
    changes: tuple[str, ...] = ()
    change_effect: str | None = None  # the worst effect of a diff change on this node


@dataclass(frozen=True, slots=True)
class Entity:
    index: int
    key: str  # a selection key, or "running" / "other"
    label: str
    pods: int


@dataclass(frozen=True, slots=True)
class Selection:
    key: str  # pg:ns/name, cpg:ns/name, job:ns/name, jobset:ns/name, ..., ns:name
    kind: str
    label: str
    nodes: tuple[int, ...]
    pods: int


@dataclass(frozen=True, slots=True)
class Block:
    """The nodes of one topology domain path, e.g. zone=a / rack=r1."""

    path: tuple[tuple[str, str], ...]
    nodes: tuple[NodeView, ...]


@dataclass(frozen=True, slots=True)
class Area:
    """One value of the coarsest topology key and the blocks under it."""

    key: str
    value: str
    blocks: tuple[Block, ...]

    @property
    def node_count(self) -> int:
        return sum(len(b.nodes) for b in self.blocks)


@dataclass(frozen=True, slots=True)
class GroupRow:
    key: str
    policy: str
    min_count: int
    placed: int
    total: int
    status: GroupStatus
    placement: str
    nodes: tuple[str, ...]
    message: str
    selection: str
    entity: int | None


@dataclass(frozen=True, slots=True)
class Reason:
    status: str
    message: str
    pods: int


@dataclass(frozen=True, slots=True)
class PendingEntry:
    kind: str  # PodGroup | Job | JobSet | ... | Pod
    key: str
    status: str  # the group's status, or the pods' (Pending | Gated)
    message: str  # the group's message ("" outside a group)
    pods: int
    reasons: tuple[Reason, ...]
    explain: str
    selection: str

    @property
    def label(self) -> str:
        return f"{self.kind} {self.key}"


@dataclass(frozen=True, slots=True)
class PreemptionView:
    preemptor: str  # "PodGroup ns/name"
    selection: str
    victims: tuple[tuple[str, str, int, str | None], ...]  # (ns/name, node, priority, podGroup)


@dataclass(frozen=True, slots=True)
class PlanView:
    plan: Plan
    keys: tuple[str, ...]
    areas: tuple[Area, ...]
    nodes: tuple[NodeView, ...]
    entities: tuple[Entity, ...]
    selections: tuple[Selection, ...]
    groups: tuple[GroupRow, ...]
    pending: tuple[PendingEntry, ...]
    preemptions: tuple[PreemptionView, ...]
    diff: PlanDiff | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def summary(self) -> dict:
        return self.plan.summary()

    @property
    def verdict(self) -> str:
        s = self.summary
        if self.plan.complete:
            return "Every pod is placed."
        parts = []
        if s["pending"]:
            parts.append(f"{s['pending']} pod stays pending" if s["pending"] == 1 else f"{s['pending']} pods stay pending")
        if self.plan.unplanned:
            n = len(self.plan.unplanned)
            parts.append(f"{n} workload is not planned" if n == 1 else f"{n} workloads are not planned")
        return "; ".join(parts) + "."


_NUMBERED = re.compile(r"^(.*?)(\d+)$")


def natural(name: str) -> tuple:
    """gpu-2 before gpu-10."""
    m = _NUMBERED.match(name)
    return (m.group(1), int(m.group(2)), name) if m else (name, -1, name)


# ---- topology --------------------------------------------------------------------------------------------------
def _constraint_keys(plan: Plan, final) -> set[str]:
    keys = {g.placement.topology_key for g in (*plan.pod_groups, *plan.composites) if g.placement}
    for group in getattr(final, "groups", ()):
        keys.update(getattr(group.obj, "topology_keys", ()) or ())
    for pod in getattr(final, "pods", ()):
        keys.update(c.topology_key for c in pod.topology_spread)
    return keys


def topology_keys(plan: Plan, final) -> tuple[str, ...]:
    """The keys to group nodes by, coarsest first; keys no node carries, and hostname, are left out."""
    wanted = (_constraint_keys(plan, final) | {REGION, ZONE}) - {HOSTNAME}
    values: dict[str, set[str]] = {k: set() for k in wanted}
    for node in final.nodes:
        for k in wanted:
            if k in node.labels:
                values[k].add(node.labels[k])
    present = [k for k in wanted if values[k]]
    present.sort(key=lambda k: (len(values[k]), k not in (REGION, ZONE), k))
    return tuple(present[:MAX_LEVELS])


def _areas(nodes: list[NodeView], keys: tuple[str, ...]) -> tuple[Area, ...]:
    blocks: dict[tuple[str, ...], list[NodeView]] = {}
    for n in sorted(nodes, key=lambda n: (tuple((v == "", natural(v)) for v in n.path), natural(n.name))):
        blocks.setdefault(n.path, []).append(n)
    areas: dict[str, list[Block]] = {}
    for path, members in blocks.items():
        areas.setdefault(path[0] if path else "", []).append(Block(tuple(zip(keys, path)), tuple(members)))
    return tuple(Area(keys[0] if keys else "", value, tuple(bs)) for value, bs in areas.items())


# ---- nodes -----------------------------------------------------------------------------------------------------
def _devices(plan: Plan, final) -> dict[str, dict[str, list[int]]]:
    """Per node, per driver: [devices the plan's claims hold, devices its ResourceSlices publish]."""
    out: dict[str, dict[str, list[int]]] = {}
    where: dict[tuple[str, str, str], str] = {}
    for s in getattr(final, "dra_inputs", ()):
        node = getattr(getattr(s, "node", None), "node_name", None)
        if type(s).__name__ != "ResourceSlice" or not node:
            continue
        for d in s.devices:
            where[(s.driver, s.pool, d.name)] = node
            out.setdefault(node, {}).setdefault(s.driver, [0, 0])[1] += 1
    held = {(d.driver, d.pool, d.device) for c in plan.claims
            if c.status in (ClaimStatus.ALLOCATED, ClaimStatus.ALREADY_ALLOCATED) for d in c.devices}
    for driver, pool, device in held:
        node = where.get((driver, pool, device))
        if node is not None:
            out[node][driver][0] += 1
    return out


def _meters(usage, devices: dict[str, list[int]]) -> tuple[Meter, ...]:
    accelerators = [Meter(r, u, t, "accelerator") for r, u, t in usage if r not in _NOT_METERED | {CPU, MEMORY}]
    dra = [Meter(driver, u, t, "device") for driver, (u, t) in sorted(devices.items())]
    base = [Meter(r, u, t, r) for name in (CPU, MEMORY) for r, u, t in usage if r == name]
    return (*accelerators, *dra, *base)


def _fullness(meters: tuple[Meter, ...]) -> float:
    for m in meters:
        if m.kind in ("accelerator", "device"):
            return m.share
    return max((m.share for m in meters), default=0.0)


def _taint(t) -> str:
    return f"{t.key}={t.value}:{t.effect}" if t.value else f"{t.key}:{t.effect}"


# ---- who took what ---------------------------------------------------------------------------------------------
def _top_owner(pod: PodOutcome) -> tuple[str, str] | None:
    return (pod.owner.kind, f"{pod.namespace}/{pod.owner.name}") if pod.owner else None


def _entity_key(pod: PodOutcome, groups: set[str]) -> tuple[str, str]:
    """(selection key, label) of what a pod the plan binds belongs to, for colouring."""
    if pod.pod_group in groups:
        return f"pg:{pod.pod_group}", f"PodGroup {pod.pod_group}"
    owner = _top_owner(pod)
    if owner:
        return f"{owner[0].lower()}:{owner[1]}", f"{owner[0]} {owner[1]}"
    return "other", "pods outside any group or workload"


def _selection_keys(pod: PodOutcome, groups: set[str]) -> list[tuple[str, str, str]]:
    """(key, kind, label) of every selection the pod belongs to."""
    out = []
    if pod.pod_group in groups:
        out.append((f"pg:{pod.pod_group}", "PodGroup", pod.pod_group))
    if pod.owner:
        for o in (pod.owner, *pod.owner.chain):
            out.append((f"{o.kind.lower()}:{pod.namespace}/{o.name}", o.kind, f"{pod.namespace}/{o.name}"))
    out.append((f"ns:{pod.namespace}", "Namespace", pod.namespace))
    return out


def _unit(p: PodOutcome, groups) -> tuple[str, str]:
    """What a pending pod is reported under: its PodGroup, else its top-level owner, else itself."""
    if p.pod_group in groups:
        return ("PodGroup", p.pod_group)
    return _top_owner(p) or ("Pod", p.key)


def _pending(plan: Plan, run: Invocation) -> tuple[PendingEntry, ...]:
    groups = {g.key: g for g in plan.pod_groups}
    entries: dict[tuple[str, str], dict] = {}
    for g in plan.pod_groups:
        if g.status != GroupStatus.SCHEDULED:
            entries[("PodGroup", g.key)] = {"status": str(g.status), "message": g.message, "reasons": {}, "pods": 0,
                                            "first": None}
    for p in plan.pods:
        if p.status not in UNPLACED:
            continue
        entry = entries.setdefault(_unit(p, groups), {"status": str(p.status), "message": "", "reasons": {},
                                                      "pods": 0, "first": None})
        entry["pods"] += 1
        entry["first"] = entry["first"] or p.name
        reason = (str(p.status), p.message or p.reason)
        entry["reasons"][reason] = entry["reasons"].get(reason, 0) + 1
    out = []
    for (kind, key), e in entries.items():
        ns, _, name = key.partition("/")
        target = f"{_EXPLAIN_KINDS[kind]}/{name}" if kind in _EXPLAIN_KINDS else f"pod/{e['first']}"
        out.append(PendingEntry(kind, key, e["status"], e["message"], e["pods"],
                                tuple(Reason(s, m, n) for (s, m), n in e["reasons"].items()), run.explain(target, ns),
                                f"{'pg' if kind == 'PodGroup' else kind.lower()}:{key}"))
    return tuple(out)


def _diff_marks(diff: PlanDiff | None) -> dict[str, list[tuple[str, str]]]:
    """node -> [(effect, entry)] for every change that names a node (pods before and after, evictions, claims)."""
    out: dict[str, list[tuple[str, str]]] = {}
    if diff is None:
        return out
    for c in diff.changes:
        nodes = {side.get("node") for side in (c.before, c.after) if side and side.get("node")}
        for node in sorted(nodes):
            out.setdefault(node, []).append((c.effect, f"{c.kind} {c.key}: {c.message}"))
    return out


@dataclass
class _Tally:
    """Pods per node and per entity, gathered in one pass over the plan's pods."""

    entities: dict[str, list] = field(default_factory=dict)  # key -> [index, label, pods]
    on_node: dict[str, dict[str, int]] = field(default_factory=dict)  # node -> entity key -> bound pods
    running: dict[str, int] = field(default_factory=dict)  # node -> pods from the snapshot
    selections: dict[str, list] = field(default_factory=dict)  # key -> [kind, label, nodes set, pods]


def _tally(plan: Plan) -> _Tally:
    t = _Tally()
    groups = {g.key for g in plan.pod_groups}
    for g in plan.pod_groups:
        t.selections[f"pg:{g.key}"] = ["PodGroup", g.key, set(), 0]
    for g in plan.pod_groups:  # PodGroups keep their colours whatever order their pods bind in
        t.entities.setdefault(f"pg:{g.key}", [len(t.entities), f"PodGroup {g.key}", 0])
    for p in plan.pods:
        node = p.node if p.status in PLACED else p.nominated_node
        for key, kind, label in _selection_keys(p, groups):
            sel = t.selections.setdefault(key, [kind, label, set(), 0])
            sel[3] += 1
            if node:
                sel[2].add(node)
        if p.status == PodStatus.BOUND and p.node:
            key, label = _entity_key(p, groups)
            entity = t.entities.setdefault(key, [len(t.entities), label, 0])
            entity[2] += 1
            counts = t.on_node.setdefault(p.node, {})
            counts[key] = counts.get(key, 0) + 1
        elif p.status == PodStatus.ALREADY_BOUND and p.node:
            t.running[p.node] = t.running.get(p.node, 0) + 1
    if t.running:
        t.entities[RUNNING] = [len(t.entities), "running before the plan", sum(t.running.values())]
    return t


def _pod_selections(plan: Plan, t: _Tally) -> None:
    """Plain pods are selectable when they preempt or are reported pending on their own."""
    wanted = {f"{p.preemptor_namespace}/{p.preemptor_name}" for p in plan.preemptions if p.preemptor_kind == "Pod"}
    groups = {g.key for g in plan.pod_groups}
    for p in plan.pods:
        if p.key in wanted or (p.status in UNPLACED and _unit(p, groups)[0] == "Pod"):
            node = p.node if p.status in PLACED else p.nominated_node
            t.selections[f"pod:{p.key}"] = ["Pod", p.key, {node} if node else set(), 1]


def _composite_selections(plan: Plan, t: _Tally) -> None:
    """A CompositePodGroup selects the nodes of the PodGroups (and composites) under it."""
    children: dict[str, list[str]] = {}
    for c in plan.composites:
        for child in c.children:
            prefix = "cpg" if child.kind == "CompositePodGroup" else "pg"
            children.setdefault(c.key, []).append(f"{prefix}:{c.namespace}/{child.name}")

    def nodes_of(key: str, seen: set[str]) -> tuple[set[str], int]:
        if key.startswith("pg:"):
            sel = t.selections.get(key)
            return (set(sel[2]), sel[3]) if sel else (set(), 0)
        nodes, pods = set(), 0
        for child in children.get(key[4:], ()):
            if child not in seen:
                seen.add(child)
                n, c = nodes_of(child, seen)
                nodes, pods = nodes | n, pods + c
        return nodes, pods

    for c in plan.composites:
        nodes, pods = nodes_of(f"cpg:{c.key}", set())
        t.selections[f"cpg:{c.key}"] = ["CompositePodGroup", c.key, nodes, pods]


def _victims(plan: Plan) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for p in plan.preemptions:
        for v in p.victims:
            out.setdefault(v.node, []).append(f"{v.namespace}/{v.name} (priority {v.priority}) evicted by "
                                              f"{p.preemptor_kind} {p.preemptor_namespace}/{p.preemptor_name}")
    return out


def _node_views(plan: Plan, final, keys: tuple[str, ...], t: _Tally, diff: PlanDiff | None) -> list[NodeView]:
    devices, victims, marks = _devices(plan, final), _victims(plan), _diff_marks(diff)
    usage = final.usage
    labels = {key: e[1] for key, e in t.entities.items()}
    out = []
    for i, node in enumerate(final.nodes):
        counts = t.on_node.get(node.name, {})
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], t.entities[kv[0]][0]))
        owner = ranked[0][0] if ranked else (RUNNING if node.name in t.running else None)
        pods = [(labels[k], n) for k, n in ranked]
        if node.name in t.running:
            pods.append((labels[RUNNING], t.running[node.name]))
        meters = _meters(usage.get(node.name, ()), devices.get(node.name, {}))
        changes = marks.get(node.name, [])
        out.append(NodeView(i, node.name, tuple(node.labels.get(k, "") for k in keys), meters, _fullness(meters),
                            tuple(_taint(x) for x in node.taints), node.unschedulable,
                            t.entities[owner][0] if owner else None, tuple(pods), tuple(victims.get(node.name, ())),
                            tuple(e for _, e in changes),
                            min((e for e, _ in changes), key=_EFFECT_RANK.__getitem__) if changes else None))
    return out


def _group_rows(plan: Plan, t: _Tally) -> tuple[GroupRow, ...]:
    by_key = {p.key: p for p in plan.pods}
    rows = []
    for g in plan.pod_groups:
        members = [by_key[k] for k in g.pods if k in by_key]
        placed = sorted({m.node for m in members if m.status in PLACED and m.node}, key=natural)
        where = f"{g.placement.topology_key}={g.placement.domain}" if g.placement else ""
        entity = t.entities.get(f"pg:{g.key}")
        rows.append(GroupRow(g.key, g.policy, g.min_count,
                             sum(1 for m in members if m.status in PLACED), len(members), g.status, where,
                             tuple(placed), g.message, f"pg:{g.key}", entity[0] if entity and entity[2] else None))
    return tuple(rows)


def build_view(plan: Plan, final, diff: PlanDiff | None = None, run: Invocation = Invocation()) -> PlanView:
    keys = topology_keys(plan, final)
    t = _tally(plan)
    _composite_selections(plan, t)
    _pod_selections(plan, t)
    nodes = _node_views(plan, final, keys, t, diff)
    index = {n.name: n.index for n in nodes}
    entities = tuple(Entity(i, key, label, pods) for key, (i, label, pods) in
                     sorted(t.entities.items(), key=lambda kv: kv[1][0]))
    order = {"PodGroup": 0, "CompositePodGroup": 1, "Namespace": 3}
    selections = tuple(Selection(key, kind, label, tuple(sorted(index[n] for n in ns if n in index)), pods)
                       for key, (kind, label, ns, pods) in
                       sorted(t.selections.items(), key=lambda kv: (order.get(kv[1][0], 2), kv[1][0], kv[1][1])))
    preemptions = tuple(PreemptionView(f"{p.preemptor_kind} {p.preemptor_namespace}/{p.preemptor_name}",
                                       f"{'pg' if p.preemptor_kind == 'PodGroup' else 'pod'}:"
                                       f"{p.preemptor_namespace}/{p.preemptor_name}",
                                       tuple((f"{v.namespace}/{v.name}", v.node, v.priority, v.pod_group)
                                             for v in p.victims)) for p in plan.preemptions)
    return PlanView(plan, keys, _areas(nodes, keys), tuple(nodes), entities, selections,
                    _group_rows(plan, t), _pending(plan, run), preemptions, diff)
