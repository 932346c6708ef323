"""`wasplan plan --baseline PLAN.json`: read a Plan document saved earlier and check it is one before diffing.

A baseline that is not a Plan (another kind, a ValidationReport, a manifest, two documents) or that has a
section the diff reads in the wrong shape is a positioned finding (file, line, field), so a CI job that saved
the wrong artifact says exactly what it got. Reading goes through the ordinary reader (JSON or YAML, positions
kept), so `-o yaml` plans work as baselines too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wasplan.codes import lookup
from wasplan.diagnostics import Diagnostic, Location, Severity
from wasplan.documents.model import Document
from wasplan.documents.reader import read_paths
from wasplan.plan import API_VERSION

# section -> the string fields each entry must carry for the diff to key and compare it
_SECTIONS = {"podGroups": ("name", "status"), "pods": ("name", "status"), "preemptions": (),
             "resourceClaims": ("name", "status")}


@dataclass
class Baseline:
    plan: dict | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict = field(default_factory=dict)

    @property
    def invalid(self) -> bool:
        return self.plan is None or any(d.severity is Severity.ERROR for d in self.diagnostics)


def _finding(code: str, message: str, doc: Document, path: tuple = (), hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, lookup(code).severity, message, doc.location(path), hint)


def _shape(doc: Document) -> list[Diagnostic]:
    """WAS681 for the first entry of each section that the diff could not read."""
    out = []
    for section, required in _SECTIONS.items():
        value = doc.obj.get(section)
        if value is None:
            continue
        if not isinstance(value, list):
            out.append(_finding("WAS681", f"{section} must be a list, not {type(value).__name__}", doc, (section,)))
            continue
        for i, entry in enumerate(value):
            missing = [f for f in required if not isinstance(entry, dict) or not isinstance(entry.get(f), str)]
            if not isinstance(entry, dict) or missing:
                what = "an object" if not isinstance(entry, dict) else f"a string {missing[0]}"
                out.append(_finding("WAS681", f"{section}[{i}] must be {what}", doc,
                                    (section, i, *missing[:1]) if isinstance(entry, dict) else (section, i)))
                break
    return out


def _check(doc: Document, k8s_version: str) -> list[Diagnostic]:
    if doc.kind != "Plan" or doc.api_version != API_VERSION:
        got = f"{doc.api_version or '(no apiVersion)'} {doc.kind or '(no kind)'}"
        field = ("kind",) if doc.api_version == API_VERSION else ("apiVersion",)
        return [_finding("WAS680", f"the baseline is {got}, not a {API_VERSION} Plan", doc, field,
                         "save the baseline with `wasplan plan ... -o json > plan.json`")]
    out = _shape(doc)
    base_version = doc.obj.get("k8sVersion")
    if not out and base_version != k8s_version:
        out.append(_finding("WAS682", f"the baseline was planned for Kubernetes {base_version}, this plan for "
                                      f"{k8s_version}; differences may come from the release", doc, ("k8sVersion",)))
    return out


def read_baseline(path: str, k8s_version: str) -> Baseline:
    """The baseline's Plan document, or the findings that say why it is not one."""
    read = read_paths([path])
    result = Baseline(diagnostics=list(read.diagnostics), sources=dict(read.sources))
    if read.diagnostics and any(d.severity is Severity.ERROR for d in read.diagnostics):
        return result
    if len(read.documents) != 1:
        doc = read.documents[1] if len(read.documents) > 1 else None
        where = doc.location() if doc is not None else None
        message = f"the baseline holds {len(read.documents)} documents; a Plan is one document"
        result.diagnostics.append(Diagnostic("WAS680", lookup("WAS680").severity, message,
                                             where or Location(path), "save it with `wasplan plan ... -o json`"))
        return result
    doc = read.documents[0]
    result.diagnostics += _check(doc, k8s_version)
    if not any(d.severity is Severity.ERROR for d in result.diagnostics):
        result.plan = doc.obj
    return result
