"""validate/lint as JUnit (report/junit.py explains the format): one test case per document of every file.

Findings not tied to a checked document (a YAML syntax error, a document without apiVersion) get a case of
their own for that document; skipped non-Kubernetes documents and template files are `<skipped>` cases, and so
are documents of a kind no schema knows (WAS010: read, not validated), unless another finding fails them.
"""

from __future__ import annotations

from wasplan.diagnostics import Diagnostic, Severity
from wasplan.pipeline.validate import ValidationReport
from wasplan.validate.checker import DocumentVerdict
from wasplan.report.junit import Case, findings_case, render_suites

_SKIP_TEXT = {"not-kubernetes": "not a Kubernetes object",
              "template": "template file: render it first (helm template ... | wasplan validate -)",
              "kustomize-patch": "kustomize patch: build the overlay first (kubectl kustomize DIR | wasplan validate -)"}
_SKIP_NAME = {"template": "template file", "kustomize-patch": "kustomize patch"}


_UNVALIDATED = "not validated: no schema is known for this kind (WAS010)"


def _doc_name(describe: str, doc: int | None, item: int | None = None) -> str:
    where = "" if doc is None else f" (document {doc + 1}" + (f", item {item}" if item is not None else "") + ")"
    return describe + where


def _owner(by_doc: dict[tuple, list], d: Diagnostic) -> tuple | None:
    """The (file, document, item) key of the checked document a loose finding (lint, input) belongs to: in a
    List, the item whose lines hold the finding."""
    loc = d.location
    candidates = by_doc.get((loc.file, loc.doc), [])
    for doc in candidates:
        node = doc._node()
        if loc.line is not None and node is not None and node.start_mark.line < loc.line <= node.end_mark.line + 1:
            return (doc.source, doc.index, doc.item)
    return (candidates[0].source, candidates[0].index, candidates[0].item) if candidates else None


def _cases(report: ValidationReport, threshold: Severity) -> dict[tuple, Case]:
    by_doc: dict[tuple, list] = {}
    for r in report.results:
        by_doc.setdefault((r.doc.source, r.doc.index), []).append(r.doc)
    loose: dict[tuple, list[Diagnostic]] = {}
    for d in report.input_diagnostics + report.lint_diagnostics:
        key = _owner(by_doc, d) or (d.location.file, d.location.doc, None)
        loose.setdefault(key, []).append(d)
    cases: dict[tuple, Case] = {}
    for r in report.results:
        key = (r.doc.source, r.doc.index, r.doc.item)
        skipped = _UNVALIDATED if r.verdict == DocumentVerdict.SKIPPED else None
        cases[key] = findings_case(Case(r.doc.source, _doc_name(r.doc.describe(), r.doc.index, r.doc.item),
                                        r.doc.source, skipped=skipped), r.diagnostics + loose.pop(key, []), threshold)
    for s in report.skipped:
        key = (s.file, s.doc, None)
        name = _doc_name("non-Kubernetes document", s.doc) if s.reason == "not-kubernetes" else _SKIP_NAME[s.reason]
        cases[key] = findings_case(Case(s.file, name, s.file, skipped=_SKIP_TEXT[s.reason]), loose.pop(key, []),
                                   threshold)
    for (file, doc, item), diags in loose.items():
        cases[(file, doc, item)] = findings_case(Case(file, _doc_name("input", doc, item), file), diags, threshold)
    return cases


def render_validation(report: ValidationReport, title: str, strict: bool = False) -> str:
    threshold = Severity.WARNING if strict else Severity.ERROR
    cases = _cases(report, threshold)
    suites: dict[str, list[Case]] = {}
    for key in sorted(cases, key=lambda k: (k[0], -1 if k[1] is None else k[1], -1 if k[2] is None else k[2])):
        suites.setdefault(key[0], []).append(cases[key])
    return render_suites(title, suites)
