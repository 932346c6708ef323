"""Where suppressions are written: `# wasplan: ignore[=CODES]` comments and the `wasplan.io/ignore` annotation.

A comment on a finding's line covers that line; on a document's first line (the line after `---`, or the
file's first, blank lines aside) it covers the whole document, like yamllint's `disable-line` and
`disable-file` and ruff's `# noqa: CODE`. The annotation, kube-linter's `ignore-check.kube-linter.io/<check>`
in wasplan's spelling, covers the object it is set on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from wasplan.documents.model import Document, SourceFile

ANNOTATION = "wasplan.io/ignore"
_COMMENT = re.compile(r"#\s*wasplan:\s*ignore(?:\s*=\s*(?P<codes>[A-Za-z0-9_, ]*))?\s*$")
_SEPARATOR = re.compile(r"^---(\s|$)")
_ALL_LINES = 10**9


@dataclass
class Marker:
    """One suppression: the codes (or prefixes) it names, None for all, and the lines it covers."""

    file: str
    line: int  # where it is written
    col: int
    codes: tuple[str, ...] | None
    first: int
    last: int
    doc: int | None
    kind: str  # "comment" | "annotation"
    whole_document: bool = True  # False for a comment that covers its own line only
    used: set[str] = field(default_factory=set)

    def covers(self, code: str, file: str, line: int | None, doc: int | None) -> bool:
        if file != self.file or (self.codes is not None and not any(code.startswith(c) for c in self.codes)):
            return False
        if line is None:
            return self.whole_document and doc is not None and doc == self.doc
        return self.first <= line <= self.last


def parse_codes(text: str | None) -> tuple[str, ...] | None:
    if text is None or not text.strip():
        return None
    return tuple(c.strip().upper() for c in text.split(",") if c.strip())


def _documents(lines: list[str]) -> list[tuple[int, int, int]]:
    """(doc index, first line, last line), 1-based, of the YAML documents of a file's lines, numbered as the
    reader numbers them: text before the first `---` is a document only if it holds content, while every `---`
    starts one (even an empty one, which YAML composes as null)."""
    spans, start, index, explicit = [], 1, 0, False
    for number, text in enumerate(lines, start=1):
        if _SEPARATOR.match(text):
            if explicit or any(line.strip() and not line.lstrip().startswith("#") for line in lines[start - 1:number - 1]):
                spans.append((index, start, number - 1))
                index += 1
            start, explicit = number + 1, True
    spans.append((index, start, len(lines)))
    return spans


def comment_markers(source: SourceFile) -> list[Marker]:
    if "wasplan:" not in source.text:
        return []
    lines = source.text.splitlines()
    spans = _documents(lines)
    heads = {next((n for n in range(first, last + 1) if lines[n - 1].strip()), None) for _, first, last in spans}
    out = []
    for number, text in enumerate(lines, start=1):
        match = _COMMENT.search(text) if "wasplan:" in text else None
        if match is None:
            continue
        index, first, last = next(span for span in spans if span[1] <= number <= span[2] or span is spans[-1])
        marker = Marker(source.path, number, match.start() + 1, parse_codes(match.group("codes")), first, last,
                        index, "comment")
        if number not in heads:
            marker.first = marker.last = number
            marker.whole_document = False
        out.append(marker)
    return out


def annotation_marker(doc: Document) -> Marker | None:
    annotations = doc.metadata.get("annotations")
    value = annotations.get(ANNOTATION) if isinstance(annotations, dict) else None
    if not isinstance(value, str):
        return None
    where = doc.location(("metadata", "annotations", ANNOTATION))
    node = doc._node()
    if node is not None:
        first, last = node.start_mark.line + 1, node.end_mark.line + (0 if node.end_mark.column == 0 else 1)
    else:
        first, last = 1, _ALL_LINES
    return Marker(doc.source, where.line or first, where.col or 1, parse_codes(value), first, last, doc.index,
                  "annotation")


def collect(sources: Mapping[str, SourceFile], documents: Iterable[Document]) -> list[Marker]:
    markers = [m for name in sorted(sources) for m in comment_markers(sources[name])]
    markers += [m for m in map(annotation_marker, documents) if m is not None]
    return markers
