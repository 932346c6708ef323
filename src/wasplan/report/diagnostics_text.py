"""Compiler-style diagnostics: `path:line:col: error WAS101 message`, the source line and a caret beneath.

Colour comes from rich and only when the console allows it (a terminal, unless NO_COLOR / --no-color), so CI
logs and pipes get plain text. For a person (a terminal, or COLUMNS set) the message and hint wrap between
words at the console's width, continuation lines indented under the finding; for a log that tools parse each
finding stays on its one compiler-style line. The quoted source line is printed as it is in the file.

A log without colour (the common case of `plan -o json 2>log` and CI) is written as plain strings: the same
bytes, about thirty times faster than a rich print per line, which matters when a plan reports thousands of
findings (one per admitted Kueue workload). A finding with a line rich changes (a tab, a control character,
trailing spaces, each treated differently by rich 13 and 15) goes through rich. tests/report/
test_diagnostics_log.py holds the two paths to the same output.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from rich.console import Console
from rich.text import Text

from wasplan.diagnostics import Diagnostic, Severity
from wasplan.documents.model import SourceFile
from wasplan.report.fit import print_wrapped

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow", Severity.INFO: "bold cyan"}


def header(d: Diagnostic) -> str:
    loc = d.location
    where = loc.file
    if loc.line is not None:
        where += f":{loc.line}:{loc.col or 1}"
    return f"{where}: {d.severity.label} {d.code} {d.message}"


def _heading(d: Diagnostic) -> Text:
    loc = d.location
    where = loc.file + (f":{loc.line}:{loc.col or 1}" if loc.line is not None else "")
    text = Text()
    text.append(where + ": ", style="bold")
    text.append(d.severity.label, style=_STYLE[d.severity])
    text.append(f" {d.code} ", style="dim")
    text.append(d.message)
    return text


def _plain(console: Console, text: Text) -> None:
    console.print(text, no_wrap=True, overflow="ignore", crop=False, highlight=False)


def _render_log(diags: Iterable[Diagnostic], sources: Mapping[str, SourceFile], console: Console) -> None:
    """Plain findings written as strings in runs; one rich cannot be matched for goes through rich, in order."""
    run: list[str] = []
    for d in diags:
        text = log_lines(d, sources)
        if text is not None:
            run.append(text)
            continue
        console.file.write("".join(run))
        run = []
        render_one(d, sources, console, wrap=False)
    console.file.write("".join(run))


def render_one(d: Diagnostic, sources: Mapping[str, SourceFile], console: Console, wrap: bool = True) -> None:
    loc = d.location
    if wrap:
        print_wrapped(console, _heading(d))
    else:
        _plain(console, _heading(d))
    source = sources.get(loc.file)
    line = source.line(loc.line) if source is not None and loc.line is not None else None
    if line is not None:
        _plain(console, Text("    " + line.rstrip()))
        _plain(console, Text("    " + " " * ((loc.col or 1) - 1) + "^", style=_STYLE[d.severity]))
    if d.hint:
        hint = Text("    ")
        hint.append("hint: ", style="bold green")
        hint.append(d.hint)
        print_wrapped(console, hint, 6) if wrap else _plain(console, hint)


def log_lines(d: Diagnostic, sources: Mapping[str, SourceFile]) -> str | None:
    """`render_one(d, ..., wrap=False)` on a console without colour, as one string; None when a line holds what
    rich versions treat differently (a tab, a control or other unprintable character, trailing spaces, which
    rich 13 strips and rich 15 keeps), so that the finding goes through rich itself."""
    loc = d.location
    lines = [header(d)]
    source = sources.get(loc.file)
    line = source.line(loc.line) if source is not None and loc.line is not None else None
    if line is not None:
        lines.append("    " + line.rstrip())
        lines.append("    " + " " * ((loc.col or 1) - 1) + "^")
    if d.hint:
        lines.append("    hint: " + d.hint)
    if all(text.isprintable() and not text.endswith(" ") for text in lines):
        return "".join(text + "\n" for text in lines)
    return None


def render(diags: Iterable[Diagnostic], sources: Mapping[str, SourceFile], console: Console,
           wrap: bool = True) -> None:
    """Every finding; `wrap=False` keeps each on its compiler-style line (for logs that tools parse)."""
    if not wrap and console.color_system is None and not console.record:
        _render_log(diags, sources, console)
        return
    for d in diags:
        render_one(d, sources, console, wrap)
