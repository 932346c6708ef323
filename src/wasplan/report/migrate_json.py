"""`migrate -o json`: every change (file, line, field, old, new) and every finding with its severity."""

from __future__ import annotations

from wasplan.diagnostics import Severity
from wasplan.jsontext import dumps
from wasplan.pipeline.migrate import MigrateResult

REPORT_API_VERSION = "wasplan.io/v1alpha1"


def report(result: MigrateResult, mode: str) -> dict:
    """The report as plain data; `mode` is stdout, in-place, check or diff."""
    diags = result.all_diagnostics
    files = []
    for f in result.files:
        files.append({
            "file": f.path,
            "changed": f.changed,
            "written": f.path in result.written,
            "refused": f.refused and not f.fatal,
            "changes": [{"file": c.file, "document": c.document, "line": c.line, "field": c.field,
                         "action": c.action, "old": c.old, "new": c.new} for c in f.changes] if not f.refused else [],
        })
    return {
        "apiVersion": REPORT_API_VERSION,
        "kind": "MigrationReport",
        "target": {"k8sVersion": result.target.release, "apiVersion": result.target.forced},
        "mode": mode,
        "summary": {
            "files": len(result.files),
            "changed": len(result.changed),
            "written": len(result.written),
            "refused": sum(1 for f in result.files if f.refused and not f.fatal),
            "changes": sum(len(f.changes) for f in result.changed),
            "errors": sum(1 for d in diags if d.severity is Severity.ERROR),
            "warnings": sum(1 for d in diags if d.severity is Severity.WARNING),
        },
        "files": files,
        "diagnostics": [d.to_dict() for d in diags],
    }


def render(result: MigrateResult, mode: str) -> str:
    return dumps(report(result, mode), ensure_ascii=False, default=str)
