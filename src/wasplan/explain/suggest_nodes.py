"""The fewest nodes to add, of an existing node shape (or `--node-shape`), for the target to fit.

The shape: the most common node shape (allocatable, taints, labels other than the hostname) among nodes the
failing pod may use apart from resources, whose empty node takes at least one such pod. An empty node is never
quite empty: the DaemonSets whose pods run on the template node in the snapshot (its pods owned by a DaemonSet)
run theirs on every new node too, so their requests are taken off the room a new node offers, and the
verification re-run places copies of them on each added node (kindnet's 100m leaves a 4-CPU kind node 3.9 CPU). For a group with a
topology constraint the new nodes join the domain where the trial placed the most members. The count is found
by bisection over full engine re-runs, bracketed by a capacity estimate: n pending pods need at most n empty
nodes, so the search runs O(log n) simulations, not one per count (two when the estimate is right).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from wasplan.cluster.model import Node, Pod
from wasplan.explain import devices, manifest, probe, rerun, units
from wasplan.explain.evidence import Context, Subject
from wasplan.explain.model import Suggestion
from wasplan.explain.suggest_requests import quantity
from wasplan.words import plural

SKIP_LABELS = ("kubernetes.io/hostname",)


def _signature(node: Node, published: dict[str, int]) -> tuple:
    labels = tuple(sorted((k, v) for k, v in node.labels.items() if k not in SKIP_LABELS))
    return (tuple(sorted(node.allocatable.items())), node.taints, labels, published.get(node.name, 0))


def _room(ctx: Context, node: Node) -> dict[str, int]:
    """What a new node of this shape offers pods: its allocatable less its DaemonSet pods' requests."""
    room = dict(node.allocatable)
    for pod in ctx.daemon_pods(node.name):
        for r, amount in pod.requests.items():
            room[r] = room.get(r, 0) - amount
    return room


def _takes(room: dict[str, int], pods: list[Pod]) -> bool:
    """Whether a new node with this room has space for one of each failing pod."""
    return all(room.get(r, 0) >= amount for pod in pods for r, amount in pod.requests.items()
               if r != "pods" and amount > 0)


def _failing(subj: Subject) -> list[Pod]:
    """The pod shapes that found no node; for a group held back from outside (its composite tree), its first
    pending pod stands for them."""
    return [f.pod for f in subj.trial.failures.values()] or subj.pending[:1]


def _templates(ctx: Context, subj: Subject) -> list[Node]:
    failing = _failing(subj)
    if ctx.node_shapes:
        return [n for n in ctx.node_shapes if _takes(n.allocatable, failing)]
    if any(ctx.evaluator(pod) is None for pod in failing):
        return []  # a pod for a scheduler without a profile: no node shape would be tried for it
    ok = np.ones(len(ctx.sim.state.nodes), dtype=bool)
    claims = any(devices.request_items(ctx, pod) for pod in failing)
    for pod in failing:  # a pod with claims: its devices are what the new nodes bring, so DynamicResources waits
        verdicts = probe.now(ctx.evaluator(pod), pod)
        ok &= devices.other_filters(verdicts, resources=False) if claims else probe.eligible(verdicts)
    nodes = [n for n, good in zip(ctx.sim.state.nodes, ok.tolist()) if good and _takes(_room(ctx, n), failing)]
    by_node = rerun.node_slices(ctx.inputs) if claims else {}
    published = {name: sum(len(s.devices) for s in slices) for name, slices in by_node.items()}
    if any(published.get(n.name) for n in nodes):  # devices of their own: the shape the claims need
        nodes = [n for n in nodes if published.get(n.name)]
    common = Counter(_signature(n, published) for n in nodes).most_common()
    firsts = {}
    for n in nodes:
        firsts.setdefault(_signature(n, published), n)
    return [firsts[sig] for sig, _ in common[:1]]


def _domain_labels(ctx: Context, subj: Subject, template: Node) -> tuple[dict[str, str], str | None]:
    """The template's labels, moved into the best domain of the group's topology constraint."""
    labels = dict(template.labels)
    gs = subj.group
    if gs is None or not gs.pg.topology_keys:
        return labels, None
    key = gs.pg.topology_keys[0]
    topo = subj.topology
    if topo is None or not topo.domains:
        return labels, None
    domain = topo.domains[0].domain
    labels[key] = domain
    return labels, f"{key}={domain}"


def _variant(ctx: Context, template: Node, labels: dict[str, str], count: int):
    """The inputs with `count` copies of the template node, each with copies of its own ResourceSlices and of
    the DaemonSet pods running on it."""
    names = [rerun.added_name(template.name, i) for i in range(count)]
    nodes = [rerun.clone_node(template, name, labels) for name in names]
    slices = rerun.node_slices(ctx.inputs).get(template.name, [])
    copies = [s for name in names for s in rerun.clone_slices(slices, template.name, name)]
    daemons = ctx.daemon_pods(template.name)
    pods = [p for name in names for p in rerun.clone_daemon_pods(daemons, name)]
    return rerun.with_nodes(ctx.inputs, [*nodes, *copies, *pods])


def _per_node(room: dict[str, int], pods: list[Pod]) -> int:
    """How many of the failing pods one new node with this room holds (the tightest resource)."""
    fits = [room.get(r, 0) // amount for pod in pods for r, amount in pod.requests.items()
            if amount > 0 and r != "pods"]
    return max(min(fits, default=1), 1)


def _bisect(ctx: Context, subj: Subject, template: Node, labels: dict[str, str]) -> int | None:
    """The fewest nodes that make the re-run place the target. The first guess is the capacity estimate
    (missing pods / pods per node); the guess is doubled up to one node per pending pod until a run succeeds,
    then the bracket below it is bisected, so a good guess costs two runs."""
    places = lambda n: ctx.verifier.places(subj.unit, _variant(ctx, template, labels, n))  # noqa: E731
    missing = max(subj.min_count - subj.placeable, 1)
    failing = _failing(subj)
    limit = len(subj.pending)
    room = template.allocatable if ctx.node_shapes else _room(ctx, template)
    lo, hi = 0, min(-(-missing // _per_node(room, failing)), limit)
    while not places(hi):
        if hi >= limit:
            return None
        lo, hi = hi, min(hi * 2, limit)
    if hi - lo > 1 and not places(hi - 1):  # the estimate was tight
        return hi
    hi = hi - 1 if hi - lo > 1 else hi
    _, hi = rerun.narrow(lo, hi, lambda n: not places(n))
    return hi


def _daemon_text(ctx: Context, template: Node) -> str:
    """`; its DaemonSet pods kindnet-x7k2p, kube-proxy-2m5lw take cpu: 0.1, memory: 0Gi` (nothing without any)."""
    if ctx.node_shapes:
        return ""
    daemons = ctx.daemon_pods(template.name)
    if not daemons:
        return ""
    taken: dict[str, int] = {}
    for pod in daemons:
        for r, amount in pod.requests.items():
            if r != "pods":
                taken[r] = taken.get(r, 0) + amount
    names = ", ".join(p.name for p in daemons)
    amounts = ", ".join(f"{r}: {quantity(r, v)}" for r, v in sorted(taken.items()) if v) or "nothing"
    return f"; its DaemonSet {'pod' if len(daemons) == 1 else 'pods'} {names}, run on every new node too, take {amounts}"


def add_nodes(ctx: Context, subj: Subject) -> Suggestion | None:
    if not subj.pending or subj.trial is None:
        return None
    for template in _templates(ctx, subj):
        labels, domain = _domain_labels(ctx, subj, template)
        count = _bisect(ctx, subj, template, labels)
        if count is None:
            continue
        where = f" in {domain}" if domain else ""
        slices = tuple(rerun.node_slices(ctx.inputs).get(template.name, []))
        change = manifest.node_addition(template, count, {k: v for k, v in labels.items()
                                                          if domain and k == domain.split("=")[0]},
                                         external=bool(ctx.node_shapes), slices=slices)
        daemons = _daemon_text(ctx, template)
        alloc = units.resources(template.allocatable) + daemons
        node = f"{'a new' if daemons else 'an empty'} node like {template.name} ({alloc})"
        why = (f"{node} takes at least one more pod; with {count - 1} the engine still leaves the target pending"
               if count > 1 else f"{node} takes the missing pod(s)")
        title = f"add {plural(count, 'node')} like {template.name}{where}"
        title += " with their ResourceSlices" if slices else ""
        if ctx.node_shapes:
            title += f" (pool from {change.file}, given with --cluster)"
        return Suggestion("addNodes", title, why, (change,))
    return None
