"""Exit codes, decided in one place (DESIGN.md §4) so every command means the same thing by them."""

from __future__ import annotations

import enum
from typing import Iterable

from wasplan.diagnostics import Diagnostic, Severity


class ExitCode(enum.IntEnum):
    OK = 0  # nothing to report at or above the failure threshold
    FINDINGS = 1  # invalid manifest, unschedulable workload, migration needed under --check, ...
    TOOL_ERROR = 2  # the tool could not do its job: bad flag, unreadable file, unparseable input


def for_findings(diags: Iterable[Diagnostic], strict: bool = False) -> ExitCode:
    """0 when nothing reaches the threshold (errors; warnings too with `strict`), else 1."""
    threshold = Severity.WARNING if strict else Severity.ERROR
    return ExitCode.FINDINGS if any(d.severity >= threshold for d in diags) else ExitCode.OK
