"""Bounds a person can check by hand, stated beside the solver's verdict (the records, Bound and Proof, are
result.py's).

The solver's "no assignment" is a search result; these are the arithmetic behind it, each an upper bound on
every assignment: per pod shape, how many pods the nodes could hold one node at a time (each node's free room
divided by the pod's request, nodes the filters reject counting 0); per requested resource (and per DRA device
set and shared counter, devices.py), the free amount on nodes that can take at least one pod of the group
against what the cheapest pods still needed request together. With a topology constraint the bounds are taken
per domain and the best domain is shown. When no single bound falls short, the shortfall comes from combining
pods on nodes, which only the search shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from wasplan.explain.exact.result import Bound, Proof

if TYPE_CHECKING:
    from wasplan.explain.exact.capacity import Capacity
    from wasplan.explain.exact.shapes import Shape


def bounds(shapes: list[Shape], caps: np.ndarray, free: np.ndarray, cap: Capacity, needed: int,
           rows: np.ndarray) -> tuple[Bound, ...]:
    """The bounds over the node rows `rows` (a bool mask). Variants of one family (the same pods with other
    firstAvailable choices) count as one: a node holds at most the sum of what it holds of each."""
    out = []
    for family, members in _families(shapes).items():
        s = shapes[members[0]]
        held = np.minimum(caps[members].sum(axis=0)[rows], s.count).sum()
        out.append(Bound("pods", s.pod.key, int(held), min(s.count, needed)))
    usable = rows & caps.any(axis=0)
    stranded = rows & ~usable & np.any([s.allowed for s in shapes], axis=0)
    kinds = cap.kinds or ("resource",) * len(cap.names)
    totals = dict(cap.totals)  # network-attached devices: each counted once for the whole cluster
    for c, (name, kind) in enumerate(zip(cap.names, kinds)):
        if name == "pods" or not cap.requests[:, c].any():
            continue
        room = np.maximum(free[:, c], 0)
        available = min(int(room[usable].sum()), totals.get(c, int(room[usable].sum())))
        out.append(Bound(kind, name, available, _cheapest(shapes, cap.requests[:, c], needed),
                         int(room[stranded].sum())))
    return tuple(out)


def _families(shapes: list[Shape]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for i, s in enumerate(shapes):
        out.setdefault(s.family if s.family >= 0 else -1 - i, []).append(i)
    return out


def _cheapest(shapes: list[Shape], per_pod: np.ndarray, needed: int) -> int:
    """What the `needed` pods with the smallest request of this column ask for together (each family's pods
    counted once, at their cheapest variant)."""
    least = {}
    for family, members in _families(shapes).items():
        least[family] = (int(per_pod[members].min()), shapes[members[0]].count)
    total, left = 0, needed
    for amount, count in sorted(least.values()):
        take = min(count, left)
        total += take * amount
        left -= take
    return total


def proof(shapes: list[Shape], caps: np.ndarray, free: np.ndarray, cap: Capacity, needed: int,
          codes: np.ndarray | None, domains: list[str] | None) -> Proof:
    allowed = np.any([s.allowed for s in shapes], axis=0)
    if codes is None or not domains:
        every = np.ones(len(free), dtype=bool)
        return Proof(None, bounds(shapes, caps, free, cap, needed, every), 0, int(allowed.sum()))
    used = sorted(set(codes[codes >= 0].tolist()))  # the domains the group may use (pinned: just one)
    per = {j: bounds(shapes, caps, free, cap, needed, codes == j) for j in used}
    if not per:
        return Proof(None, (), 0, 0)
    pods = {j: sum(b.available for b in bs if b.kind == "pods") for j, bs in per.items()}
    best = min(used, key=lambda j: (-pods[j], domains[j]))
    return Proof(domains[best], per[best], len(used) - 1, int((allowed & (codes == best)).sum()))
