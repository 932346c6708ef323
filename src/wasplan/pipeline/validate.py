"""`wasplan validate` and `wasplan lint` as library calls: read, check, collect a report.

`plan` reads and checks its inputs through `validate_read` too, but applies no suppression markers: the
suppression modules (wasplan.suppress) load with `apply_suppressions`, which only validate and lint call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from wasplan.api.releases import GateSet
from wasplan.codes import lookup
from wasplan.diagnostics import Diagnostic, Location, Severity, sort_diagnostics
from wasplan.config.settings import Settings
from wasplan.documents.model import SourceFile
from wasplan.documents.reader import STDIN_NAME, ReadResult, Skipped, read_paths
from wasplan.validate.checker import DocumentResult, DocumentVerdict, check_document, check_documents, check_stored

UNTYPED = "WAS007"  # a document without apiVersion or kind: read, but not an object that can be checked


@dataclass
class ValidationReport:
    """What `validate` and `lint` found, per document and per input, and what was suppressed."""

    gates: GateSet
    results: list[DocumentResult] = field(default_factory=list)
    input_diagnostics: list[Diagnostic] = field(default_factory=list)  # not tied to one parsed document
    lint_diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, SourceFile] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)  # non-Kubernetes documents, template files
    suppressed: list = field(default_factory=list)  # wasplan.suppress.apply.Suppressed, by validate and lint

    @property
    def diagnostics(self) -> list[Diagnostic]:
        every = list(self.input_diagnostics) + list(self.lint_diagnostics)
        for result in self.results:
            every.extend(result.diagnostics)
        return sort_diagnostics(every)

    def counts(self) -> dict[str, int]:
        diags = self.diagnostics
        return {
            "documents": len(self.results),
            "valid": sum(1 for r in self.results if r.verdict == DocumentVerdict.VALID),
            "invalid": sum(1 for r in self.results if r.verdict == DocumentVerdict.INVALID),
            "skipped": sum(1 for r in self.results if r.verdict == DocumentVerdict.SKIPPED),
            "nonKubernetes": sum(1 for s in self.skipped if s.reason == "not-kubernetes"),
            "templates": sum(1 for s in self.skipped if s.reason == "template"),
            "kustomizePatches": sum(1 for s in self.skipped if s.reason == "kustomize-patch"),
            "unreadableFiles": len(self.unreadable_files()),
            "suppressed": len(self.suppressed),
            "errors": sum(1 for d in diags if d.severity is Severity.ERROR),
            "warnings": sum(1 for d in diags if d.severity is Severity.WARNING),
            "infos": sum(1 for d in diags if d.severity is Severity.INFO),
        }

    def unreadable_files(self) -> set[str]:
        """Files that gave no document to check because reading them failed (syntax, encoding, limits). A file
        whose only fault is a document without apiVersion or kind (WAS007) was read: the summary names those
        documents instead (`untyped_documents`)."""
        checked = {r.doc.source for r in self.results}
        return {d.location.file for d in self.input_diagnostics
                if d.severity is Severity.ERROR and d.location.file and d.location.file not in checked
                and d.code != UNTYPED}

    def untyped_documents(self) -> dict[str, int]:
        """How many documents lack each type field: {"apiVersion": 1} for one object written without it."""
        counts: dict[str, int] = {}
        for d in self.input_diagnostics:
            if d.code == UNTYPED:
                key = " and ".join(d.data.get("missing", ())) or "apiVersion or kind"
                counts[key] = counts.get(key, 0) + 1
        return counts


def note_no_input(read: ReadResult, paths: Sequence[str], *, empty_files_count: bool = False) -> None:
    """Nothing read and nothing to say about why: WAS009, a tool error (exit 2) for every command; inputs that
    were read but hold nothing (an empty file, nothing piped into `-`) are named as such. With
    `empty_files_count` (plan: a file with no new objects on top of a snapshot replays the snapshot), only
    finding no file at all is, or nothing piped into `-` (a pipeline whose first command failed)."""
    if read.diagnostics or read.skipped:
        return
    if not read.sources:
        shown = ", ".join(paths) or "(nothing)"
        read.diagnostics.append(_no_input(f"no manifests (*.yaml, *.yml, *.json) found in {shown}", shown))
        return
    texts = {name: source.text for name, source in read.sources.items()}
    if not read.documents and (not empty_files_count or list(texts) == [STDIN_NAME] and blank(texts[STDIN_NAME])):
        read.diagnostics.append(_no_input(empty_inputs(texts), next(iter(texts))))


def _no_input(message: str, where: str) -> Diagnostic:
    return Diagnostic("WAS009", lookup("WAS009").severity, message, Location(where))


_BLANK = re.compile(r"(?:\s|#[^\n]*|^---[^\n]*|^\.\.\.[^\n]*)*", re.MULTILINE)


def blank(text: str) -> bool:
    """Whether a YAML text holds only whitespace, comments and document markers."""
    return _BLANK.fullmatch(text) is not None


def empty_inputs(texts: dict[str, str]) -> str:
    """What to say of inputs that were read but hold no object: empty, only comments, or an empty List."""
    names = ["standard input" if name == STDIN_NAME else name for name in texts]
    if all(not t.strip() for t in texts.values()):
        what = ("is", "are", "empty")
    elif all(blank(t) for t in texts.values()):
        what = ("holds", "hold", "only comments")
    else:
        what = ("holds", "hold", "no object")
    verb = what[0] if len(names) == 1 else what[1]
    shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
    piped = " (was nothing piped into `-`?)" if STDIN_NAME in texts else ""
    return f"{shown} {verb} {what[2]}{piped}: no manifests to check"


def validate_read(read: ReadResult, gates: GateSet, *, lint: bool = False, nodes: list | None = None,
                  snapshot=None, stored: bool = False) -> ValidationReport:
    """`snapshot` (a `lint_devices.Snapshot` from `--cluster`) adds its nodes, DRA objects and device checks;
    `stored`: the documents are what an API server stored (a `plan --cluster` snapshot), checked only for what
    the planner relies on (validate/checker.py `check_stored`)."""
    check = check_stored if stored else check_document
    report = ValidationReport(gates, check_documents(read.documents, gates, read.diagnostics, check),
                              list(read.diagnostics), sources=dict(read.sources), skipped=list(read.skipped))
    if lint:
        report.lint_diagnostics = lint_documents(read.documents, gates, nodes, snapshot)
    return report


def lint_documents(documents: list, gates: GateSet, nodes: list | None = None, snapshot=None) -> list[Diagnostic]:
    """The cross-object findings; with a `--cluster` snapshot also against its nodes, DRA objects and devices."""
    from wasplan.validate.lint import lint as run_lint

    if snapshot is None:
        return run_lint(documents, gates, nodes)
    from wasplan.pipeline.lint_devices import lint_devices

    return run_lint(documents, gates, snapshot.nodes, snapshot.facts) + lint_devices(documents, snapshot, gates)


def apply_suppressions(report: ValidationReport, read: ReadResult, settings: Settings, lint: bool = False) -> None:
    """Move suppressed findings out of the report (verdicts follow), and add a WAS032 for each stale marker."""
    from wasplan.suppress import apply as suppression, markers
    from wasplan.suppress.apply import Suppressed

    found = markers.collect(read.sources, read.documents)
    per_file = suppression.by_file(found)
    cache: dict = {}

    def keep(diags: list[Diagnostic]) -> list[Diagnostic]:
        kept = []
        for d in diags:
            why = suppression.reason(d, per_file, settings, cache)
            if why is None:
                kept.append(d)
            else:
                report.suppressed.append(Suppressed(d, why))
        return kept

    for result in report.results:
        result.diagnostics = keep(result.diagnostics)
    report.input_diagnostics = keep(report.input_diagnostics)
    report.lint_diagnostics = keep(report.lint_diagnostics)
    report.input_diagnostics += suppression.unused(found, suppression.active(settings, lint))
    report.suppressed.sort(key=lambda s: (s.diagnostic.location.sort_key(), s.diagnostic.code))


def validate_paths(paths: Sequence[str], gates: GateSet, *, lint: bool = False, nodes: list | None = None,
                   stdin_text: str | None = None, cluster_paths: Sequence[str] = (),
                   settings: Settings = Settings()) -> ValidationReport:
    read = read_paths(paths, stdin_text=stdin_text, options=settings.read_options())
    snapshot = snapshot_read = None
    snapshot_found: list[Diagnostic] = []
    if cluster_paths:
        from wasplan.pipeline.lint_devices import read_snapshot

        snapshot, snapshot_read, snapshot_found = read_snapshot(cluster_paths, gates)
    note_no_input(read, paths)
    report = validate_read(read, gates, lint=lint, nodes=nodes, snapshot=snapshot)
    apply_suppressions(report, read, settings, lint)
    if snapshot_read is not None:
        report.input_diagnostics.extend(snapshot_read.diagnostics)  # an unreadable snapshot is a tool error
        # a malformed snapshot is reported as `plan` reports it: its documents' findings, else its records'
        checked = validate_read(snapshot_read, gates).diagnostics
        invalid = any(d.severity is Severity.ERROR for d in checked)
        report.input_diagnostics.extend(checked if invalid else checked + snapshot_found)
        report.sources.update(snapshot_read.sources)
    return report
