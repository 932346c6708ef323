"""Compiler-style diagnostics: `path:line:col: error WAS101 message`, the source line and a caret beneath.

Colour comes from rich and only when the console allows it (a terminal, unless NO_COLOR / --no-color), so CI
logs and pipes get plain text. For a person (a terminal, or COLUMNS set) the message and hint wrap between
words at the console's width, continuation lines indented under the finding; for a log that tools parse each
finding stays on its one compiler-style line. The quoted source line is printed as it is in the file.
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


def render(diags: Iterable[Diagnostic], sources: Mapping[str, SourceFile], console: Console,
           wrap: bool = True) -> None:
    """Every finding; `wrap=False` keeps each on its compiler-style line (for logs that tools parse)."""
    for d in diags:
        render_one(d, sources, console, wrap)
