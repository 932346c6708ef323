"""A log without colour gets findings as plain strings (report/diagnostics_text.py's fast path): the bytes must
be those rich prints, for every shape a finding takes (source line or none, caret column, hint, tabs, control
codes, trailing spaces, lines wider than the console, non-ASCII), with whichever rich is installed (rich 13
strips a line's trailing spaces, rich 15 keeps them: such a finding goes through rich)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from wasplan.diagnostics import Diagnostic, Location, Severity
from wasplan.documents.model import SourceFile
from wasplan.report.diagnostics_text import log_lines, render, render_one

SOURCE = SourceFile("jobs.yaml", "apiVersion: batch/v1\nkind: Job\nmetadata:\n\tname: tabbed\t# a tab\n"
                                 "  labels: {kueue.x-k8s.io/queue-name: \u00e9quipe-\u00e0}\r\n"
                                 "  annotations: {note: \"bell\x07here\"}\n" + "  x: " + "y" * 150 + "\n")

FINDINGS = [
    Diagnostic("WAS690", Severity.INFO, "Job ml/train-0001 is admitted by Kueue: flavor on-demand",
               Location("jobs.yaml", 0, (), 5, 3)),
    Diagnostic("WAS101", Severity.ERROR, "unknown field \"metadata.\tname\"", Location("jobs.yaml", 0, (), 4, 2),
               hint="x\tindent with spaces, not tabs"),
    Diagnostic("WAS691", Severity.WARNING, "Kueue does not admit it: " + "couldn't assign flavors " * 12,
               Location("jobs.yaml", 0, (), 7, 40), hint="raise the nominal quota\x07 of cq-a"),
    Diagnostic("WAS692", Severity.WARNING, "not modelled", Location("<plan>")),
    Diagnostic("WAS693", Severity.WARNING, "line beyond the file", Location("jobs.yaml", 0, (), 99, 1)),
    Diagnostic("WAS694", Severity.WARNING, "carriage\rreturn and \u00e9", Location("other.yaml", 0, (), 1, 1)),
    Diagnostic("WAS695", Severity.WARNING, "bell in source", Location("jobs.yaml", 0, (), 6, 1)),
]


@pytest.mark.parametrize("width", [40, 80, 200])
def test_the_plain_log_is_what_rich_prints(width):
    sources = {"jobs.yaml": SOURCE}
    by_rich, fast = io.StringIO(), io.StringIO()
    rich_console = Console(file=by_rich, width=width, color_system=None, no_color=True, highlight=False,
                           soft_wrap=False, emoji=False)
    for d in FINDINGS:
        render_one(d, sources, rich_console, wrap=False)
    render(FINDINGS, sources, Console(file=fast, width=width, color_system=None, no_color=True, highlight=False,
                                      soft_wrap=False, emoji=False), wrap=False)
    assert fast.getvalue() == by_rich.getvalue()
    lines = fast.getvalue().splitlines()
    assert lines[0] == "jobs.yaml:5:3: info WAS690 Job ml/train-0001 is admitted by Kueue: flavor on-demand"
    assert lines[1] == "      labels: {kueue.x-k8s.io/queue-name: \u00e9quipe-\u00e0}"
    assert lines[2] == "      ^"


def test_a_coloured_console_still_goes_through_rich():
    out = io.StringIO()
    render(FINDINGS[:1], {"jobs.yaml": SOURCE}, Console(file=out, width=80, force_terminal=True,
                                                        color_system="standard"), wrap=False)
    assert "\x1b[" in out.getvalue()
    assert "info" in out.getvalue() and "WAS690" in out.getvalue()


def test_plain_findings_take_the_fast_path_and_the_others_go_through_rich():
    sources = {"jobs.yaml": SOURCE}
    fast = [d.code for d in FINDINGS if log_lines(d, sources) is not None]
    assert fast == ["WAS690", "WAS692", "WAS693"]
