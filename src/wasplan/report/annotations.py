"""GitHub Actions workflow commands, so findings show up inline on a pull request's diff."""

from __future__ import annotations

from typing import Iterable

from wasplan.diagnostics import Diagnostic, Severity

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _escape(value: str, prop: bool = False) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def render_github(diags: Iterable[Diagnostic]) -> str:
    lines = []
    for d in diags:
        loc = d.location
        props = [f"file={_escape(loc.file, True)}"]
        if loc.line is not None:
            props.append(f"line={loc.line}")
            props.append(f"col={loc.col or 1}")
        props.append(f"title={_escape(d.code, True)}")
        message = d.message + (f" (hint: {d.hint})" if d.hint else "")
        lines.append(f"::{_LEVEL[d.severity]} {','.join(props)}::{_escape(message)}")
    return "\n".join(lines) + ("\n" if lines else "")
