"""Builds the PlanView in one pass over the plan's pods: who took each node (entities), the selections, the
pending entries with their explain commands, victims and diff marks per node. The rules are in
wasplan/planview/__init__.py."""

from __future__ import annotations

from dataclasses import dataclass, field

from wasplan.plan import PLACED, UNPLACED, ClaimStatus, GroupStatus, Plan, PodOutcome, PodStatus
from wasplan.plandiff import IMPROVEMENT, NEUTRAL, REGRESSION, PlanDiff
from wasplan.planview.model import (ClaimRow, Entity, GroupRow, Invocation, NodeClaims, NodeView, PendingEntry,
                                    PlanView, PreemptionView, Reason, Selection)
from wasplan.planview.topology import areas, devices_per_node, fullness, meters, natural, taint_text, topology_keys

# explain's TARGET kinds for the owners a plan expands (explain/target.py KINDS)
_EXPLAIN_KINDS = {"PodGroup": "podgroup", "Job": "job", "JobSet": "jobset", "LeaderWorkerSet": "lws",
                  "Deployment": "deployment", "StatefulSet": "statefulset", "ReplicaSet": "replicaset", "Pod": "pod"}
_EFFECT_RANK = {REGRESSION: 0, IMPROVEMENT: 1, NEUTRAL: 2}
RUNNING = "running"  # the entity key of pods the snapshot already ran


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
    """Per node, its victims in natural order of their names."""
    out: dict[str, list[tuple[tuple, str]]] = {}
    for p in plan.preemptions:
        for v in p.victims:
            out.setdefault(v.node, []).append((natural(f"{v.namespace}/{v.name}"),
                                               f"{v.namespace}/{v.name} (priority {v.priority}) evicted by "
                                               f"{p.preemptor_kind} {p.preemptor_namespace}/{p.preemptor_name}"))
    return {node: [text for _, text in sorted(entries)] for node, entries in out.items()}


def _claim_row(c) -> ClaimRow:
    devices = sorted((f"{d.driver}/{d.pool}/{d.device}" for d in c.devices), key=natural)
    users = tuple(f"{u.kind} {u.namespace}/{u.name}" for u in c.reserved_for)
    return ClaimRow(f"{c.namespace}/{c.name}", str(c.status), tuple(devices), users, c.message)


def _claims(plan: Plan) -> tuple[tuple[NodeClaims, ...], tuple[ClaimRow, ...]]:
    """The allocated claims per node (which claim holds which device), nodes in natural order, claims that are
    not node-local last; and the pending claims with their reasons."""
    placed: dict[str | None, list[ClaimRow]] = {}
    pending = []
    for c in sorted(plan.claims, key=lambda c: natural(f"{c.namespace}/{c.name}")):
        if c.status == ClaimStatus.PENDING:
            pending.append(_claim_row(c))
        else:
            placed.setdefault(c.node, []).append(_claim_row(c))
    order = sorted(placed, key=lambda n: (n is None, natural(n or "")))
    return tuple(NodeClaims(n, tuple(placed[n])) for n in order), tuple(pending)


def _node_views(plan: Plan, final, keys: tuple[str, ...], t: _Tally, diff: PlanDiff | None) -> list[NodeView]:
    devices, victims, marks = devices_per_node(plan, final), _victims(plan), _diff_marks(diff)
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
        gauges = meters(usage.get(node.name, ()), devices.get(node.name, {}))
        changes = marks.get(node.name, [])
        out.append(NodeView(i, node.name, tuple(node.labels.get(k, "") for k in keys), gauges, fullness(gauges),
                            tuple(taint_text(x) for x in node.taints), node.unschedulable,
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
                                       tuple(sorted(((f"{v.namespace}/{v.name}", v.node, v.priority, v.pod_group)
                                                     for v in p.victims), key=lambda v: natural(v[0]))))
                        for p in plan.preemptions)
    by_node, pending_claims = _claims(plan)
    return PlanView(plan, keys, areas(nodes, keys), tuple(nodes), entities, selections,
                    _group_rows(plan, t), _pending(plan, run), preemptions, diff, by_node, pending_claims)
