"""Where parse-layer findings go: a small context that knows the document and the field prefix.

Records are often built from part of a bigger document (a Job's pod template, a pool inside a `Cluster`), so
findings about them must point at the field inside that document. `Ctx.at(...)` narrows the prefix; `report`
turns a relative field path into a `Diagnostic` with file, line and column through `Document.location`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from wasplan.codes import lookup
from wasplan.diagnostics import Diagnostic, FieldPath, Location

MEMORY_SOURCE = "<memory>"


@dataclass(slots=True)
class Ctx:
    """Where the parser reports: the document, the findings list and the field path so far."""

    doc: Any  # Document | None
    diags: list[Diagnostic] = field(default_factory=list)
    prefix: FieldPath = ()
    # maps a field path of the object being read to the document's own, when the reader sees a converted
    # object (a resource.k8s.io/v1beta1 one rewritten to v1: wasplan.cluster.dra_v1beta1)
    paths: Callable[[FieldPath], FieldPath] | None = None

    def at(self, *path: str | int) -> "Ctx":
        return Ctx(self.doc, self.diags, self.prefix + tuple(path), self.paths)

    def location(self, path: FieldPath = ()) -> Location:
        full = self.prefix + tuple(path)
        if self.paths is not None:
            full = self.paths(full)
        if self.doc is None:
            return Location(MEMORY_SOURCE, None, full)
        return self.doc.location(full)

    def report(self, code: str, message: str, path: FieldPath = (), hint: str | None = None) -> None:
        self.diags.append(Diagnostic(code, lookup(code).severity, message, self.location(path), hint))

    def subject(self) -> str:
        """`Pod/ns/name` for messages, or the kind alone when the document has no name."""
        return self.doc.describe() if self.doc is not None else "object"
