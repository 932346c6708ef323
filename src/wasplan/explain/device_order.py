"""The greedy-order check: kube-scheduler allocates each pod's devices first-fit and never reconsiders them
for a later pod (kubernetes/kubernetes#138765; dra.md §7), so a gang can stay pending although another
assignment of devices would hold every member.

Per node the plan's own allocator (`engine/dra` `Allocator.allocate`) is asked twice: one pod at a time, each
pod's devices entered in the `InUseLedger` before the next pod is asked (the scheduler's way, given back exactly
afterwards), and all pods' claims in one `allocate` call, where the search backtracks across claims. More pods
together than one at a time, with the sum over nodes reaching what the group needs, names the case. Nodes are
added up, so only node-local devices qualify (a network-attached device would count on every node it reaches);
the proof over all nodes and pods together is the exact check's (explain/exact).
"""

from __future__ import annotations

from wasplan.cluster.devices import ResourceClaim
from wasplan.engine.facade import AllocationError, DRA, NodeUnschedulable
from wasplan.explain import probe
from wasplan.explain.devices_model import GreedyOrder, NodeOrder

MAX_ORDER_NODES = 64  # nodes asked about (two searches each)


def _allocate(allocator, node, claims: list[ResourceClaim]):
    try:
        return allocator.allocate(node, claims)
    except (AllocationError, NodeUnschedulable):
        return None


def unique(claims) -> list[ResourceClaim]:
    return list({c.key: c for c in claims}.values())


def _on_node(allocator, node, per_pod: list[list[ResourceClaim]], limit: int) -> NodeOrder:
    """Pods whose claims fit on `node` one at a time (each pod's devices taken before the next is asked), and
    in one search for all of them; the ledger is given back exactly."""
    ledger, taken, done, in_order = allocator.ledger, [], set(), 0
    try:
        for claims in per_pod[:limit]:
            todo = [c for c in claims if c.key not in done]
            found = _allocate(allocator, node, todo) if todo else None
            if todo and found is None:
                break
            for a in (found.allocations if found else ()):
                ledger.add(a.results)
                taken.append(a.results)
            done.update(c.key for c in todo)
            in_order += 1
    finally:
        for results in reversed(taken):
            ledger.remove(results)
    together = in_order
    for j in range(in_order + 1, limit + 1):
        if _allocate(allocator, node, unique(c for claims in per_pod[:j] for c in claims)) is None:
            break
        together = j
    return NodeOrder(node.name, in_order, together)


def _room(before: probe.Failure, pod, resources: tuple[str, ...], row: int) -> int:
    """How many such pods the node's free resources hold (apart from devices)."""
    counts = [int(before.free[row, resources.index(r)]) // amount for r, amount in pod.requests.items()
              if amount > 0 and r != "pods" and r in resources]
    return max(min(counts, default=1), 0)


def order(ctx, subj, before: probe.Failure, rows: list[int], needed: int) -> GreedyOrder | None:
    dra = ctx.sim.state.plugins.get(DRA)
    allocator, nodes = dra.store.allocator, ctx.sim.state.nodes
    if allocator.index.shared or needed < 2:
        return None  # network-attached devices are reachable from many nodes: per-node counts do not add up
    per_pod = [claims for p in subj.pending if (claims := [s.claim for s in dra.to_allocate(p)])]
    limit = min(needed, len(per_pod))
    if limit < 2:
        return None
    found = []
    for row in sorted(rows, key=lambda r: nodes[r].name)[:MAX_ORDER_NODES]:
        room = min(limit, _room(before, before.pod, ctx.sim.state.resources, row))
        if room:
            found.append(_on_node(allocator, nodes[row], per_pod, room))
    in_order = min(sum(n.in_order for n in found), needed)
    together = min(sum(n.together for n in found), needed)
    return GreedyOrder(needed, in_order, together, tuple(n for n in found if n.together > n.in_order))
