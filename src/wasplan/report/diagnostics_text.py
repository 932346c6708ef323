"""Compiler-style diagnostics: `path:line:col: error WAS101 message`, the source line and a caret beneath.

Colour comes from rich and only when the stream is a terminal, so CI logs and pipes get plain text.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from rich.console import Console
from rich.text import Text

from wasplan.diagnostics import Diagnostic, Severity
from wasplan.documents.model import SourceFile

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow", Severity.INFO: "bold cyan"}


def header(d: Diagnostic) -> str:
    loc = d.location
    where = loc.file
    if loc.line is not None:
        where += f":{loc.line}:{loc.col or 1}"
    return f"{where}: {d.severity.label} {d.code} {d.message}"


def render_one(d: Diagnostic, sources: Mapping[str, SourceFile]) -> Text:
    text = Text()
    loc = d.location
    where = loc.file + (f":{loc.line}:{loc.col or 1}" if loc.line is not None else "")
    text.append(where + ": ", style="bold")
    text.append(d.severity.label, style=_STYLE[d.severity])
    text.append(f" {d.code} ", style="dim")
    text.append(d.message)
    source = sources.get(loc.file)
    line = source.line(loc.line) if source is not None and loc.line is not None else None
    if line is not None:
        text.append("\n    " + line.rstrip())
        text.append("\n    " + " " * ((loc.col or 1) - 1) + "^", style=_STYLE[d.severity])
    if d.hint:
        text.append("\n    hint: ", style="bold green")
        text.append(d.hint)
    return text


def render(diags: Iterable[Diagnostic], sources: Mapping[str, SourceFile], console: Console) -> None:
    for d in diags:
        console.print(render_one(d, sources), soft_wrap=True, highlight=False)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")
