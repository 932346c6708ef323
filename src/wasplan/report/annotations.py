"""GitHub Actions workflow commands, so findings show up inline on a pull request's diff."""

from __future__ import annotations

from typing import Iterable

from wasplan.diagnostics import Diagnostic, Location, Severity

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _escape(value: str, prop: bool = False) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def annotation(level: str, loc: Location | None, title: str, message: str) -> str:
    """One workflow command; without a location it still shows up in the run's summary."""
    props = []
    if loc is not None:
        props.append(f"file={_escape(loc.file, True)}")
        if loc.line is not None:
            props.append(f"line={loc.line}")
            props.append(f"col={loc.col or 1}")
    props.append(f"title={_escape(title, True)}")
    return f"::{level} {','.join(props)}::{_escape(message)}"


def render_github(diags: Iterable[Diagnostic]) -> str:
    lines = [annotation(_LEVEL[d.severity], d.location, d.code, d.message + (f" (hint: {d.hint})" if d.hint else ""))
             for d in diags]
    return "\n".join(lines) + ("\n" if lines else "")
