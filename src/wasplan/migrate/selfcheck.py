"""Prove each edited document means what the typed conversion says it should.

The edit steps and `wasplan.api.convert` are two independent implementations of api-reference §8: the first
edits text-preserving trees, the second builds objects from the hub model. After editing, the round-trip tree
is read back through the typed models and compared with the typed conversion of the original; it is also
compared with the plain-data run of the same steps. Any difference is a bug in one of them, and the document
is not written.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from wasplan.api.convert import to_hub
from wasplan.migrate.checks import Finding
from wasplan.migrate.plan import DocumentPlan


def _at(doc: Any, path: tuple) -> Any:
    for elem in path:
        doc = doc[elem]
    return doc


def self_check(edited: Any, plan: DocumentPlan) -> list[Finding]:
    """Findings (WAS504) for every object whose edited form disagrees; `edited` is plain data."""
    if edited != plan.result:
        return [Finding("WAS504", (), "the round-trip edit and the plain edit of this document differ: "
                        f"{_first_difference(edited, plan.result)}")]
    out = []
    for obj_plan in plan.objects:
        if obj_plan.expected is None:
            continue
        obj = dict(_at(edited, obj_plan.path))
        obj.setdefault("apiVersion", obj_plan.target)
        obj.setdefault("kind", obj_plan.kind)
        actual = to_hub(obj)
        if actual != obj_plan.expected:
            out.append(Finding("WAS504", obj_plan.path, "the migrated object differs from the typed conversion: "
                               f"{_first_difference(asdict(actual), asdict(obj_plan.expected))}"))
    return out


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    """A short pointer at where two plain values diverge, for the bug report."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{path}.{key}" if path else str(key))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path or '(document)'}: {a!r} != {b!r}"
