"""Where nodes sit and how full they are, for the PlanView: the topology keys to group nodes by (coarsest first),
the areas and blocks of the map, and each node's meters (accelerators, DRA devices per driver, cpu, memory) with
its fullness. The rules are in wasplan/planview/__init__.py."""

from __future__ import annotations

from wasplan.plan import ClaimStatus, Plan
from wasplan.planview.model import Area, Block, Meter, NodeView
from wasplan.words import natural_key

REGION, ZONE, HOSTNAME = "topology.kubernetes.io/region", "topology.kubernetes.io/zone", "kubernetes.io/hostname"
MAX_LEVELS = 3
CPU, MEMORY = "cpu", "memory"
_NOT_METERED = frozenset({"pods", "ephemeral-storage"})


natural = natural_key  # gpu-2 before gpu-10 (words.py: the one natural order)


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


def areas(nodes: list[NodeView], keys: tuple[str, ...]) -> tuple[Area, ...]:
    blocks: dict[tuple[str, ...], list[NodeView]] = {}
    for n in sorted(nodes, key=lambda n: (tuple((v == "", natural(v)) for v in n.path), natural(n.name))):
        blocks.setdefault(n.path, []).append(n)
    areas: dict[str, list[Block]] = {}
    for path, members in blocks.items():
        areas.setdefault(path[0] if path else "", []).append(Block(tuple(zip(keys, path)), tuple(members)))
    return tuple(Area(keys[0] if keys else "", value, tuple(bs)) for value, bs in areas.items())


def devices_per_node(plan: Plan, final) -> dict[str, dict[str, list[int]]]:
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


def meters(usage, devices: dict[str, list[int]]) -> tuple[Meter, ...]:
    accelerators = [Meter(r, u, t, "accelerator") for r, u, t in usage if r not in _NOT_METERED | {CPU, MEMORY}]
    dra = [Meter(driver, u, t, "device") for driver, (u, t) in sorted(devices.items())]
    base = [Meter(r, u, t, r) for name in (CPU, MEMORY) for r, u, t in usage if r == name]
    return (*accelerators, *dra, *base)


def fullness(meters: tuple[Meter, ...]) -> float:
    for m in meters:
        if m.kind in ("accelerator", "device"):
            return m.share
    return max((m.share for m in meters), default=0.0)


def taint_text(t) -> str:
    return f"{t.key}={t.value}:{t.effect}" if t.value else f"{t.key}:{t.effect}"
