"""Renders a ValidationReport as text (compiler style plus a summary) or as the documented JSON shape."""

from __future__ import annotations

from rich.console import Console

from wasplan.jsontext import dumps
from wasplan.pipeline.validate import ValidationReport
from wasplan.report.diagnostics_text import header, render
from wasplan.words import plural
from wasplan.report.fit import print_wrapped

REPORT_API_VERSION = "wasplan.io/v1alpha1"


def _render_suppressed(report: ValidationReport, console: Console) -> None:
    if report.suppressed:
        console.print()
        console.print(f"suppressed ({len(report.suppressed)}):", highlight=False)
    for s in report.suppressed:
        console.print(f"  {header(s.diagnostic)} [suppressed by {s.reason}]", highlight=False, markup=False,
                      soft_wrap=True)


def _summary_parts(c: dict, untyped: dict[str, int]) -> list[str]:
    parts = [plural(c["documents"], "document"), f"{c['valid']} valid", f"{c['invalid']} invalid"]
    parts.extend(f"{plural(n, 'document')} without {missing}" for missing, n in sorted(untyped.items()))
    if c["unreadableFiles"]:
        parts.append(f"{plural(c['unreadableFiles'], 'file')} not read")
    if c["skipped"]:
        parts.append(f"{c['skipped']} not checked (unknown kind)")
    if c["nonKubernetes"]:
        parts.append(f"{plural(c['nonKubernetes'], 'non-Kubernetes document')} skipped")
    if c["templates"]:
        parts.append(f"{plural(c['templates'], 'template file')} skipped")
    if c["kustomizePatches"]:
        parts.append(f"{plural(c['kustomizePatches'], 'kustomize patch', 'kustomize patches')} skipped")
    return parts


def render_text(report: ValidationReport, console: Console, strict: bool = False,
                show_suppressed: bool = False, wrap: bool = True) -> None:
    """`wrap`: findings wrap to the console's width (for a person) or keep one line each (for a log)."""
    diags = report.diagnostics
    render(diags, report.sources, console, wrap)
    if show_suppressed:
        _render_suppressed(report, console)
    c = report.counts()
    parts = _summary_parts(c, report.untyped_documents())
    tail = f"{plural(c['errors'], 'error')}, {plural(c['warnings'], 'warning')}"
    if c["suppressed"]:
        tail += f", {c['suppressed']} suppressed"
    verdict = "FAILED" if report.exit_code(strict) else "OK"
    style = "bold red" if verdict == "FAILED" else "bold green"
    if diags or (show_suppressed and report.suppressed):
        console.print()
    summary = f"[{style}]{verdict}[/]: {', '.join(parts)}; {tail} (Kubernetes {report.gates.release.version})"
    if note := report.gates.release.prerelease_note:
        console.print(note, highlight=False, soft_wrap=True)
    if wrap:
        print_wrapped(console, summary)
    else:
        console.print(summary, highlight=False, soft_wrap=True)


def to_dict(report: ValidationReport, show_suppressed: bool = False) -> dict:
    documents = []
    for r in report.results:
        d = r.doc
        documents.append({
            "file": d.source, "document": d.index, "item": d.item,
            "apiVersion": d.api_version, "kind": d.kind, "namespace": d.namespace or None, "name": d.name or None,
            "verdict": str(r.verdict),
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
        **({"suppressed": [s.to_dict() for s in report.suppressed]} if show_suppressed else {}),
    }


def render_json(report: ValidationReport, show_suppressed: bool = False) -> str:
    return dumps(to_dict(report, show_suppressed))
