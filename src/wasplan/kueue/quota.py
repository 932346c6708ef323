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
                 "_potential", "chain", "lq", "blimit", "limit", "clock", "_avail", "_epoch")

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
        # set by Tree.freeze once the subtree quotas are summed (static for the run):
        self.chain: tuple[Node, ...] = ()  # the ancestors, parent first
        self.lq: dict[FR, int] = {}  # local_quota where it is not 0 (a lending limit keeps quota back)
        self.blimit: dict[FR, int] = {}  # borrowing limits that are set
        self.limit: dict[FR, int] = {}  # what borrowing is measured against: nominal (ClusterQueue), subtree (Cohort)
        # the usage clock shared by the tree's nodes, bumped by every usage change; `available` is memoised per
        # node and (flavor, resource) for one tick of it
        self.clock: list[int] = [0]
        self._avail: dict[FR, int] = {}
        self._epoch = -1

    def quota(self, fr: FR) -> ResourceQuota:
        return self.quotas.get(fr, _NO_QUOTA)

    def local_quota(self, fr: FR) -> int:
        q = self.quotas.get(fr)
        if q is None or q.lending_limit is None:
            return 0
        return max(0, self.subtree.get(fr, 0) - q.lending_limit)

    def local_available(self, fr: FR) -> int:
        lq = self.lq.get(fr)
        return 0 if lq is None else max(0, lq - self.usage.get(fr, 0))

    def root(self) -> "Node":
        return self.chain[-1] if self.chain else self

    def ancestors(self) -> tuple["Node", ...]:
        return self.chain

    def borrowing_with(self, fr: FR, val: int) -> bool:
        return self.usage.get(fr, 0) + val > self.limit.get(fr, 0)

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
    """resource_node.go available: what the node can still use of (flavor, resource), its own unused local quota
    plus what its parent can give it (capped by its borrowing limit). Memoised until the next usage change."""
    if node._epoch != node.clock[0]:
        node._avail = {}
        node._epoch = node.clock[0]
    else:
        value = node._avail.get(fr)
        if value is not None:
            return value
    parent = node.parent
    used = node.usage.get(fr, 0)
    if parent is None:
        value = node.subtree.get(fr, 0) - used
    else:
        value = available(parent, fr)
        local = node.lq.get(fr, 0)
        borrowing = node.blimit.get(fr)
        if borrowing is not None:
            value = min(node.subtree.get(fr, 0) - local - max(0, used - local) + borrowing, value)
        if local > used:
            value += local - used
    node._avail[fr] = value
    return value


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
    node.clock[0] += 1
    while True:
        usage = node.usage
        used = usage.get(fr, 0)
        usage[fr] = used + val
        local = node.lq.get(fr, 0) - used  # local_available before the change
        if local < 0:
            local = 0
        if node.parent is None or val <= local:
            return
        val -= local
        node = node.parent


def remove_usage(node: Node, fr: FR, val: int) -> None:
    node.clock[0] += 1
    while True:
        usage = node.usage
        used = usage.get(fr, 0)
        stored = used - node.lq.get(fr, 0)
        usage[fr] = used - val
        if stored <= 0 or node.parent is None:
            return
        if stored < val:
            val = stored
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
    usage, subtree, lq = node.usage, node.subtree, node.lq
    for fr, v in requests.items():
        used = usage.get(fr, 0)
        if used + v > subtree.get(fr, 0):
            ok = False
        local = lq.get(fr, 0) - used
        remaining[fr] = v - local if local > 0 else v
        if remaining[fr] < 0:
            remaining[fr] = 0
    return ok, remaining


def first_advantage(cq: Node, usage: dict[FR, int]) -> int:
    """hierarchical_preemption.go collectCandidatesForHierarchicalReclaim's walk up the tree: the preemptor has the
    advantage from the lowest node (the ClusterQueue, then its ancestors) where the usage left over by the nodes
    below fits the node's subtree quota (fits_in_quota), and keeps it above; the root's own fit is never asked.
    Returns the index in `cq.chain` from which the ancestors' subtrees are searched with the advantage
    (len(cq.chain) when never)."""
    chain = cq.chain
    last = len(chain) - 1
    if len(usage) == 1:  # the flavor assigner's SimulatePreemption asks about one (flavor, resource)
        [(fr, v)] = usage.items()
        node, k = cq, 0
        while True:
            used = node.usage.get(fr, 0)
            if used + v <= node.subtree.get(fr, 0):
                return k
            if k >= last:
                return len(chain)
            v = max(0, v - max(0, node.lq.get(fr, 0) - used))
            node = chain[k]
            k += 1
    items = list(usage.items())
    node, k = cq, 0
    while True:
        used, subtree, lq = node.usage, node.subtree, node.lq
        for fr, v in items:
            if used.get(fr, 0) + v > subtree.get(fr, 0):
                break
        else:
            return k
        if k >= last:
            return len(chain)
        if lq:  # what the node's local quota absorbs does not reach its parent (fits_in_quota's remaining)
            items = [(fr, max(0, v - max(0, lq.get(fr, 0) - used.get(fr, 0)))) for fr, v in items]
        else:
            items = [(fr, v if v > 0 else 0) for fr, v in items]
        node = chain[k]
        k += 1


def lowest_subtree_that_fits(cq: Node, fr: FR, val: int) -> tuple[int, bool]:
    """KDIR/pkg/scheduler/preemption/classical/hierarchical_preemption.go FindHeightOfLowestSubtreeThatFits."""
    parent = cq.parent
    if parent is None or cq.usage.get(fr, 0) + val <= cq.limit.get(fr, 0):
        return 0, parent is not None
    remaining = val - cq.local_available(fr)
    for node in cq.chain:
        used = node.usage.get(fr, 0)
        if used + remaining <= node.limit.get(fr, 0):
            return node.height(), node.parent is not None
        local = node.lq.get(fr, 0) - used
        if local > 0:
            remaining -= local
    return parent.root().height(), False


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
        self.clock = [0]
        for node in self.nodes():
            self._freeze(node)

    def _freeze(self, node: Node) -> None:
        """The static per-node tables the quota arithmetic reads (the shape and quotas do not change in a run)."""
        chain, seen, up = [], {id(node)}, node.parent
        while up is not None and id(up) not in seen:  # a cohort cycle ends the chain (its queues are inactive)
            chain.append(up)
            seen.add(id(up))
            up = up.parent
        node.chain = tuple(chain)
        node.lq = {fr: v for fr in node.quotas if (v := node.local_quota(fr))}
        node.blimit = {fr: q.borrowing_limit for fr, q in node.quotas.items() if q.borrowing_limit is not None}
        node.limit = ({fr: q.nominal for fr, q in node.quotas.items()} if node.cq is not None
                      else dict(node.subtree))
        node.clock = self.clock

    def save(self) -> list[tuple[Node, dict[FR, int]]]:
        """Every node's usage, for `restore` (a cycle's snapshot)."""
        return [(node, dict(node.usage)) for node in self.nodes()]

    def restore(self, saved: list[tuple[Node, dict[FR, int]]]) -> None:
        for node, usage in saved:
            node.usage = usage
        self.clock[0] += 1

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
