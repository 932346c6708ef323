"""Every fixture case through the CLI: output, exit code, codes, untouched refusals, idempotence."""

from __future__ import annotations

import pytest

from .harness import CASES, files_of, invoke, load, run_in_place


@pytest.mark.parametrize("name", CASES)
def test_in_place_output_matches_expected(name, tmp_path):
    case = load(name)
    result, report, written = run_in_place(case, tmp_path)
    assert result.exit_code == case.exit, result.stdout + result.stderr
    assert sorted({d["code"] for d in report["diagnostics"]}) == sorted(set(case.codes))
    assert written == files_of(case.expected)


@pytest.mark.parametrize("name", [c for c in CASES if load(c).exit != 0])
def test_refused_input_is_left_byte_identical(name, tmp_path):
    case = load(name)
    _, report, written = run_in_place(case, tmp_path)
    assert written == files_of(case.input)
    assert report["summary"]["written"] == 0
    for d in report["diagnostics"]:
        if d["severity"] == "error":
            assert d["line"] and d["file"].endswith(".yaml") and d["message"]


@pytest.mark.parametrize("name", [c for c in CASES if load(c).input.is_file()])
def test_stdout_is_the_migrated_file(name):
    case = load(name)
    result = invoke(str(case.input), *case.args)
    assert result.exit_code == case.exit
    assert result.stdout.encode() == case.expected.read_bytes()


@pytest.mark.parametrize("name", CASES)
def test_check_reports_pending_changes_and_writes_nothing(name):
    case = load(name)
    before = files_of(case.input)
    result = invoke(str(case.input), *case.args, "--check")
    changed = files_of(case.expected) != before
    assert result.exit_code == (1 if changed or case.exit else 0)
    assert files_of(case.input) == before
    if changed:
        assert "would migrate" in result.stderr


@pytest.mark.parametrize("name", [c for c in CASES if load(c).exit == 0])
def test_migrating_the_output_again_changes_nothing(name):
    case = load(name)
    result = invoke(str(case.expected), *[a for a in case.args if a != "--keep-status"], "--check")
    assert result.exit_code == 0, result.stderr
