"""Text renderings of a migration: the migrated stream, diagnostics like a compiler's, `--check` listing, diffs.

Diagnostics and the `--check` listing wrap between words at `width` (the CLI passes the terminal's); the
stream and the diff are data and are never wrapped. `colorize_diff` colours a diff for a terminal.
"""

from __future__ import annotations

import difflib
import json

from wasplan.api.releases import get_release
from wasplan.diagnostics import Diagnostic, Severity
from wasplan.pipeline.migrate import MigrateResult
from wasplan.report.fit import wrap


def render_stream(result: MigrateResult) -> str:
    """What `migrate` prints by default: every readable file, migrated where possible, in input order."""
    readable = [f for f in result.files if not f.fatal]
    if len(readable) == 1:
        f = readable[0]
        return f.migrated if f.migrated is not None else f.original
    parts = []
    for i, f in enumerate(readable):
        text = (f.migrated if f.migrated is not None else f.original).removeprefix("\ufeff")
        if text and not text.endswith("\n"):
            text += "\n"
        sep = "" if i == 0 or text.startswith("---") else "---\n"
        parts.append(f"{sep}# Source: {f.path}\n{text}")
    return "".join(parts)


def render_diagnostics(result: MigrateResult, width: int = 80) -> str:
    """The findings, then the one line saying the target is modelled on a pre-release, if it is."""
    sources = {f.path: f.original.splitlines() for f in result.files}
    note = get_release(result.target.release).prerelease_note
    return ("".join(_diagnostic(d, sources.get(d.location.file), width) for d in result.all_diagnostics)
            + (f"{note}\n" if note else ""))


def _lines(text: str, width: int, indent: str, hang: str) -> str:
    return "".join(line + "\n" for line in wrap(text, width, indent, hang))


def _diagnostic(d: Diagnostic, lines: list[str] | None, width: int) -> str:
    loc = d.location
    where = loc.file + (f":{loc.line}" if loc.line else "") + (f":{loc.col}" if loc.line and loc.col else "")
    field = f" [{loc.field}]" if loc.field else ""
    out = _lines(f"{where}: {d.severity.label} {d.code} {d.message}{field}", width, "", "    ")
    if lines and loc.line and 0 < loc.line <= len(lines):
        out += f"    {lines[loc.line - 1]}\n"
        if loc.col:
            out += "    " + " " * (loc.col - 1) + "^\n"
    if d.hint:
        out += _lines(f"hint: {d.hint}", width, "    ", "      ")
    return out


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str) if not isinstance(value, str) else value
    return text if len(text) <= 60 else text[:57] + "..."


def _describe(action: str, old: object, new: object) -> str:
    if action == "add":
        return f"add {_short(new)}"
    if action == "remove":
        return f"remove {_short(old)}"
    return f"{action} {_short(old)} -> {_short(new)}"


def render_check(result: MigrateResult, width: int = 80) -> str:
    """Like `black --check`: one line per file that would change, its changes under it, a summary."""
    out = []
    for f in result.changed:
        out.append(f"would migrate {f.path} ({len(f.changes)} change{'s' if len(f.changes) != 1 else ''})\n")
        for c in sorted(f.changes, key=lambda c: (c.document, c.line or 0)):
            line = f":{c.line}" if c.line else ""
            out.append(_lines(f"{f.path}{line}: {c.field}: {_describe(c.action, c.old, c.new)}", width,
                              "    ", "        "))
    return "".join(out) + summary(result, "would be migrated")


def summary(result: MigrateResult, verb: str) -> str:
    changed = len(result.changed)
    rejected = sum(1 for f in result.files if not f.fatal and _rejected_at_target(f))
    gated = sum(1 for f in result.files if not f.fatal and _only_removed_gates(f))
    refused = sum(1 for f in result.files if f.refused and not f.fatal) - rejected - gated
    same = len(result.files) - changed - refused - rejected - gated - sum(1 for f in result.files if f.fatal)
    parts = [f"{changed} file{'s' if changed != 1 else ''} {verb}", f"{same} left unchanged"]
    if refused:
        parts.append(f"{refused} refused")
    if rejected:
        parts.append(f"{rejected} with documents that Kubernetes {result.target.release} rejects")
    if gated:
        parts.append(f"{gated} setting feature gates Kubernetes {result.target.release} removed")
    return ", ".join(parts) + ".\n"


def _only_removed_gates(outcome) -> bool:
    """Unchanged files whose only errors are gates the target removed (migrate/gates.py, WAS514)."""
    errors = {d.code for d in outcome.diagnostics if d.severity is Severity.ERROR}
    return not outcome.changed and errors == {"WAS514"}


def _rejected_at_target(outcome) -> bool:
    """Documents that need no migration but are invalid at the target (checks.unchanged_problems)."""
    return any(d.code == "WAS114" for d in outcome.diagnostics)


def render_diff(result: MigrateResult) -> str:
    out = []
    for f in result.changed:
        out.extend(difflib.unified_diff(f.original.splitlines(keepends=True), f.migrated.splitlines(keepends=True),
                                        fromfile=f"a/{f.path}", tofile=f"b/{f.path}"))
        if out and not out[-1].endswith("\n"):
            out[-1] += "\n\\ No newline at end of file\n"
    return "".join(out)


_DIFF_COLOURS = (("+++", "\x1b[1m"), ("---", "\x1b[1m"), ("@@", "\x1b[36m"), ("+", "\x1b[32m"), ("-", "\x1b[31m"))


def colorize_diff(diff: str) -> str:
    """A unified diff with ANSI colours, as `git diff` shows it: headers bold, hunks cyan, additions green,
    removals red."""
    out = []
    for line in diff.splitlines(keepends=True):
        colour = next((c for prefix, c in _DIFF_COLOURS if line.startswith(prefix)), None)
        body = line.rstrip("\n")
        out.append(f"{colour}{body}\x1b[0m{line[len(body):]}" if colour else line)
    return "".join(out)
