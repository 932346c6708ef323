"""Which lines of a document a migration may touch: those of the fields it changes.

Computed from the libyaml node tree of the original text (already parsed for positions), so the splice can
accept a differing line only where a changed field sits, and keep every other line byte for byte.
"""

from __future__ import annotations

from typing import Any, Iterable

LineRange = tuple[int, int]  # first and last line, 0-based, inclusive


def _end_line(node: Any) -> int:
    mark = node.end_mark
    return mark.line - 1 if mark.column == 0 and mark.line > node.start_mark.line else mark.line


def _find(root: Any, path: tuple) -> tuple[Any, int, bool]:
    """(node, first line, found) for `path`; for a missing field, its deepest existing ancestor."""
    node, first = root, root.start_mark.line
    for elem in path:
        if isinstance(elem, int) and node.id == "sequence" and 0 <= elem < len(node.value):
            node = node.value[elem]
            first = node.start_mark.line
        elif node.id == "mapping" and not isinstance(elem, int):
            match = [(k, v) for k, v in node.value if getattr(k, "value", None) == elem]
            if not match:
                return node, first, False
            key, node = match[-1]
            first = key.start_mark.line
        else:
            return node, first, False
    return node, first, True


def change_ranges(root: Any, paths: Iterable[tuple]) -> tuple[list[LineRange], list[LineRange]]:
    """(ranges of changed fields, ranges where only insertions are allowed: parents of added fields)."""
    changed: list[LineRange] = []
    inserts: list[LineRange] = []
    for path in paths:
        node, first, found = _find(root, path)
        span = (first, max(_end_line(node), first))
        # a field added to a one-line (flow) parent rewrites that line; elsewhere it only adds lines
        (changed if found or span[0] == span[1] else inserts).append(span)
    return changed, inserts
