"""Which input objects lint compares with each other: duplicates, and directories that each hold a variant.

Lint judges objects against each other (a pod against its PodGroup, a PodGroup against its Workload), so two
objects with one name must never be read as one. Two cases:

* the same object (group, kind, namespace, name) twice in one directory is a duplicate: the later one is reported
  (WAS606, worded as `plan` words it, since applying the directory would create the first and conflict on the
  second) and left out of the cross-object checks;
* the same object in two directories is the usual layout of per-environment copies, overlays and examples
  (`dev/` and `prod/`, `examples/gang/` and `examples/jobset/`): each directory is its own world. Where two
  directories' paths part (`dev` and `prod` under the repository; `base/` and `base/overlay/`), each side is a
  scope; a file belongs to the deepest scope that holds it, and a world is one innermost scope with the scopes
  around it and every file in no scope (shared files, such as common namespaces or PriorityClasses). Lint runs
  once per world and a finding found in several worlds is reported once.

Without a name in two directories there is one world, all the inputs, and lint runs as it always has.
"""

from __future__ import annotations

import os
from typing import Iterable

from wasplan.diagnostics import Diagnostic
from wasplan.documents import Document
from wasplan.documents.sources import STDIN_NAME
from wasplan.validate.rules.common import make

_HERE = "\0"  # the files directly in a directory sit in this pseudo entry of it, so `a/` and `a/b/` part
Position = tuple[str, ...]
Key = tuple[str, str, str, str]


def _key(doc: Document) -> Key:
    return (doc.group, doc.kind, doc.namespace or "default", doc.name or "")


def _directory(doc: Document) -> str:
    return "-" if doc.source == STDIN_NAME else os.path.dirname(os.path.normpath(doc.source))


def _position(directory: str) -> Position:
    parts = () if directory in ("", ".") else tuple(p for p in directory.split(os.sep) if p)
    return (*parts, _HERE)


def without_duplicates(docs: list[Document]) -> tuple[list[Document], list[Diagnostic]]:
    """The documents less the later copies of an object within one directory, and a WAS606 for each copy."""
    first: dict[tuple[Key, str], Document] = {}
    kept, found = [], []
    for doc in docs:
        if not doc.name:
            kept.append(doc)
            continue
        place = (_key(doc), _directory(doc))
        earlier = first.setdefault(place, doc)
        if earlier is doc:
            kept.append(doc)
            continue
        where = earlier.location(("metadata", "name"))
        ns = f"{doc.namespace}/" if doc.namespace else ""
        found.append(make(doc, "WAS606", f"{doc.kind} {ns}{doc.name} is already defined (first in "
                          f"{where.file}:{where.line}); this one was ignored", ("metadata", "name")))
    return kept, found


def _scopes(docs: list[Document]) -> set[Position]:
    """The scopes that directories defining the same object part into (empty when no name is in two)."""
    places: dict[Key, dict[Position, None]] = {}
    for doc in docs:
        if doc.name:
            places.setdefault(_key(doc), {})[_position(_directory(doc))] = None
    scopes: set[Position] = set()
    for positions in places.values():
        listed = list(positions)
        for i, a in enumerate(listed):
            for b in listed[i + 1:]:
                common = len(os.path.commonprefix([a, b]))
                scopes.update({a[:common + 1], b[:common + 1]})
    return scopes


def _deepest(position: Position, scopes: set[Position]) -> Position | None:
    for end in range(len(position), 0, -1):
        if position[:end] in scopes:
            return position[:end]
    return None


def worlds(docs: list[Document]) -> list[list[Document]]:
    """The sets of documents lint checks together: one (all of them) unless a name is in two directories."""
    scopes = _scopes(docs)
    if not scopes:
        return [docs]
    innermost = sorted(s for s in scopes if not any(o != s and o[:len(s)] == s for o in scopes))
    owner = {id(doc): _deepest(_position(_directory(doc)), scopes) for doc in docs}
    out = []
    for leaf in innermost:
        around = {leaf[:end] for end in range(1, len(leaf) + 1)} & scopes
        out.append([doc for doc in docs if owner[id(doc)] is None or owner[id(doc)] in around])
    return out


def once(findings: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Findings without repeats (the same finding found in several worlds)."""
    seen: set[tuple] = set()
    out = []
    for d in findings:
        loc = d.location
        key = (d.code, loc.file, loc.doc, loc.path, loc.line, loc.col, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out
