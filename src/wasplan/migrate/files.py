"""Migrate one file: find the documents that need edits, round-trip only those, splice them back.

A file is fully migrated or left as it was: if any of its documents is refused, invalid or fails the
self-check, `FileOutcome.migrated` is None and nothing of it is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import yaml

from wasplan import jsontext
from wasplan.api.releases import get_release
from wasplan.codes import lookup
from wasplan.diagnostics import Diagnostic, Location, Severity, format_path
from wasplan.documents.construct import construct
from wasplan.documents.model import locate_in_node
from wasplan.documents.reader import ReadOptions, read_bytes
from wasplan.migrate.checks import Finding
from wasplan.migrate.edit import edit_json, edit_yaml
from wasplan.migrate.gates import removed_gates
from wasplan.migrate.plan import DocumentPlan, Options, plan_document, relevant
from wasplan.migrate.ranges import change_ranges
from wasplan.migrate.spans import Span, span_indexes, split_spans
from wasplan.migrate.targets import Target

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
FATAL_READ_CODES = ("WAS001", "WAS002", "WAS003", "WAS004", "WAS008", "WAS012", "WAS013", "WAS014", "WAS015",
                    "WAS016", "WAS112")
BOM = "\ufeff"


@dataclass(frozen=True)
class ChangeRecord:
    file: str
    document: int
    line: int | None
    field: str
    action: str
    old: Any
    new: Any


@dataclass
class FileOutcome:
    path: str
    original: str
    migrated: str | None  # None: left untouched (refused, invalid, or could not be read)
    changes: list[ChangeRecord] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    fatal: bool = False  # the file could not be read or parsed at all

    @property
    def changed(self) -> bool:
        return self.migrated is not None and self.migrated != self.original

    @property
    def refused(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.diagnostics)


def _looks_json(name: str, text: str) -> bool:
    """JSON by name (or by its first character on stdin) and by content: a `.json` file that only YAML accepts
    (single quotes, trailing commas), as the reader read it, is edited as YAML flow style."""
    if not (name.endswith(".json") or (name == "<stdin>" and text.lstrip().startswith(("{", "[")))):
        return False
    try:
        jsontext.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def migrate_file(name: str, data: bytes, target: Target, opts: Options,
                 read_options: ReadOptions = ReadOptions()) -> FileOutcome:
    """Read with the fast reader; only spans holding Workload/PodGroup/CompositePodGroup/Job objects are planned,
    and only those with changes are round-tripped. Unreadable input is `fatal` (exit 2), never an exception.
    A template file is left alone (its WAS031 note is reported), unless `strict_inputs` makes it fatal."""
    read = read_bytes(name, data, read_options)
    text = read.sources[name].text if name in read.sources else ""
    bom = BOM if data.startswith(BOM.encode()) else ""
    outcome = FileOutcome(name, bom + text, None)
    fatal = [d for d in read.diagnostics if d.code in FATAL_READ_CODES]
    if fatal:
        outcome.diagnostics, outcome.fatal = fatal, True
        return outcome
    wanted = [d for d in read.documents if relevant(d.api_version, d.kind)]
    outcome.diagnostics += [d for d in read.diagnostics if d.code == "WAS031"]
    gates = [f for d in read.documents for f in removed_gates(d, get_release(target.release))]
    if not wanted:
        outcome.migrated = outcome.original
        outcome.diagnostics += gates
        return outcome
    is_json = _looks_json(name, text)
    if is_json:
        spans, first_document = [Span(0, text.count("\n"), text)], {0: min(d.index for d in wanted)}
    else:
        spans = split_spans(text)
        first_document = _first_documents(spans, wanted)
    duplicates = _by_span(spans, [d for d in read.diagnostics if d.code == "WAS005" and d.location.line])
    pieces = []
    for i, span in enumerate(spans):
        if i not in first_document:
            pieces.append(span.text)
            continue
        pieces.append(_migrate_span(outcome, span, first_document[i], len(spans) == 1 and is_json,
                                    duplicates.get(i, []), target, opts))
    outcome.changes.sort(key=lambda c: (c.document, c.line or 0))
    if not outcome.refused:
        outcome.migrated = bom + "".join(pieces)
    outcome.diagnostics += gates  # what the operator must change, not a reason to leave the documents as they are
    return outcome


def _first_documents(spans: list[Span], wanted: list) -> dict[int, int]:
    """Span number -> the index of the first wanted document in it, for the spans that hold one (a document
    without a node counts as the first of every such span, as it always did)."""
    placed = [d for d in wanted if d.node is not None]
    first: dict[int, int] = {}
    for doc, i in zip(placed, span_indexes(spans, [d.node.start_mark.line for d in placed])):
        first[i] = min(first.get(i, doc.index), doc.index)
    loose = min((d.index for d in wanted if d.node is None), default=None)
    return first if loose is None else {i: min(index, loose) for i, index in first.items()}


def _by_span(spans: list[Span], diagnostics: list[Diagnostic]) -> dict[int, list[Diagnostic]]:
    """Positioned findings grouped by the span holding their (1-based) line."""
    grouped: dict[int, list[Diagnostic]] = {}
    for diag, i in zip(diagnostics, span_indexes(spans, [d.location.line - 1 for d in diagnostics])):
        grouped.setdefault(i, []).append(diag)
    return grouped


def _migrate_span(outcome: FileOutcome, span: Span, doc_index: int, is_json: bool, duplicates: list[Diagnostic],
                  target: Target, opts: Options) -> str:
    """The new text of one document (its old text when nothing changes or it is refused).

    An unexpected exception is a wasplan bug; it is reported as WAS504 for this document (which is then left
    as it was) instead of a traceback that would also abandon every other file of the run."""
    try:
        return _migrate_span_checked(outcome, span, doc_index, is_json, duplicates, target, opts)
    except Exception as exc:  # noqa: BLE001 - deliberately broad, see docstring
        line = span.start + 1
        outcome.diagnostics.append(Diagnostic(
            "WAS504", Severity.ERROR, f"internal error while migrating this document: {type(exc).__name__}: {exc}",
            Location(outcome.path, doc_index, (), line, 1), "please report this with the document"))
        return span.text


def _migrate_span_checked(outcome: FileOutcome, span: Span, doc_index: int, is_json: bool,
                          duplicates: list[Diagnostic], target: Target, opts: Options) -> str:
    if duplicates:
        outcome.diagnostics += [_reclassify(d) for d in duplicates]
        return span.text
    root, obj = _parse(span.text, is_json)
    locate = _locator(root, span.start if not is_json else 0)
    plan = plan_document(obj, target, opts)
    _report(outcome, plan, doc_index, locate)
    if plan.refused or not plan.changes:
        return span.text
    ranges = change_ranges(root, [c.path for c in plan.changes]) if root is not None else None
    edited, problems = (edit_json if is_json else edit_yaml)(span, plan, target, opts, ranges)
    outcome.diagnostics += [_diagnostic(outcome.path, doc_index, (), f, locate) for f in problems]
    return span.text if problems else edited


def _reclassify(dup: Diagnostic) -> Diagnostic:
    return Diagnostic("WAS505", Severity.ERROR, f"not migrated: {dup.message}", dup.location, dup.hint)


def _parse(text: str, is_json: bool) -> tuple[Any, Any]:
    """The plain object (as the reader builds it) and, for positions, the composed node."""
    if is_json:
        obj = jsontext.loads(text)
        try:
            return yaml.compose(text, Loader=_Loader), obj
        except yaml.YAMLError:
            return None, obj
    node = yaml.compose(text, Loader=_Loader)
    return node, construct(node, lambda *_: None)


def _locator(root: Any, offset: int) -> Callable[[tuple], tuple[int | None, int | None]]:
    def locate(path: tuple) -> tuple[int | None, int | None]:
        pos = locate_in_node(root, path)
        return (pos[0] + offset, pos[1]) if pos else (None, None)
    return locate


def _report(outcome: FileOutcome, plan: DocumentPlan, doc_index: int, locate: Callable) -> None:
    for obj_plan, finding in plan.findings:
        outcome.diagnostics.append(_diagnostic(outcome.path, doc_index, obj_plan.path, finding, locate))
    if plan.refused:
        return
    for change in plan.changes:
        line, _ = locate(change.path)
        outcome.changes.append(ChangeRecord(outcome.path, doc_index, line, format_path(change.path), change.action,
                                            change.old, change.new))


def _diagnostic(file: str, doc_index: int, prefix: tuple, finding: Finding, locate: Callable) -> Diagnostic:
    path = prefix + tuple(finding.path)
    line, col = locate(path)
    return Diagnostic(finding.code, lookup(finding.code).severity, finding.message,
                      Location(file, doc_index, path, line, col), finding.hint)
