"""Validation before and after a migration, each one call: `source_problems` and `target_problems`.

Both are `wasplan validate` on one object (`wasplan.validate.checker.check_document`, every workload-aware gate
on), so a document invalid for its own version is reported exactly as validate would report it, and nothing
is written that validate would reject at the target. 1.35 (`v1alpha1`) is not a release validate supports;
for it the upstream strict 1.35 schema and the one rule the conversion relies on (policy is a union) are
checked here.
"""

from __future__ import annotations

from dataclasses import dataclass

from wasplan.api.releases import RELEASES, default_gates
from wasplan.diagnostics import Severity
from wasplan.documents.model import Document
from wasplan.validate import schemas
from wasplan.validate.schema_errors import SchemaErrorMapper
from wasplan.validate.checker import check_document


@dataclass(frozen=True)
class Finding:
    """A problem with one object: diagnostic code, field path inside the object, message."""

    code: str
    path: tuple
    message: str
    hint: str | None = None


def _validate(obj: dict, release: str) -> list[Finding]:
    result = check_document(Document("", 0, obj), default_gates(RELEASES[release]))
    return [Finding(d.code, tuple(d.location.path), d.message, d.hint)
            for d in result.diagnostics if d.severity is Severity.ERROR]


def _v1alpha1(obj: dict) -> list[Finding]:
    """1.35 Workloads: no release of ours serves them, so wasplan's own v1alpha1 schema (upstream's 1.35 strict
    schema plus the server rules, the podGroups policy union among them) decides."""
    check = schemas.validator(str(obj.get("apiVersion")), str(obj.get("kind")))
    if check is None:
        return [Finding("WAS505", ("apiVersion",), f"Kubernetes 1.35 serves no {obj.get('apiVersion')} {obj.get('kind')}")]
    mapper = SchemaErrorMapper(Document("", 0, obj), [schemas.shared_schema(obj["apiVersion"], obj["kind"])])
    return [Finding("WAS505", d.location.path, f"schema (1.35): {d.message}", d.hint)
            for d in mapper.map(check.iter_errors(obj))]


def source_problems(obj: dict, release: str) -> list[Finding]:
    """Why `obj` is invalid for the release that serves its own version (empty when valid)."""
    if release == "1.35":
        return _v1alpha1(obj)
    return _validate(obj, release)


def target_problems(obj: dict, release: str) -> list[Finding]:
    """Why the migrated `obj` would be rejected by the target release (empty when it would be accepted)."""
    return [Finding("WAS503", f.path, f"Kubernetes {release} would reject the result: {f.message} ({f.code})", f.hint)
            for f in _validate(obj, release)]


def unchanged_problems(obj: dict, release: str) -> list[Finding]:
    """Why the target release rejects `obj`, which needs no migration (already at a version it serves): `--check`
    must not be green on documents the target rejects just because migrate has nothing to change in them."""
    return [Finding("WAS114", f.path, f"Kubernetes {release} rejects this document (it needs no migration): "
                                      f"{f.message} ({f.code})", f.hint)
            for f in _validate(obj, release)]
