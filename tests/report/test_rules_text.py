"""`wasplan rules` at 80 and 120 columns: the summary beside the code when it fits, beneath it otherwise, and
prose wrapped between words."""

from __future__ import annotations

from tests.cli.helpers import run


def test_the_list_puts_the_summary_beneath_at_80_and_beside_at_120():
    assert run("rules", env={"COLUMNS": "80"}).stdout.splitlines()[:4] == [
        "WAS001  unreadable-file                   error",
        "        The file or directory could not be read.",
        "WAS002  binary-file                       error",
        "        The file is binary (contains NUL bytes), not a manifest.",
    ]
    assert run("rules", env={"COLUMNS": "120"}).stdout.splitlines()[0] == \
        "WAS001  unreadable-file                   error    The file or directory could not be read."


def test_one_rule_wraps_its_prose_at_80_columns():
    lines = run("rules", "WAS680", env={"COLUMNS": "80"}).stdout.splitlines()
    assert lines[2:5] == [
        "The file given to `plan --baseline` is not one wasplan Plan document: another",
        "kind or apiVersion (a ValidationReport, a manifest), or several documents. The",
        "finding points at the kind, apiVersion or second document; the run exits 2.",
    ]
    assert lines[-2:] == ["How to fix: Save the baseline with `wasplan plan ... -o json` (or `-o yaml`) and",
                          "    pass that file (docs/plan-diff.md)."]
    assert max(len(line) for line in lines) <= 80
