"""Nodes folded into classes, each with the ways one node of the class can hold the group's pods.

Symmetry is what makes 5,000 nodes cheap: two nodes are interchangeable for the group when they lie in the same
topology domain and accept the same combinations of its pods. A node's free room is first clipped to what the
whole group could ever use (a node with 40 free cores and one with 400 are the same to a gang that needs 32),
and rounded down to a multiple of the requests' gcd per resource (crumbs no pod can use), then per distinct row
the *maximal patterns* are enumerated: how many pods of each shape fit on one node
together (resources, host ports, hostname anti-affinity between the shapes). Every subset of a pattern also
fits (each rule only forbids adding pods), so "place at most these" is exact. Nodes whose pattern sets are equal
form one class with a count; a gang of one shape has one pattern per node (k pods), so classes are as few as
distinct k values per domain.

When the patterns of a row explode (many small shapes), the row becomes a *pooled* class instead: its nodes'
free room is summed per resource. That is a relaxation (it can pretend half-pods fit across two nodes), so a
model with pooled classes can still prove "no assignment", and any assignment it finds is only believed after
the engine replays it (witness.py). Device requests (DRA) plug in as further columns of the free matrix and of
each shape's request vector (capacity.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from wasplan.explain.exact.domainrules import DomainRules
from wasplan.explain.exact.shapes import Shape

PATTERN_LIMIT = 512  # maximal patterns per node row before the row is pooled


@dataclass
class NodeClass:
    domain: int  # index into Program.domains, -1 without a topology constraint
    patterns: tuple[tuple[int, ...], ...]  # per maximal pattern, pods of each shape on one node
    rows: list[int] = field(default_factory=list)  # node rows, in name order
    content: tuple[int, ...] = ()  # per movable shape, its pods on each of these nodes now (moves.py)
    tags: tuple[int, ...] = ()  # per key of the domain rules (domainrules.py), these nodes' code (-1: none)

    @property
    def count(self) -> int:
        return len(self.rows)


@dataclass
class PooledClass:
    domain: int
    caps: tuple[int, ...]  # per shape, pods one node holds on its own
    free: tuple[int, ...]  # one node's free room per checked column
    rows: list[int] = field(default_factory=list)
    tags: tuple[int, ...] = ()

    @property
    def count(self) -> int:
        return len(self.rows)


@dataclass
class Program:
    """What the solver sees: shapes (counts and request vectors), the pods still needed, node classes."""

    counts: tuple[int, ...]
    requests: np.ndarray  # shapes x checked columns
    needed: int
    classes: list[NodeClass]
    pooled: list[PooledClass]
    domains: list[str] | None  # topology domain values, None without a constraint
    families: tuple[int, ...] = ()  # per shape its family: variants of the same pods (devices.py)
    together: tuple[tuple[int, ...], ...] = ()  # shapes whose pods all go to one node (a shared node-local claim)
    totals: tuple[tuple[int, int], ...] = ()  # (column, most the whole group may take of it)
    apart: tuple = ()  # DomainRules.apart: (tag column, pairs of shapes never in one domain of its key)
    close: tuple = ()  # DomainRules.close: (tag column, shapes whose pods share one domain of its key)
    spread: tuple = ()  # DomainRules.spread: hard spread among the group's pods

    @property
    def exact(self) -> bool:
        return not self.pooled


def per_node_caps(free: np.ndarray, requests: np.ndarray, shapes: list[Shape], conflicts) -> np.ndarray:
    """shapes x nodes: how many pods of each shape one node holds on its own (0 where a filter rejects it)."""
    caps = np.zeros((len(shapes), len(free)), dtype=np.int64)
    for i, s in enumerate(shapes):
        cap = np.full(len(free), s.count, dtype=np.int64)
        for c in np.flatnonzero(requests[i] > 0):
            cap = np.minimum(cap, np.maximum(free[:, c], 0) // requests[i, c])
        if (i, i) in conflicts:
            cap = np.minimum(cap, 1)
        caps[i] = np.where(s.allowed, cap, 0)
    return caps


def room_that_matters(free: np.ndarray, requests: np.ndarray, shapes: list[Shape]) -> np.ndarray:
    """Free room with what no combination of the group's pods can tell apart removed: clipped to what the whole
    group asks for, and rounded down to a multiple of the column's request gcd (every pattern's sum is one), so
    nodes whose room differs only by crumbs share one row."""
    demand = (np.array([s.count for s in shapes])[:, None] * requests).sum(axis=0)
    room = np.minimum(np.maximum(free, 0), demand)
    for c in range(requests.shape[1]):
        step = int(np.gcd.reduce(requests[:, c])) if requests[:, c].any() else 0
        if step > 1:
            room[:, c] -= room[:, c] % step
    return room


def build(shapes: list[Shape], free: np.ndarray, requests: np.ndarray, needed: int, conflicts,
          domain_codes: np.ndarray | None, domains: list[str] | None, content: np.ndarray | None = None,
          together: tuple[tuple[int, ...], ...] = (), totals: tuple[tuple[int, int], ...] = (),
          rules: DomainRules = DomainRules()) -> Program:
    """Classes over the nodes that can hold at least one pod (and lie in a domain, with a constraint).
    `content` (nodes x movable shapes): pods that sit on each node now; nodes differing in it are not merged.
    `together`: groups of shapes whose pods must share one node; `totals`: (column, cap) on the whole group;
    `rules`: the group's own pods per topology domain; a class lies in one domain of each of their keys."""
    caps = per_node_caps(free, requests, shapes, conflicts)
    codes = domain_codes if domain_codes is not None else np.full(len(free), -1, dtype=np.int64)
    useful = caps.any(axis=0) & ((codes >= 0) if domain_codes is not None else True)
    clipped = room_that_matters(free, requests, shapes)
    single = len(shapes) == 1
    key = np.column_stack([codes, caps.T] if single else [codes, caps.T, clipped])
    extra = [a for a in (content, rules.tags) if a is not None]
    if extra:
        key = np.column_stack([key, *extra])
    rows = np.flatnonzero(useful)
    program = Program(tuple(s.count for s in shapes), requests, needed, [], [], domains,
                      tuple(s.family if s.family >= 0 else i for i, s in enumerate(shapes)), together, totals,
                      rules.apart, rules.close, rules.spread)
    if not len(rows):
        return program
    uniq, inverse = np.unique(key[rows], axis=0, return_inverse=True)
    merged: dict[tuple, NodeClass | PooledClass] = {}
    for u, members in _members(uniq, inverse.reshape(-1), rows):
        domain, cap = int(u[0]), tuple(int(x) for x in u[1:1 + len(shapes)])
        room = tuple(int(x) for x in (clipped[members[0]] if not single else ()))
        now = tuple(int(x) for x in content[members[0]]) if content is not None else ()
        tags = tuple(int(x) for x in rules.tags[members[0]]) if rules.tags is not None else ()
        patterns = (cap,) if single else maximal_patterns(cap, room, requests, conflicts)
        tag = (("pattern", domain, patterns, now, tags) if patterns is not None
               else ("pooled", domain, cap, room, now, tags))
        found = merged.get(tag)
        if found is None:
            found = merged[tag] = (NodeClass(domain, patterns, content=now, tags=tags) if patterns is not None
                                   else PooledClass(domain, cap, room, tags=tags))
        found.rows.extend(members)
    for c in merged.values():
        c.rows.sort()
        (program.classes if isinstance(c, NodeClass) else program.pooled).append(c)
    return program


def _members(uniq: np.ndarray, inverse: np.ndarray, rows: np.ndarray):
    order = np.argsort(inverse, kind="stable")
    bounds = np.searchsorted(inverse[order], np.arange(len(uniq) + 1))
    for u in range(len(uniq)):
        yield uniq[u], rows[order[bounds[u]:bounds[u + 1]]].tolist()


def maximal_patterns(caps: tuple[int, ...], room: tuple[int, ...], requests: np.ndarray,
                     conflicts) -> tuple[tuple[int, ...], ...] | None:
    """Every maximal combination of pods one node holds (None past PATTERN_LIMIT), largest counts first."""
    search = _PatternSearch(caps, requests, conflicts)
    if not search.walk(0, [], list(room)):
        return None
    return tuple(p for p in search.out if any(p))


class _PatternSearch:
    """Depth first over the shapes: the last shape always takes as many as still fit (fewer would not be
    maximal); the others are tried from most to none, and a finished combination is kept when no shape could
    take one more pod. The search is cut after a fixed number of steps, so a pathological row costs bounded
    time (the row is then pooled)."""

    def __init__(self, caps: tuple[int, ...], requests: np.ndarray, conflicts) -> None:
        self.caps, self.n = caps, len(caps)
        self.req = [tuple(int(x) for x in r) for r in requests]
        self.rivals = [tuple(t for t in range(self.n) if t != s and _clash(conflicts, s, t)) for s in range(self.n)]
        self.out: list[tuple[int, ...]] = []
        self.steps = PATTERN_LIMIT * 8

    def most(self, s: int, pattern: list[int], left: list[int]) -> int:
        if any(pattern[t] for t in self.rivals[s] if t < len(pattern)):
            return 0
        k = self.caps[s]
        for r, f in zip(self.req[s], left):
            if r > 0:
                k = min(k, f // r)
        return k

    def can_add(self, t: int, pattern: list[int], left: list[int]) -> bool:
        return (pattern[t] < self.caps[t] and not any(pattern[u] for u in self.rivals[t])
                and all(r <= f for r, f in zip(self.req[t], left)))

    def walk(self, s: int, pattern: list[int], left: list[int]) -> bool:
        self.steps -= 1
        if self.steps < 0 or len(self.out) > PATTERN_LIMIT:
            return False
        top = self.most(s, pattern, left)
        last = s == self.n - 1
        for k in ((top,) if last else range(top, -1, -1)):
            pattern.append(k)
            rest = [f - k * r for f, r in zip(left, self.req[s])]
            ok = self.walk(s + 1, pattern, rest) if not last else True
            if last and not any(self.can_add(t, pattern, rest) for t in range(self.n - 1)):
                self.out.append(tuple(pattern))
            pattern.pop()
            if not ok:
                return False
        return True


def _clash(conflicts, a: int, b: int) -> bool:
    return (min(a, b), max(a, b)) in conflicts
