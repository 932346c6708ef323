"""Filter verdicts and the FitError message kube-scheduler writes when no node fits.

Reason strings are interned to small integers so per-node verdicts can live in numpy arrays; the message
format follows pkg/scheduler/framework/types.go (FitError.Error): `0/N nodes are available: ` then
`"<count> <reason>"` per distinct reason, sorted as strings, joined by ", ", then ".".
"""

from __future__ import annotations

import enum


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


REASONS = Reasons()


def fit_error_message(num_nodes: int, counts: dict[str, int], prefilter_msg: str | None = None) -> str:
    if num_nodes == 0:  # schedule_one.go: ErrNoNodesAvailable, before any filter runs
        return "no nodes available to schedule pods"
    head = f"0/{num_nodes} nodes are available:"
    if prefilter_msg:
        return f"{head} {prefilter_msg}."
    parts = sorted(f"{n} {reason}" for reason, n in counts.items() if n)
    return f"{head} {', '.join(parts)}."
