"""Builders shared by the cluster tests: documents from inline YAML, records and plan inputs from them."""

from __future__ import annotations

import textwrap
from pathlib import Path

from wasplan.api.releases import default_gates, get_release, parse_gates
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import PlanInputs
from wasplan.cluster.parse_core import parse_record
from wasplan.cluster.snapshot import build_inputs
from wasplan.documents import ReadResult, read_text

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def read(text: str, name: str = "input.yaml") -> ReadResult:
    result = read_text(name, textwrap.dedent(text))
    assert not result.diagnostics, result.diagnostics
    return result


def gates(version: str = "1.37", spec: str | None = None):
    release = get_release(version)
    return parse_gates(release, spec) if spec else default_gates(release)


def record(text: str, name: str = "input.yaml"):
    """The single record of a one-document YAML, and the findings made while parsing it."""
    doc = read(text, name).documents[0]
    ctx = Ctx(doc)
    return parse_record(doc.obj, ctx), ctx.diags


def inputs(snapshot: str = "", manifests: str = "", version: str = "1.37", gate_spec: str | None = None
           ) -> tuple[PlanInputs, list]:
    snap = read(snapshot, "snapshot.yaml") if snapshot.strip() else ReadResult()
    mani = read(manifests, "manifests.yaml") if manifests.strip() else ReadResult()
    return build_inputs(snap, mani, gates(version, gate_spec))


def names(records) -> list[str]:
    return [f"{type(r).__name__}:{r.name}" for r in records]
