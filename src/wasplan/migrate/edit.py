"""Turn a planned migration into text: round-trip edit, self-check, minimal splice.

YAML goes through ruamel.yaml (comments, quoting, flow style survive); JSON through the json module with the
file's own indentation. In both, the document is dumped once unedited and once edited, and only the lines
that differ between those two dumps replace lines of the original (`transplant`). The spliced text is parsed
again and self-checked, so what is written is exactly what was verified.
"""

from __future__ import annotations

import json
from typing import Any

import yaml

from wasplan.documents.construct import construct
from wasplan.documents.roundtrip import detect_indent, detect_json_style, dump_json, dump_yaml, load_yaml
from wasplan.migrate.checks import Finding
from wasplan.migrate.plan import DocumentPlan, Options, apply_plan
from wasplan.migrate.selfcheck import self_check
from wasplan.migrate.spans import Span
from wasplan.migrate.targets import Target
from wasplan.migrate.transplant import transplant

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def edit_yaml(span: Span, plan: DocumentPlan, target: Target, opts: Options) -> tuple[str, list[Finding]]:
    crlf = "\r\n" in span.text
    original = span.text.replace("\r\n", "\n") if crlf else span.text
    try:
        tree = load_yaml(original)
    except Exception as exc:  # ruamel is stricter than libyaml in a few corners; never a traceback
        return span.text, [Finding("WAS504", (), f"the round-trip parser could not read this document: {exc}")]
    indent = detect_indent(tree, original.splitlines())
    baseline = dump_yaml(tree, indent, span.explicit_start)
    apply_plan(tree, plan, target, opts)
    edited = transplant(original, baseline, dump_yaml(tree, indent, span.explicit_start))
    problems = self_check(_reparse_yaml(edited), plan)
    return (edited.replace("\n", "\r\n") if crlf else edited), problems


def _reparse_yaml(text: str) -> Any:
    try:
        return construct(yaml.compose(text, Loader=_Loader), lambda *_: None)
    except yaml.YAMLError as exc:
        return f"<unparseable output: {exc}>"


def edit_json(span: Span, plan: DocumentPlan, target: Target, opts: Options) -> tuple[str, list[Finding]]:
    style = detect_json_style(span.text)
    original_value = json.loads(span.text)
    edited = transplant(span.text, dump_json(original_value, style), dump_json(plan.result, style))
    try:
        reparsed: Any = json.loads(edited)
    except ValueError as exc:
        reparsed = f"<unparseable output: {exc}>"
    return edited, self_check(reparsed, plan)
