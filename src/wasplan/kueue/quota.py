"""The quota tree: ClusterQueues under (hierarchical) Cohorts, with nominal quotas, borrowing and lending limits,
and usage per (flavor, resource).

Upstream: KDIR/pkg/cache/scheduler/resource_node.go (`SubtreeQuota`, `localQuota` = what a lending limit keeps
back, `available`, `potentialAvailable`, `addUsage`/`removeUsage` pushing what exceeds the local quota up to the
parent, `QuantitiesFitInQuota`, `IsWithinNominalInResources`), clusterqueue_snapshot.go (`Available`,
`BorrowingWith` against the nominal quota, `Fits`) and cohort_snapshot.go (a cohort borrows when its usage exceeds
its subtree quota). A Cohort named by a ClusterQueue but not defined is an implicit cohort with no quota of its
own (KDIR/pkg/cache/hierarchy).

One tree is kept for the whole run; a cycle saves its nodes' usage maps (a few entries per node) and restores them
at its end, replaying the cycle's admissions, as Kueue's per-cycle snapshot and cache would differ (a reservation
can be negative, and what propagates to a parent depends on the usage already there). Usage maps are dicts keyed
by (flavor, resource).
"""

from __future__ import annotations

from .model import FR, ClusterQueue, Cohort, ResourceQuota

_NO_QUOTA = ResourceQuota(0)


class Node:
    __slots__ = ("name", "parent", "child_cqs", "child_cohorts", "quotas", "subtree", "usage", "cq", "_height",
                 "_potential")

    def __init__(self, name: str, quotas: dict[FR, ResourceQuota], cq: ClusterQueue | None = None) -> None:
        self.name = name
        self.parent: Node | None = None
        self.child_cqs: list[Node] = []
        self.child_cohorts: list[Node] = []
        self.quotas = quotas
        self.subtree: dict[FR, int] = {}
        self.usage: dict[FR, int] = {}
        self.cq = cq
        self._height: int | None = None  # the tree's shape does not change during a run
        self._potential: dict[FR, int] = {}  # nor do its quotas: potential_available per (flavor, resource)

    def quota(self, fr: FR) -> ResourceQuota:
        return self.quotas.get(fr, _NO_QUOTA)

    def local_quota(self, fr: FR) -> int:
        q = self.quotas.get(fr)
        if q is None or q.lending_limit is None:
            return 0
        return max(0, self.subtree.get(fr, 0) - q.lending_limit)

    def local_available(self, fr: FR) -> int:
        return max(0, self.local_quota(fr) - self.usage.get(fr, 0))

    def root(self) -> "Node":
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def ancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def borrowing_with(self, fr: FR, val: int) -> bool:
        limit = self.quota(fr).nominal if self.cq is not None else self.subtree.get(fr, 0)
        return self.usage.get(fr, 0) + val > limit

    def within_nominal(self, frs) -> bool:
        usage, subtree = self.usage, self.subtree
        for fr in frs:
            if usage.get(fr, 0) > subtree.get(fr, 0):
                return False
        return True

    def subtree_cqs(self) -> list["Node"]:
        out = list(self.child_cqs)
        for c in self.child_cohorts:
            out += c.subtree_cqs()
        return out

    def height(self) -> int:
        if self._height is None:
            h = min(len(self.child_cqs) + len(self.child_cohorts), 1)
            for c in self.child_cohorts:
                h = max(h, c.height() + 1)
            self._height = h
        return self._height

    def path(self) -> str:
        parts = [self.name] + [a.name for a in self.ancestors()]
        return "/" + "/".join(reversed(parts))


def available(node: Node, fr: FR) -> int:
    if node.parent is None:
        return node.subtree.get(fr, 0) - node.usage.get(fr, 0)
    parent_available = available(node.parent, fr)
    borrowing = node.quota(fr).borrowing_limit
    if borrowing is not None:
        local = node.local_quota(fr)
        stored = node.subtree.get(fr, 0) - local
        used = max(0, node.usage.get(fr, 0) - local)
        parent_available = min(stored - used + borrowing, parent_available)
    return node.local_available(fr) + parent_available


def cq_available(node: Node, fr: FR) -> int:
    return max(0, available(node, fr))


def potential_available(node: Node, fr: FR) -> int:
    """Depends on quotas only, so computed once per node and (flavor, resource)."""
    value = node._potential.get(fr)
    if value is None:
        value = node._potential[fr] = _potential_available(node, fr)
    return value


def _potential_available(node: Node, fr: FR) -> int:
    if node.parent is None:
        return node.subtree.get(fr, 0)
    value = node.local_quota(fr) + potential_available(node.parent, fr)
    borrowing = node.quota(fr).borrowing_limit
    if borrowing is not None:
        value = min(node.subtree.get(fr, 0) + borrowing, value)
    return value


def add_usage(node: Node, fr: FR, val: int) -> None:
    while True:
        local = node.local_available(fr)
        node.usage[fr] = node.usage.get(fr, 0) + val
        if node.parent is None or val <= local:
            return
        val -= local
        node = node.parent


def remove_usage(node: Node, fr: FR, val: int) -> None:
    while True:
        stored = node.usage.get(fr, 0) - node.local_quota(fr)
        node.usage[fr] = node.usage.get(fr, 0) - val
        if stored <= 0 or node.parent is None:
            return
        val = min(val, stored)
        node = node.parent


def add_all(node: Node, usage: dict[FR, int]) -> None:
    for fr, v in usage.items():
        add_usage(node, fr, v)


def remove_all(node: Node, usage: dict[FR, int]) -> None:
    for fr, v in usage.items():
        remove_usage(node, fr, v)


def fits_in_quota(node: Node, requests: dict[FR, int]) -> tuple[bool, dict[FR, int]]:
    ok = True
    remaining = {}
    for fr, v in requests.items():
        if node.usage.get(fr, 0) + v > node.subtree.get(fr, 0):
            ok = False
        remaining[fr] = max(0, v - node.local_available(fr))
    return ok, remaining


def lowest_subtree_that_fits(cq: Node, fr: FR, val: int) -> tuple[int, bool]:
    """KDIR/pkg/scheduler/preemption/classical/hierarchical_preemption.go FindHeightOfLowestSubtreeThatFits."""
    if not cq.borrowing_with(fr, val) or cq.parent is None:
        return 0, cq.parent is not None
    remaining = val - cq.local_available(fr)
    for node in cq.ancestors():
        if not node.borrowing_with(fr, remaining):
            return node.height(), node.parent is not None
        remaining -= node.local_available(fr)
    return cq.parent.root().height(), False


class Tree:
    """Every ClusterQueue's and Cohort's node; `cycle_cqs` are ClusterQueues in a cohort cycle (inactive)."""

    def __init__(self, cqs: dict[str, ClusterQueue], cohorts: dict[str, Cohort]) -> None:
        self.cqs: dict[str, Node] = {n: Node(n, cq.quotas, cq) for n, cq in sorted(cqs.items())}
        self.cohorts: dict[str, Node] = {}
        for name, c in sorted(cohorts.items()):
            self.cohorts[name] = Node(name, c.quotas)
        for name, c in sorted(cohorts.items()):
            if c.parent:
                self._link(self.cohorts[name], self._cohort(c.parent), as_cq=False)
        for name, cq in sorted(cqs.items()):
            if cq.cohort:
                self._link(self.cqs[name], self._cohort(cq.cohort), as_cq=True)
        self.cycle_cqs = {n for n, node in self.cqs.items() if self._in_cycle(node)}
        for node in self.cohorts.values():
            if node.parent is None:
                self._sum(node)
        for node in self.cqs.values():
            if node.parent is None:
                node.subtree = {fr: q.nominal for fr, q in node.quotas.items()}

    def nodes(self) -> list[Node]:
        return list(self.cqs.values()) + list(self.cohorts.values())

    def _cohort(self, name: str) -> Node:
        if name not in self.cohorts:
            self.cohorts[name] = Node(name, {})
        return self.cohorts[name]

    @staticmethod
    def _link(child: Node, parent: Node, as_cq: bool) -> None:
        child.parent = parent
        (parent.child_cqs if as_cq else parent.child_cohorts).append(child)

    @staticmethod
    def _in_cycle(node: Node) -> bool:
        seen = set()
        while node is not None:
            if id(node) in seen:
                return True
            seen.add(id(node))
            node = node.parent
        return False

    def _sum(self, cohort: Node, depth: int = 0) -> None:
        cohort.subtree = {fr: q.nominal for fr, q in cohort.quotas.items()}
        for child in cohort.child_cohorts:
            if depth < 64:
                self._sum(child, depth + 1)
            self._accumulate(cohort, child)
        for child in cohort.child_cqs:
            child.subtree = {fr: q.nominal for fr, q in child.quotas.items()}
            self._accumulate(cohort, child)

    @staticmethod
    def _accumulate(parent: Node, child: Node) -> None:
        for fr, q in child.subtree.items():
            parent.subtree[fr] = parent.subtree.get(fr, 0) + q - child.local_quota(fr)
