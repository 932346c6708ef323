"""SARIF 2.1.0, the format code-scanning services (GitHub, GitLab, Azure DevOps) ingest, so validate and lint
findings appear as annotations and alerts without a wrapper script."""

from __future__ import annotations

from typing import Iterable

from wasplan import __version__
from wasplan.codes import CODES
from wasplan.diagnostics import Diagnostic, Severity
from wasplan.jsontext import dumps

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _rule(code: str) -> dict:
    row = CODES[code]
    return {"id": row.code, "name": row.name, "shortDescription": {"text": row.summary},
            "defaultConfiguration": {"level": _LEVEL[row.severity]}}


def _result(d: Diagnostic, rule_index: dict[str, int]) -> dict:
    loc = d.location
    region: dict = {}
    if loc.line is not None:
        region = {"startLine": loc.line, "startColumn": loc.col or 1}
    physical: dict = {"artifactLocation": {"uri": loc.file}}
    if region:
        physical["region"] = region
    result = {"ruleId": d.code, "ruleIndex": rule_index[d.code], "level": _LEVEL[d.severity],
              "message": {"text": d.message + (f" (hint: {d.hint})" if d.hint else "")},
              "locations": [{"physicalLocation": physical}]}
    if loc.field:
        result["locations"][0]["logicalLocations"] = [{"fullyQualifiedName": loc.field, "kind": "member"}]
    return result


def render_sarif(diags: Iterable[Diagnostic]) -> str:
    diags = list(diags)
    codes = sorted({d.code for d in diags})
    rule_index = {code: i for i, code in enumerate(codes)}
    run = {
        "tool": {"driver": {"name": "wasplan", "version": __version__,
                            "rules": [_rule(code) for code in codes]}},
        "results": [_result(d, rule_index) for d in diags],
    }
    return dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]})
