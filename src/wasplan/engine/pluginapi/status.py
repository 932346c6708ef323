"""Filter verdicts and the FitError message kube-scheduler writes when no node fits.

Reason strings are interned to small integers so per-node verdicts can live in numpy arrays. The plugins intern
their fixed reasons when imported; reasons made from the input (`Insufficient <resource>`) are interned while
planning, into the table of the run (`reason_table()`, entered by each
pipeline call), so a long-lived process that plans many inputs does not keep every reason it ever saw. The
message format follows pkg/scheduler/framework/types.go (FitError.Error): `0/N nodes are available: ` then
`"<count> <reason>"` per distinct reason, sorted as strings, joined by ", ", then ".".
"""

from __future__ import annotations

import contextlib
import contextvars
import enum
from typing import Iterator


class Code(enum.IntEnum):
    SUCCESS = 0
    UNSCHEDULABLE = 1
    UNRESOLVABLE = 2  # UnschedulableAndUnresolvable: preemption cannot help on that node


class Reasons:
    """Interns reason strings; id 0 means 'passed'."""

    def __init__(self) -> None:
        self.text: list[str] = [""]
        self.code: list[Code] = [Code.SUCCESS]
        self._ids: dict[tuple[str, Code], int] = {}

    def intern(self, text: str, code: Code) -> int:
        key = (text, code)
        found = self._ids.get(key)
        if found is None:
            found = len(self.text)
            self.text.append(text)
            self.code.append(code)
            self._ids[key] = found
        return found

    def copy(self) -> "Reasons":
        out = Reasons()
        out.text, out.code, out._ids = list(self.text), list(self.code), dict(self._ids)
        return out


_FIXED = Reasons()  # the plugins' reasons, interned at import (and any interned outside a run's table)
_RUN: contextvars.ContextVar[Reasons | None] = contextvars.ContextVar("wasplan_reasons", default=None)


class _CurrentReasons:
    """The table of the run in progress, else the fixed one; ids of the fixed reasons mean the same in both."""

    @staticmethod
    def _table() -> Reasons:
        return _RUN.get() or _FIXED

    @property
    def text(self) -> list[str]:
        return self._table().text

    @property
    def code(self) -> list[Code]:
        return self._table().code

    def intern(self, text: str, code: Code) -> int:
        return self._table().intern(text, code)


REASONS = _CurrentReasons()


@contextlib.contextmanager
def reason_table() -> Iterator[None]:
    """A run's own reason table, dropped when the run ends; a nested call shares the outer run's table."""
    if _RUN.get() is not None:
        yield
        return
    token = _RUN.set(_FIXED.copy())
    try:
        yield
    finally:
        _RUN.reset(token)


def fit_error_message(num_nodes: int, counts: dict[str, int], prefilter_msg: str | None = None) -> str:
    if num_nodes == 0:  # schedule_one.go: ErrNoNodesAvailable, before any filter runs
        return "no nodes available to schedule pods"
    head = f"0/{num_nodes} nodes are available:"
    if prefilter_msg:
        return f"{head} {prefilter_msg}."
    parts = sorted(f"{n} {reason}" for reason, n in counts.items() if n)
    return f"{head} {', '.join(parts)}."
