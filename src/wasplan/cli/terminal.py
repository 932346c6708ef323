"""What the terminal allows: how wide text may be, and whether it may be coloured. Decided here once, for every
command's consoles.

Width: `COLUMNS` when set (also when piped: CI logs and `| less` users set it), else the width of whichever of
stdout, stderr or stdin is a terminal, else 80. Colour: `--no-color` or a non-empty `NO_COLOR` switch it off
(https://no-color.org), a non-empty `FORCE_COLOR` switches it on even when piped, otherwise a stream is
coloured only when it is a terminal.
"""

from __future__ import annotations

import os
import sys

DEFAULT_WIDTH = 80
MIN_WIDTH = 40

_state = {"no_color": False}


def set_no_color(value: bool) -> None:
    _state["no_color"] = bool(value)


def width() -> int:
    raw = os.environ.get("COLUMNS", "").strip()
    if raw.isdigit() and int(raw) > 0:
        return max(int(raw), MIN_WIDTH)
    for stream in (sys.stdout, sys.stderr, sys.stdin):
        try:
            columns = os.get_terminal_size(stream.fileno()).columns
        except (AttributeError, ValueError, OSError):
            continue
        if columns > 0:  # a pseudo-terminal without a size reports 0
            return max(columns, MIN_WIDTH)
    return DEFAULT_WIDTH


def for_person(stream) -> bool:
    """Whether `stream` is read by a person (a terminal, or COLUMNS set on purpose) rather than parsed by a
    tool: diagnostics then wrap; otherwise each finding keeps its one compiler-style line."""
    return _isatty(stream) or os.environ.get("COLUMNS", "").strip().isdigit()


def color(stream) -> bool:
    """Whether text written to `stream` may carry colour."""
    if _state["no_color"] or os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def console(stderr: bool = False):
    """A rich Console for stdout (or stderr) at the decided width and colour."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    colored = color(stream)
    return Console(file=stream, width=width(), highlight=False, soft_wrap=False, no_color=not colored,
                   color_system="auto" if colored else None,
                   force_terminal=True if colored and not _isatty(stream) else None,
                   emoji=False)


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
