"""Carry only the real edits of a round-trip dump back onto the original text.

Two ways, cheap first. `splice` diffs the original with the edited dump and accepts a differing line only
where a changed field sits (`wasplan.migrate.ranges`), so nothing else can change. `transplant` is the exact
fallback when that result fails the self-check:

ruamel.yaml keeps comments but still normalises some spelling (spacing before comments, `key:   value`,
indentation of sequences it did not have to touch). Dumping the document twice -- once unedited, once edited --
and diffing the two isolates exactly the lines the migration changed, whatever ruamel's normalisation did; those
hunks are then applied to the original lines. Every other line stays byte-identical.
"""

from __future__ import annotations

from difflib import SequenceMatcher


def _line_map(original: list[str], baseline: list[str]) -> dict[int, int]:
    """baseline line index -> original line index, for lines the two share verbatim."""
    mapping: dict[int, int] = {}
    for block in SequenceMatcher(None, original, baseline, autojunk=False).get_matching_blocks():
        for k in range(block.size):
            mapping[block.b + k] = block.a + k
    return mapping


def _original_range(mapping: dict[int, int], b1: int, b2: int, n_base: int) -> tuple[int, int] | None:
    if b1 < b2:
        first, last = mapping.get(b1), mapping.get(b2 - 1)
        if first is None or last is None or last - first != b2 - 1 - b1:
            return None
        if any(mapping.get(b) != first + (b - b1) for b in range(b1, b2)):
            return None
        return first, last + 1
    if b1 < n_base and b1 in mapping:
        return mapping[b1], mapping[b1]
    if b1 > 0 and b1 - 1 in mapping:
        return mapping[b1 - 1] + 1, mapping[b1 - 1] + 1
    if n_base == 0:
        return 0, 0
    return None


def transplant(original: str, baseline: str, edited: str) -> str:
    """`original` with the hunks that turn `baseline` into `edited`; `edited` when they cannot be placed."""
    if baseline == original:
        return edited
    orig_lines = original.splitlines(keepends=True)
    base_lines = baseline.splitlines(keepends=True)
    edit_lines = edited.splitlines(keepends=True)
    mapping = _line_map(orig_lines, base_lines)
    replacements = []
    for tag, b1, b2, e1, e2 in SequenceMatcher(None, base_lines, edit_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        where = _original_range(mapping, b1, b2, len(base_lines))
        if where is None:
            return edited
        replacements.append((where, edit_lines[e1:e2]))
    out = list(orig_lines)
    for (o1, o2), new in reversed(replacements):
        if new and o2 == len(out) and out and not out[-1].endswith("\n"):
            out[-1] += "\n"
        out[o1:o2] = new
    return "".join(out)


def _inside(line: int, ranges: list[tuple[int, int]]) -> bool:
    return any(a <= line <= b for a, b in ranges)


def splice(original: str, edited: str, changed: list[tuple[int, int]], inserts: list[tuple[int, int]]) -> str | None:
    """`original` with the edited dump's lines taken only inside `changed` ranges (insertions also at `inserts`).

    None when a differing block mixes lines of changed fields with other lines it cannot tell apart (the dump
    re-wrapped a neighbour, as json.dumps does with compact objects): the caller then uses `transplant`."""
    orig_lines = original.splitlines(keepends=True)
    edit_lines = edited.splitlines(keepends=True)
    out: list[str] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, orig_lines, edit_lines, autojunk=False).get_opcodes():
        inside = [_inside(i, changed) for i in range(i1, i2)]
        if tag == "equal":
            out += orig_lines[i1:i2]
        elif tag == "insert":
            ok = any(a <= i1 <= b + 1 for a, b in changed + inserts)
            out += edit_lines[j1:j2] if ok else []
        elif tag == "replace" and i2 - i1 == j2 - j1:
            out += [edit_lines[j1 + k] if inside[k] else orig_lines[i1 + k] for k in range(i2 - i1)]
        elif all(inside):
            out += edit_lines[j1:j2]
        elif not any(inside):
            out += orig_lines[i1:i2]
        else:
            return None
    if out and not original.endswith("\n"):
        out[-1] = out[-1].rstrip("\n")
    return "".join(out)
