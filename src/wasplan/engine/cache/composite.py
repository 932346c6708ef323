"""CompositePodGroup trees (1.37 alpha; engine-semantics §1.3.4, §1.10; api-reference §4.3).

A tree is made of CompositePodGroups linked by `spec.parentCompositePodGroupName`, with PodGroups (naming a
parent the same way) as leaves. Only the root is a queue entity; PreEnqueue admits a tree's pods once the
root meets quorum, evaluated top-down: a leaf is admissible with ≥ minCount live pods (gang) or ≥ 1 (basic), a
composite with ≥ minGroupCount admissible children (gang) or ≥ 1 (basic). Children keep creation order, which
is the order the recursive algorithm (compositecycle.py) visits them in.

With the CompositePodGroup gate off (or on 1.36) parents are ignored: every PodGroup stands alone. A parent
that does not exist (yet) keeps the tree below quorum.
"""

from __future__ import annotations

from itertools import islice

from wasplan.api import hub
from wasplan.engine.queueing.queue import QueueKind

MAX_DEPTH = 4  # levels, counting the PodGroups (so at most 3 levels of CompositePodGroups above them)


def quorum_msg(name: str) -> str:
    return f'waiting for composite pod group "{name}" tree to meet quorum'


def invalid_msg(name: str, problem: str) -> str:
    """wasplan's wording: upstream marks such a hierarchy Invalid (CompositePodGroupInitiallyScheduled reason
    Invalid) and schedules none of it; the text its pods would show is not known."""
    return f'composite pod group "{name}" hierarchy is invalid ({problem}); none of it is scheduled'


class Forest:
    """Tree lookups over the World's PodGroups and CompositePodGroups, rebuilt when either set grows."""

    def __init__(self, world, options) -> None:
        self.world = world
        self.on = options.caps.composites and options.gates.on.composite_pod_group
        # 1.38 lets a tree too deep into its cycle, whose hierarchy checks fail it (engine/cycle/hierarchy.py)
        self.depth_gates = not options.caps.hierarchy_validation
        self._seen = (0, 0)  # PodGroups and CompositePodGroups indexed so far (the World only ever adds)
        self._children: dict[str, list[tuple[str, str]]] = {}

    def _parent(self, namespace: str, obj) -> str | None:
        name = getattr(obj, "parent_composite", None)
        return f"{namespace}/{name}" if self.on and name else None

    def parent_of_group(self, group) -> str | None:
        name = group.parent_name
        return f"{group.record.namespace}/{name}" if self.on and name else None

    def root_key(self, group) -> str | None:
        """The key of the tree's root composite (or of the missing composite the walk stopped at); None for a
        standalone PodGroup."""
        if not self.on:  # parents are ignored: every PodGroup stands alone
            return None
        key = self.parent_of_group(group)
        seen: set[str] = set()
        while key is not None and key not in seen and len(seen) < MAX_DEPTH:
            seen.add(key)
            record = self.world.composites.get(key)
            if record is None:
                return key
            up = self._parent(record.namespace, record.obj)
            if up is None:
                return key
            key = up
        return key

    def problem(self, group) -> tuple[str, str] | None:
        """(composite name, what is wrong) when the group's ancestors form a cycle or (before 1.38) nest too
        deep."""
        key, seen = self.parent_of_group(group), []
        while key is not None and key in self.world.composites:
            if key in seen:
                return key.partition("/")[2], "its parents form a cycle"
            seen.append(key)
            if len(seen) >= MAX_DEPTH and self.depth_gates:
                return key.partition("/")[2], f"more than {MAX_DEPTH} levels counting the PodGroups"
            record = self.world.composites[key]
            key = self._parent(record.namespace, record.obj)
        return None

    def children(self, key: str) -> list[tuple[QueueKind, str]]:
        """(QueueKind.COMPOSITE | QueueKind.GROUP, key) of a composite's children, in creation order."""
        if self._seen != (len(self.world.groups), len(self.world.composites)):
            self._index_new()
        return self._children.get(key, [])

    def _index_new(self) -> None:
        """Index the objects created since the last call; creation order is sequence order, so appending keeps
        every child list sorted."""
        groups, composites = self._seen
        new = [(self.world.composite_seq[k], QueueKind.COMPOSITE, k, self._parent(r.namespace, r.obj))
               for k, r in islice(self.world.composites.items(), composites, None)]
        new += [(gs.seq, QueueKind.GROUP, k, self.parent_of_group(gs))
                for k, gs in islice(self.world.groups.items(), groups, None)]
        for _, kind, key, parent in sorted(new):
            if parent is not None:
                self._children.setdefault(parent, []).append((kind, key))
        self._seen = (len(self.world.groups), len(self.world.composites))

    def leaves(self, key: str, depth: int = 0) -> list:
        """Every PodGroup (GroupState) under a composite."""
        out = []
        for kind, child in self.children(key) if depth < MAX_DEPTH else ():
            if kind == QueueKind.GROUP:
                out.append(self.world.groups[child])
            else:
                out += self.leaves(child, depth + 1)
        return out

    def min_children(self, key: str) -> int:
        policy = self.world.composites[key].obj.policy
        return (policy.min_group_count or 1) if policy.kind == hub.PolicyKind.GANG else 1

    def admissible(self, key: str, depth: int = 0) -> bool:
        if key not in self.world.composites or depth >= MAX_DEPTH:
            return False
        count = 0
        for kind, child in self.children(key):
            if kind == QueueKind.GROUP:
                gs = self.world.groups[child]
                count += gs.live >= gs.min_count
            else:
                count += self.admissible(child, depth + 1)
        return count >= self.min_children(key)

    def priority(self, key: str) -> int:
        obj = self.world.composites[key].obj
        return self.world.resolve_priority(obj.priority, obj.priority_class_name)
