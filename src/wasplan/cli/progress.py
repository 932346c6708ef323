"""The progress bar of long runs (plan, explain): on stderr, and only when stderr is a terminal, so pipes, CI
logs and `-o json` never see it. It names the phase the pipeline reports (reading, checking, building the
cluster, scheduling, verifying suggestions), shows counts once the phase knows its total, and then an ETA.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Callable, Iterator, Optional

from wasplan.cli import terminal

Report = Callable[[str, int, Optional[int]], None]


@contextmanager
def phase_bar() -> Iterator[Report | None]:
    """Yields `report(phase, done, total)` (total None while unknown), or None when stderr is not a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, \
        TimeRemainingColumn

    bar = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TimeRemainingColumn(), console=terminal.console(stderr=True), transient=True)
    task = bar.add_task("reading", total=None)

    def report(phase: str, done: int, total: int | None) -> None:
        bar.update(task, description=phase, completed=done, total=total)

    with bar:
        yield report
