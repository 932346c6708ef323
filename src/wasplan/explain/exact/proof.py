"""Bounds a person can check by hand, stated beside the solver's verdict.

The solver's "no assignment" is a search result; these are the arithmetic behind it, each an upper bound on
every assignment: per pod shape, how many pods the nodes could hold one node at a time (each node's free room
divided by the pod's request, nodes the filters reject counting 0); per requested resource, the free amount on
nodes that can take at least one pod of the group against what the cheapest pods still needed request
together. With a topology constraint the bounds are taken per domain and the best domain is shown. When no
single bound falls short, the shortfall comes from combining pods on nodes, which only the search shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from wasplan.explain.exact.shapes import Shape


@dataclass(frozen=True, slots=True)
class Bound:
    kind: str  # pods | resource
    subject: str  # the shape's first pod, or the resource name
    available: int  # pods the nodes hold one by one, or free units on nodes that can take a pod
    needed: int
    stranded: int = 0  # free units on nodes the filters allow that cannot take even one pod

    @property
    def short(self) -> bool:
        return self.available < self.needed

    def to_dict(self) -> dict:
        return {"kind": self.kind, "subject": self.subject, "available": self.available, "needed": self.needed,
                "stranded": self.stranded, "short": self.short}


@dataclass(frozen=True, slots=True)
class Proof:
    domain: str | None  # the best topology domain, None without a constraint
    bounds: tuple[Bound, ...]
    other_domains: int = 0  # domains that hold fewer pods by the same bounds
    allowed_nodes: int = 0  # nodes (in the domain) whose filters accept some pod of the group, room aside

    def to_dict(self) -> dict:
        return {"domain": self.domain, "otherDomains": self.other_domains, "allowedNodes": self.allowed_nodes,
                "bounds": [b.to_dict() for b in self.bounds]}


def bounds(shapes: list[Shape], caps: np.ndarray, free: np.ndarray, columns: tuple[str, ...], requests: np.ndarray,
           needed: int, rows: np.ndarray) -> tuple[Bound, ...]:
    """The bounds over the node rows `rows` (a bool mask)."""
    out = [Bound("pods", s.pod.key, int(np.minimum(caps[i][rows], s.count).sum()), min(s.count, needed))
           for i, s in enumerate(shapes)]
    usable = rows & caps.any(axis=0)
    stranded = rows & ~usable & np.any([s.allowed for s in shapes], axis=0)
    for c, name in enumerate(columns):
        if name == "pods" or not requests[:, c].any():
            continue
        room = np.maximum(free[:, c], 0)
        out.append(Bound("resource", name, int(room[usable].sum()), _cheapest(shapes, requests[:, c], needed),
                         int(room[stranded].sum())))
    return tuple(out)


def _cheapest(shapes: list[Shape], per_pod: np.ndarray, needed: int) -> int:
    """What the `needed` pods with the smallest request of this resource ask for together."""
    total, left = 0, needed
    for i in np.argsort(per_pod, kind="stable"):
        take = min(shapes[i].count, left)
        total += take * int(per_pod[i])
        left -= take
    return total


def proof(shapes: list[Shape], caps: np.ndarray, free: np.ndarray, columns: tuple[str, ...], requests: np.ndarray,
          needed: int, codes: np.ndarray | None, domains: list[str] | None) -> Proof:
    allowed = np.any([s.allowed for s in shapes], axis=0)
    if codes is None or not domains:
        every = np.ones(len(free), dtype=bool)
        return Proof(None, bounds(shapes, caps, free, columns, requests, needed, every), 0, int(allowed.sum()))
    used = sorted(set(codes[codes >= 0].tolist()))  # the domains the group may use (pinned: just one)
    per = {j: bounds(shapes, caps, free, columns, requests, needed, codes == j) for j in used}
    if not per:
        return Proof(None, (), 0, 0)
    pods = {j: sum(b.available for b in bs if b.kind == "pods") for j, bs in per.items()}
    best = min(used, key=lambda j: (-pods[j], domains[j]))
    return Proof(domains[best], per[best], len(used) - 1, int((allowed & (codes == best)).sum()))
