"""Renders a ValidationReport as text (compiler style plus a summary) or as the documented JSON shape."""

from __future__ import annotations

from rich.console import Console

from wasplan.jsontext import dumps
from wasplan.pipeline.validate import ValidationReport
from wasplan.report.diagnostics_text import plural, render

REPORT_API_VERSION = "wasplan.io/v1alpha1"


def render_text(report: ValidationReport, console: Console, strict: bool = False) -> None:
    diags = report.diagnostics
    render(diags, report.sources, console)
    c = report.counts()
    parts = [plural(c["documents"], "document"), f"{c['valid']} valid", f"{c['invalid']} invalid"]
    if c["skipped"]:
        parts.append(f"{c['skipped']} not checked (unknown kind)")
    tail = f"{plural(c['errors'], 'error')}, {plural(c['warnings'], 'warning')}"
    verdict = "FAILED" if report.exit_code(strict) else "OK"
    style = "bold red" if verdict == "FAILED" else "bold green"
    if diags:
        console.print()
    console.print(f"[{style}]{verdict}[/]: {', '.join(parts)}; {tail} "
                  f"(Kubernetes {report.gates.release.version})", highlight=False)


def to_dict(report: ValidationReport) -> dict:
    documents = []
    for r in report.results:
        d = r.doc
        documents.append({
            "file": d.source, "document": d.index, "item": d.item,
            "apiVersion": d.api_version, "kind": d.kind, "namespace": d.namespace or None, "name": d.name or None,
            "verdict": r.verdict,
            "diagnostics": [x.to_dict() for x in r.diagnostics],
        })
    return {
        "apiVersion": REPORT_API_VERSION,
        "kind": "ValidationReport",
        "k8sVersion": report.gates.release.version,
        "summary": report.counts(),
        "documents": documents,
        "diagnostics": [x.to_dict() for x in sorted(report.input_diagnostics + report.lint_diagnostics,
                                                    key=lambda x: (x.location.sort_key(), x.code))],
    }


def render_json(report: ValidationReport) -> str:
    return dumps(to_dict(report))
