"""SARIF 2.1.0, the format code-scanning services (GitHub, GitLab, Azure DevOps) ingest, so validate and lint
findings appear as annotations and alerts without a wrapper script.

Locations follow the spec's §3.4 (artifactLocation): a file under the working directory is a relative,
percent-encoded URI against the `%SRCROOT%` base (which `originalUriBaseIds` resolves), as GitHub's upload
expects; a file elsewhere is an absolute `file://` URI; stdin is the stable pseudo-URI `urn:wasplan:stdin`.
Each rule carries its full description and a `helpUri` into docs/rules.md.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable
from urllib.parse import quote

from wasplan import __version__
from wasplan.codes import CODES, RULES_DOC_URL, help_uri, rule_doc
from wasplan.diagnostics import Diagnostic, Severity
from wasplan.documents.reader import STDIN_NAME
from wasplan.jsontext import dumps

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
STDIN_URI = "urn:wasplan:stdin"


def _rule(code: str) -> dict:
    row, doc = CODES[code], rule_doc(code)
    return {"id": row.code, "name": row.name, "shortDescription": {"text": row.summary},
            "fullDescription": {"text": doc.description},
            "help": {"text": doc.fix, "markdown": f"{doc.fix}\n\n[{row.code} in docs/rules.md]({help_uri(code)})"},
            "helpUri": help_uri(code), "defaultConfiguration": {"level": _LEVEL[row.severity]}}


def artifact_location(file: str) -> dict:
    if file == STDIN_NAME:
        return {"uri": STDIN_URI}
    path = Path(os.path.abspath(file))
    rel = os.path.relpath(path)
    if rel.startswith(".."):
        return {"uri": path.as_uri()}
    return {"uri": quote(Path(rel).as_posix(), safe="/"), "uriBaseId": SRCROOT}


def _result(d: Diagnostic, rule_index: dict[str, int]) -> dict:
    loc = d.location
    region: dict = {}
    if loc.line is not None:
        region = {"startLine": loc.line, "startColumn": loc.col or 1}
    physical: dict = {"artifactLocation": artifact_location(loc.file)}
    if region:
        physical["region"] = region
    result = {"ruleId": d.code, "ruleIndex": rule_index[d.code], "level": _LEVEL[d.severity],
              "message": {"text": d.message + (f" (hint: {d.hint})" if d.hint else "")},
              "locations": [{"physicalLocation": physical}]}
    if loc.field:
        result["locations"][0]["logicalLocations"] = [{"fullyQualifiedName": loc.field, "kind": "member"}]
    return result


def _suppressed(d: Diagnostic, reason: str, rule_index: dict[str, int]) -> dict:
    """A suppressed finding as SARIF §3.35 has it: the result with a `suppressions` entry, `inSource` for a
    comment or annotation in the manifest, `external` for the command line or config file."""
    kind = "inSource" if reason.startswith(("comment", "annotation")) else "external"
    return {**_result(d, rule_index), "suppressions": [{"kind": kind, "justification": reason}]}


def render_sarif(diags: Iterable[Diagnostic], suppressed: Iterable[tuple[Diagnostic, str]] = ()) -> str:
    """`suppressed` (diagnostic, reason) pairs are included, marked as suppressed, with --show-suppressed."""
    diags, suppressed = list(diags), list(suppressed)
    codes = sorted({d.code for d in diags} | {d.code for d, _ in suppressed})
    rule_index = {code: i for i, code in enumerate(codes)}
    run = {
        "tool": {"driver": {"name": "wasplan", "version": __version__, "informationUri": RULES_DOC_URL,
                            "rules": [_rule(code) for code in codes]}},
        "originalUriBaseIds": {SRCROOT: {"uri": Path.cwd().as_uri() + "/"}},
        "results": [_result(d, rule_index) for d in diags] + [_suppressed(d, why, rule_index) for d, why in suppressed],
    }
    return dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]})
