"""Decide which findings a run reports and which it suppresses, and report suppressions that suppress nothing.

Order: inline comments and annotations first (so they count as used even where a rule is also deselected),
then per-file-ignores, then --select/--ignore. Findings about suppressions (WAS032) and about the config
itself are never suppressed, so a blanket `ignore` cannot hide its own rot.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence

from wasplan.codes import lookup
from wasplan.config.settings import Settings
from wasplan.diagnostics import Diagnostic, Location
from wasplan.suppress.markers import Marker

UNSUPPRESSIBLE = frozenset({"WAS032"})


@dataclass(frozen=True)
class Suppressed:
    """A finding a suppression marker or setting removed, and why."""

    diagnostic: Diagnostic
    reason: str

    def to_dict(self) -> dict:
        return {**self.diagnostic.to_dict(), "suppressedBy": self.reason}


def _matches(code: str, prefixes: Sequence[str]) -> bool:
    return any(code.startswith(p) for p in prefixes)


def _marker_reason(d: Diagnostic, markers: Mapping[str, Sequence[Marker]]) -> str | None:
    loc = d.location
    for m in markers.get(loc.file, ()):
        if m.covers(d.code, loc.file, loc.line, loc.doc):
            m.used.add(d.code)
            what = "comment" if m.kind == "comment" else "annotation wasplan.io/ignore"
            return f"{what} at {m.file}:{m.line}"
    return None


def _glob(pattern: str):
    """per-file-ignores globs are gitignore-style, like --exclude (`charts/**`, `*.values.yaml`)."""
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines([pattern])


def _per_file_reason(d: Diagnostic, settings: Settings, cache: dict) -> str | None:
    if not settings.per_file_ignores:
        return None
    file = d.location.file
    if file not in cache:
        rel = os.path.relpath(os.path.abspath(file), os.path.abspath(settings.root)).replace(os.sep, "/")
        cache[file] = [(glob, codes) for glob, codes in settings.per_file_ignores if _glob(glob).match_file(rel)]
    for glob, codes in cache[file]:
        if _matches(d.code, codes):
            return f"per-file-ignores {glob!r}"
    return None


def _rule_reason(code: str, settings: Settings) -> str | None:
    if settings.select and not _matches(code, settings.select):
        return "not in --select"
    if _matches(code, settings.ignore):
        return "--ignore"
    return None


def by_file(markers: Iterable[Marker]) -> dict[str, list[Marker]]:
    out: dict[str, list[Marker]] = {}
    for m in markers:
        out.setdefault(m.file, []).append(m)
    return out


def reason(d: Diagnostic, markers: Mapping[str, Sequence[Marker]], settings: Settings, cache: dict) -> str | None:
    if d.code in UNSUPPRESSIBLE or d.code.startswith("WAS9"):
        return None
    return (_marker_reason(d, markers) or _per_file_reason(d, settings, cache)
            or _rule_reason(d.code, settings))


def active(settings: Settings, lint: bool) -> Callable[[str], bool]:
    """Whether a run could have reported `code` at all: lint codes only under lint, and only selected codes, so
    `validate` and `--select` do not call a lint suppression stale (ruff's RUF100 skips disabled rules alike)."""
    def check(code: str) -> bool:
        return (lint or not code.startswith("WAS4")) and _rule_reason(code, settings) is None
    return check


def unused(markers: Iterable[Marker], is_active: Callable[[str], bool] = lambda code: True) -> list[Diagnostic]:
    """One WAS032 per suppression that suppressed nothing, or per listed code it never used."""
    out = []
    for m in markers:
        if m.codes is None:
            stale = () if m.used else ("every code",)
        else:
            stale = tuple(c for c in m.codes if is_active(c) and not any(u.startswith(c) for u in m.used))
        if stale:
            what = "`# wasplan: ignore`" if m.kind == "comment" else "annotation wasplan.io/ignore"
            out.append(Diagnostic("WAS032", lookup("WAS032").severity,
                                  f"{what} for {', '.join(stale)} suppresses nothing here",
                                  Location(m.file, m.doc, (), m.line, m.col),
                                  "remove it, or the codes that no longer occur"))
    return out
