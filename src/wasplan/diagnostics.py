"""Findings as plain data.

Every layer (reading, schema checks, server rules, lint, migrate, snapshot building) reports problems as
`Diagnostic` values instead of raising, so a single run can show every finding at once and the report layer
can render them as text, JSON, SARIF or annotations without knowing where they came from.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Iterable, Sequence

PathElem = str | int
FieldPath = tuple[PathElem, ...]


class Severity(enum.IntEnum):
    """Ordered so that `max()` over a run gives the worst finding."""

    INFO = 0
    WARNING = 1
    ERROR = 2

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> "Severity":
        return cls[text.upper()]


def format_path(path: Sequence[PathElem]) -> str:
    """Render a field path the way kubectl and the API server do: `spec.items[1].name`."""
    out: list[str] = []
    for elem in path:
        if isinstance(elem, int):
            out.append(f"[{elem}]")
        else:
            if out:
                out.append(".")
            out.append(elem)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Location:
    """Where a finding points: a file, the document inside it, and a field with its line/column (1-based)."""

    file: str
    doc: int | None = None
    path: FieldPath = ()
    line: int | None = None
    col: int | None = None

    @property
    def field(self) -> str:
        return format_path(self.path)

    def sort_key(self) -> tuple:
        return (self.file, self.doc if self.doc is not None else -1, self.line or 0, self.col or 0)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding: its code, severity, message and where it points."""

    code: str
    severity: Severity
    message: str
    location: Location
    hint: str | None = None
    # Extra machine-readable facts (e.g. the suggested replacement field); rendered in JSON output.
    data: dict = field(default_factory=dict, compare=False, hash=False)

    def to_dict(self) -> dict:
        loc = self.location
        out = {
            "code": self.code,
            "severity": self.severity.label,
            "message": self.message,
            "file": loc.file,
            "document": loc.doc,
            "line": loc.line,
            "column": loc.col,
            "field": loc.field or None,
        }
        if self.hint:
            out["hint"] = self.hint
        if self.data:
            out["data"] = self.data
        return out


def worst(diags: Iterable[Diagnostic]) -> Severity | None:
    levels = [d.severity for d in diags]
    return max(levels) if levels else None


def sort_diagnostics(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    return sorted(diags, key=lambda d: (d.location.sort_key(), d.code, d.message))
