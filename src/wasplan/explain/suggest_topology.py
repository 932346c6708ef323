"""Relaxing a PodGroup's topology constraint: the same gang kept within one zone instead of one rack.

Candidate keys are topology labels (zone, region, block, ... or any key with "topology" in it) with fewer
domains than the current key whose domain around the best current domain contains all of it (rack-1 lies in
zone-a), tried from the finest; each is verified by a re-run with the
group's `topology[0].key` replaced. Only offered when the plan honours the constraint (otherwise it is not
what blocks the group).
"""

from __future__ import annotations

import dataclasses

from wasplan.cluster.model import Group, Node
from wasplan.explain import manifest, rerun
from wasplan.explain.evidence import Context, Subject
from wasplan.explain.model import Change, Suggestion
from wasplan.words import plural

MAX_KEYS = 3
SKIP = ("kubernetes.io/hostname", "wasplan.io/node-pool")
TOPOLOGY_NAMES = ("zone", "region", "rack", "block", "spine", "pod", "superpod", "row", "hall")


def _topological(key: str) -> bool:
    """Labels that name a place in the network or the datacenter, not a product or a pool."""
    return "topology" in key or key.rsplit("/", 1)[-1] in TOPOLOGY_NAMES


def coarser_keys(nodes: list[Node], key: str, domain: str) -> list[tuple[str, int]]:
    """(label key, number of domains) of topology labels with fewer domains than `key` whose domain around
    `domain` contains all of it (every node of rack-1 is in zone-a), finest first."""
    inside = [n for n in nodes if n.labels.get(key) == domain]
    finer = len({n.labels[key] for n in nodes if key in n.labels})
    out = []
    for other in sorted({k for n in inside for k in n.labels} - {key, *SKIP}):
        if not _topological(other) or len({n.labels.get(other) for n in inside}) != 1:
            continue
        domains = len({n.labels[other] for n in nodes if other in n.labels})
        if domains < finer:
            out.append((other, domains))
    return sorted(out, key=lambda kd: (-kd[1], kd[0]))[:MAX_KEYS]


def _with_key(group: Group, key: str) -> Group:
    pg = group.obj
    return dataclasses.replace(group, obj=dataclasses.replace(pg, topology_keys=(key, *pg.topology_keys[1:])))


def _change(ctx: Context, group: Group, key: str) -> Change:
    path = ("spec", "schedulingConstraints", "topology", 0, "key")
    if group.source is not None:
        return manifest.change("set", group.source, path, key)
    ref = group.obj.workload_ref
    doc = manifest.job_document(ctx.documents, group.namespace, ref.workload_name) if ref is not None else None
    return manifest.change("set", doc, ("spec", "scheduling", *path[1:]), key,
                            f"Job/{group.namespace}/{ref.workload_name}" if ref is not None else None)


def _opens(ctx: Context, key: str, domain: str, other: str) -> int:
    """Nodes the coarser domain around the best domain adds to it."""
    nodes = ctx.sim.state.nodes
    inside = [n for n in nodes if n.labels.get(key) == domain]
    wider = inside[0].labels.get(other) if inside else None
    return sum(1 for n in nodes if n.labels.get(other) == wider) - len(inside)


def relax(ctx: Context, subj: Subject) -> Suggestion | None:
    topo = subj.topology
    if topo is None or not topo.honoured or subj.group is None:
        return None
    group = subj.group.record
    if not topo.domains:
        return None
    for other, domains in coarser_keys(ctx.sim.state.nodes, topo.key, topo.domains[0].domain):
        variant = rerun.with_group(ctx.inputs, subj.unit.key, lambda g, k=other: _with_key(g, k))
        if ctx.verifier.places(subj.unit, variant):
            best = topo.domains[0]
            wider = next(n.labels[other] for n in ctx.sim.state.nodes if n.labels.get(topo.key) == best.domain)
            why = (f"no {topo.key} domain holds {plural(subj.min_count, 'pod')} (the best, {best.domain}, holds "
                   f"{best.placeable}); {other}={wider} contains {best.domain} and more nodes")
            return Suggestion("topology", f"keep the group within one {other} instead of one {topo.key}", why,
                              (_change(ctx, group, other),), _opens(ctx, topo.key, best.domain, other))
    return None
