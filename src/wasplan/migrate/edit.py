"""Turn a planned migration into text: round-trip edit, self-check, minimal splice.

YAML goes through ruamel.yaml (comments, quoting, flow style survive); JSON through the json module with the
file's own indentation. In both, the document is dumped once unedited and once edited, and only the lines
that differ between those two dumps replace lines of the original (`transplant`). The spliced text is parsed
again and self-checked, so what is written is exactly what was verified.
"""

from __future__ import annotations

from typing import Any

import yaml

from wasplan import jsontext
from wasplan.documents.construct import construct
from wasplan.documents.roundtrip import detect_indent, detect_json_style, dump_json, dump_yaml, load_yaml
from wasplan.migrate.checks import Finding
from wasplan.migrate.plan import DocumentPlan, Options, apply_plan
from wasplan.migrate.selfcheck import self_check
from wasplan.migrate.spans import Span
from wasplan.migrate.targets import Target
from wasplan.migrate.transplant import splice, transplant

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


Ranges = tuple[list[tuple[int, int]], list[tuple[int, int]]] | None


def edit_yaml(span: Span, plan: DocumentPlan, target: Target, opts: Options,
              ranges: Ranges) -> tuple[str, list[Finding]]:
    """Edit one YAML document; one dump and a range-limited splice, the two-dump transplant as fallback."""
    crlf = "\r\n" in span.text
    original = span.text.replace("\r\n", "\n") if crlf else span.text
    try:
        tree = load_yaml(original)
    except Exception as exc:  # ruamel is stricter than libyaml in a few corners; never a traceback
        return span.text, [Finding("WAS504", (), f"the round-trip parser could not read this document: {exc}")]
    indent = detect_indent(tree, original.splitlines())
    apply_plan(tree, plan, target, opts)
    dumped = dump_yaml(tree, indent, span.explicit_start)
    edited = splice(original, dumped, *ranges) if ranges is not None else None
    problems = self_check(_reparse_yaml(edited), plan) if edited is not None else ["not spliced"]
    if problems:
        baseline = dump_yaml(load_yaml(original), indent, span.explicit_start)
        edited = transplant(original, baseline, dumped)
        problems = self_check(_reparse_yaml(edited), plan)
    return (edited.replace("\n", "\r\n") if crlf else edited), problems


def _reparse_yaml(text: str) -> Any:
    try:
        return construct(yaml.compose(text, Loader=_Loader), lambda *_: None)
    except yaml.YAMLError as exc:
        return f"<unparseable output: {exc}>"


def edit_json(span: Span, plan: DocumentPlan, target: Target, opts: Options,
              ranges: Ranges) -> tuple[str, list[Finding]]:
    """JSON has no comments to keep: the edited value is dumped in the file's style and spliced the same way."""
    style = detect_json_style(span.text)
    dumped = dump_json(plan.result, style)
    edited = splice(span.text, dumped, *ranges) if ranges is not None else None
    problems = self_check(_reparse_json(edited), plan) if edited is not None else ["not spliced"]
    if problems:
        edited = transplant(span.text, dump_json(jsontext.loads(span.text), style), dumped)
        problems = self_check(_reparse_json(edited), plan)
    return edited, problems


def _reparse_json(text: str) -> Any:
    try:
        return jsontext.loads(text)
    except ValueError as exc:
        return f"<unparseable output: {exc}>"
