"""Cut a YAML stream into the text of its documents, so untouched documents are copied byte for byte.

A `---` at column 0 can only be a document marker (YAML forbids it inside scalars there), so splitting lines
on it is exact; the libyaml reader's marks then say which span each parsed document lives in.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

_MARKER = re.compile(r"---(?:[ \t]|\r?\n|$)")


@dataclass
class Span:
    """Lines `start`..`end` (exclusive, 0-based) of a file: one `---` document and the comments after it."""

    start: int
    end: int
    text: str

    @property
    def explicit_start(self) -> bool:
        return bool(_MARKER.match(self.text))


def split_spans(text: str) -> list[Span]:
    """Spans in file order; joined they give `text` back exactly. Leading comments belong to the first."""
    lines = text.splitlines(keepends=True)
    cuts = [0] + [i for i, line in enumerate(lines) if i and _MARKER.match(line)] + [len(lines)]
    spans = []
    for a, b in zip(cuts, cuts[1:]):
        spans.append(Span(a, b, "".join(lines[a:b])))
    if not spans:
        spans.append(Span(0, 0, text))
    return spans


def span_indexes(spans: list[Span], lines: list[int]) -> list[int]:
    """For each 0-based line, the span holding it: one binary search each over starts listed once."""
    starts = [s.start for s in spans]
    return [max(bisect.bisect_right(starts, line) - 1, 0) for line in lines]
