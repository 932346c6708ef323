"""Every rejected conformance fixture, through the whole validate pipeline: exact codes and positions.

The `# diagnostics:` line under a document's `# expect:` lists the errors `wasplan validate` must report for
it, as CODE@line:col in file coordinates, in output order, with every gate that makes a fixture's field exist
switched on (a field whose gate is off is dropped by the API server, so it is never an error). `status` is
reset by the API server on create: findings there are warnings, so a document rejected only for its status
lists no errors.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wasplan.api.releases import GateSet, default_gates, get_release
from wasplan.documents import read_paths
from wasplan.diagnostics import Severity
from wasplan.pipeline.validate import validate_read

CONFORMANCE = Path(__file__).resolve().parents[2] / "fixtures" / "conformance"
_DIAGS = re.compile(r"^# diagnostics:(?P<items>.*)$", re.MULTILINE)
_SEPARATOR = re.compile(r"^---\s*$", re.MULTILINE)
FILES = [p for release in ("1.36", "1.37", "1.38") for p in sorted((CONFORMANCE / release).glob("*.yaml"))]


def all_gates(release: str) -> GateSet:
    gates = default_gates(get_release(release))
    return GateSet(gates.release, dict(gates.values, DRAWorkloadResourceClaims=True))


def _expected(path: Path) -> dict[int, list[str]]:
    out = {}
    for index, chunk in enumerate(_SEPARATOR.split(path.read_text())):
        match = _DIAGS.search(chunk)
        if match:
            out[index] = match.group("items").split()
        elif "wasplan=reject" in chunk:
            raise AssertionError(f"{path.name}#{index} is rejected but has no '# diagnostics:' line")
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_rejected_fixtures_report_exact_codes_and_positions(path):
    release = path.parent.name
    report = validate_read(read_paths([str(path)]), all_gates(release))
    actual = {r.doc.index: [f"{d.code}@{d.location.line}:{d.location.col}" for d in r.diagnostics
                            if d.severity is Severity.ERROR] for r in report.results}
    expected = _expected(path)
    assert expected, "the file has no rejected documents to check"
    for index, items in expected.items():
        assert actual.get(index, []) == items, f"{path.name} document {index}"
    accepted = {i for i in actual if i not in expected}
    assert all(actual[i] == [] for i in accepted), "accepted documents must have no errors"
