"""Lint of CompositePodGroup hierarchies across objects (WAS409-WAS413).

The API server checks none of this; the 1.37 scheduler marks a hierarchy Invalid when parents form a cycle,
when it is deeper than 4 levels counting the PodGroups, or when it spans several Workloads
(api-reference §4.3 "Runtime-only checks"). Parents are followed with memoised depths, so every object is
visited a constant number of times however long the chains are.
"""

from __future__ import annotations

from wasplan.api.releases import capabilities
from wasplan.diagnostics import Diagnostic
from wasplan.documents import Document
from wasplan.suggest import guess
from wasplan.validate.index import Index, Key, key_of
from wasplan.validate.rules.common import make
from wasplan.validate.walk import mapping

PARENT = ("spec", "parentCompositePodGroupName")
MAX_LEVELS = 4  # counting the PodGroup level, as for Workload template trees
_CYCLE = -1


def parent_key(doc: Document) -> Key | None:
    name = mapping(doc.obj.get("spec")).get("parentCompositePodGroupName")
    return key_of(doc, name) if isinstance(name, str) and name else None


def check_hierarchy(index: Index, release: str) -> list[Diagnostic]:
    children = list(index.composites.values()) + list(index.podgroups.values())
    if not capabilities(release).composites:
        return [_not_in_136(doc) for doc in index.podgroups.values() if parent_key(doc)]
    out: list[Diagnostic] = []
    for doc in children:
        parent = parent_key(doc)
        if parent is None:
            continue
        if parent not in index.composites:
            out.append(_missing(index, doc, parent))
        else:
            out += _spans_workloads(doc, index.composites[parent])
    out += _cycles_and_depth(index)
    return out


def _not_in_136(doc: Document) -> Diagnostic:
    return make(doc, "WAS412", f'PodGroup "{doc.name}" names a parent CompositePodGroup, but Kubernetes 1.36 has no '
                "CompositePodGroup: parentCompositePodGroupName exists from 1.37 (v1alpha3/v1beta1)", PARENT,
                "drop the field for 1.36, or target 1.37 with --k8s-version 1.37")


def _missing(index: Index, doc: Document, parent: Key) -> Diagnostic:
    suggestion = guess(parent[1], index.names_in(index.composites, parent[0]))
    hint = f'did you mean "{suggestion}"?' if suggestion else "it may exist in the cluster; otherwise add it"
    return make(doc, "WAS409", f'{doc.kind} "{doc.name}" names parent CompositePodGroup "{parent[1]}", which is not '
                f"among the inputs in namespace {parent[0]}", PARENT, hint)


def _workload_name(doc: Document) -> str | None:
    value = mapping(mapping(doc.obj.get("spec")).get("workloadRef")).get("workloadName")
    return value if isinstance(value, str) and value else None


def _spans_workloads(doc: Document, parent: Document) -> list[Diagnostic]:
    mine, theirs = _workload_name(doc), _workload_name(parent)
    if mine is None or theirs is None or mine == theirs:
        return []
    return [make(doc, "WAS413", f'{doc.kind} "{doc.name}" belongs to Workload "{mine}" but its parent '
                 f'CompositePodGroup "{parent.name}" belongs to Workload "{theirs}"; the scheduler marks a hierarchy '
                 "that spans several Workloads invalid", ("spec", "workloadRef", "workloadName"))]


def _cycles_and_depth(index: Index) -> list[Diagnostic]:
    """Levels of CompositePodGroups (root = 1); WAS410 once per cycle, WAS411 at the first level too deep."""
    level: dict[Key, int] = {}
    out: list[Diagnostic] = []
    for start in index.composites:
        chain: list[Key] = []
        on_chain: dict[Key, int] = {}
        key: Key | None = start
        while key is not None and key in index.composites and key not in level and key not in on_chain:
            on_chain[key] = len(chain)
            chain.append(key)
            key = parent_key(index.composites[key])
        if key is not None and key in on_chain:  # the walk came back to itself
            cycle = chain[on_chain[key]:]
            out.append(_cycle(index, cycle))
            for member in cycle:
                level[member] = _CYCLE
            chain = chain[: on_chain[key]]
        base = _level_above(level, key, index)
        for depth, member in enumerate(reversed(chain), start=1):
            level[member] = _CYCLE if base == _CYCLE else base + depth
            if level[member] == MAX_LEVELS:
                out.append(_too_deep(index, member, level))
    return out


def _level_above(level: dict[Key, int], key: Key | None, index: Index) -> int:
    """Level of the object the chain stopped at: 0 above a root, 1 for a missing parent (at least a root)."""
    if key is None:
        return 0
    if key not in index.composites:
        return 1
    return level[key]


def _cycle(index: Index, cycle: list[Key]) -> Diagnostic:
    first = min(cycle, key=lambda k: index.composites[k].order)
    at = cycle.index(first)
    ordered = cycle[at:] + cycle[:at]
    names = " -> ".join(k[1] for k in ordered + [first])
    return make(index.composites[first], "WAS410", f"CompositePodGroup parent references form a cycle: {names}",
                PARENT, "one CompositePodGroup of the hierarchy must be the root (no parentCompositePodGroupName)")


def _too_deep(index: Index, key: Key, level: dict[Key, int]) -> Diagnostic:
    chain = [key]
    while len(chain) <= MAX_LEVELS:
        parent = parent_key(index.composites[chain[-1]])
        if parent is None or parent not in index.composites:
            break
        chain.append(parent)
    names = " -> ".join(k[1] for k in reversed(chain))
    return make(index.composites[key], "WAS411",
                f'CompositePodGroup "{key[1]}" is at level {level[key]} of its hierarchy ({names}), so its PodGroups '
                f"would be at level {level[key] + 1}; a hierarchy may have at most {MAX_LEVELS} levels counting the "
                "PodGroups", PARENT, "flatten the hierarchy: at most 3 CompositePodGroup levels above the PodGroups")
