"""Statuses, verdicts and modes are enums, used by name: no module compares a status, verdict, arrival mode or
fail-on setting with a string literal that one of those enums holds (`outcome.status == "WaitingForPods"` instead
of `GroupStatus.WAITING_FOR_PODS`), so a renamed value cannot leave a comparison silently false. The rule is read
from the source with `ast`; the names that hold such values are listed in `HOLDERS`."""

from __future__ import annotations

import ast
from enum import Enum
from pathlib import Path

from tests.conftest import ROOT
from wasplan.explain.verdicts import Verdict
from wasplan.plan import Arrival, ClaimStatus, FailOn, GroupStatus, PodStatus
from wasplan.validate.checker import DocumentVerdict

ENUMS: tuple[type[Enum], ...] = (PodStatus, GroupStatus, ClaimStatus, Arrival, FailOn, Verdict, DocumentVerdict)
VALUES = {member.value for enum in ENUMS for member in enum}
HOLDERS = {"status", "verdict", "arrival", "fail_on"}  # attribute or variable names that hold one of those values


def _holder(node: ast.AST) -> bool:
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    return name in HOLDERS


def _literals(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for e in node.elts for s in _literals(e)]
    return []


def offending_comparisons(source: str) -> list[tuple[int, str]]:
    """(line, literal) for each comparison of an enum-holding name with a literal that an enum holds."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        if not any(_holder(s) for s in sides):
            continue
        found += [(node.lineno, lit) for s in sides for lit in _literals(s) if lit in VALUES]
    return found


def test_no_status_verdict_or_mode_is_compared_with_a_string_literal():
    offences = []
    for path in sorted((ROOT / "src" / "wasplan").rglob("*.py")):
        for line, literal in offending_comparisons(path.read_text(encoding="utf-8")):
            offences.append(f"{path.relative_to(ROOT)}:{line}: {literal!r}")
    assert not offences, offences


def test_the_check_finds_a_literal_comparison_and_passes_the_enum():
    assert offending_comparisons('if outcome.status == "WaitingForPods":\n    pass\n') == [(1, "WaitingForPods")]
    assert offending_comparisons('ok = fail_on in ("pending", "preemption")\n') == [(1, "pending"), (1, "preemption")]
    assert offending_comparisons("if outcome.status == GroupStatus.WAITING_FOR_PODS:\n    pass\n") == []
    assert offending_comparisons('if doc.group == "batch":\n    pass\n') == []  # an API group, not an arrival mode


def test_the_modes_serialise_as_their_plain_values():
    import json

    import yaml

    record = {"arrival": str(Arrival.BATCH), "failOn": str(FailOn.PREEMPTION)}
    assert json.dumps(record) == '{"arrival": "batch", "failOn": "preemption"}'
    assert yaml.safe_load(yaml.safe_dump(record)) == {"arrival": "batch", "failOn": "preemption"}
