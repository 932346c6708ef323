"""Helpers for the validate tests: read manifest text, run a check, look findings up by code."""

from __future__ import annotations

import textwrap

from wasplan.api.releases import default_gates, get_release, parse_gates
from wasplan.diagnostics import Diagnostic
from wasplan.documents import Document, read_text


def docs(text: str, name: str = "m.yaml") -> list[Document]:
    result = read_text(name, textwrap.dedent(text))
    assert result.diagnostics == [], result.diagnostics
    return result.documents


def gates(release: str = "1.37", spec: str | None = None):
    rel = get_release(release)
    return parse_gates(rel, spec) if spec else default_gates(rel)


def codes(diags: list[Diagnostic]) -> list[str]:
    return sorted(d.code for d in diags)


def only(diags: list[Diagnostic], code: str) -> Diagnostic:
    found = [d for d in diags if d.code == code]
    assert len(found) == 1, diags
    return found[0]
