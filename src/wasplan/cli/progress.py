"""The progress bar of long runs (plan, explain): on stderr, and only when stderr is a terminal, so pipes, CI
logs and `-o json` never see it. It names the phase the pipeline reports (reading, checking, building the
cluster, scheduling, verifying suggestions), shows counts once the phase knows its total, and then an ETA.
While a file is read (the phase "reading FILE") the count is in bytes, so that a dump of hundreds of megabytes
shows the file and how much of it is done.
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
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeRemainingColumn

    bar = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), _count_column(),
                   TimeRemainingColumn(), console=terminal.console(stderr=True), transient=True)
    task = bar.add_task("reading", total=None, in_bytes=False)

    def report(phase: str, done: int, total: int | None) -> None:
        bar.update(task, description=phase, completed=done, total=total, in_bytes=is_byte_phase(phase))

    with bar:
        yield report


def is_byte_phase(phase: str) -> bool:
    """Whether the phase counts bytes (reading a file) rather than objects."""
    return phase.startswith("reading ")


def count_text(done: float, total: float | None, in_bytes: bool) -> str:
    """`12/40` for objects, `120.4/397.0 MB` for bytes (decimal units, as `ls -h --si` and rich print them)."""
    if not in_bytes:
        return f"{int(done)}/{int(total)}" if total is not None else f"{int(done)}"
    mb = 1_000_000
    return f"{done / mb:.1f}/{total / mb:.1f} MB" if total is not None else f"{done / mb:.1f} MB"


def _count_column():
    from rich.progress import ProgressColumn
    from rich.text import Text

    class CountColumn(ProgressColumn):
        """Objects done of their total, or bytes done of the file's size."""

        def render(self, task) -> Text:
            return Text(count_text(task.completed, task.total, task.fields.get("in_bytes", False)),
                        style="progress.download")

    return CountColumn()
