"""The exit code of each command, one function a command, from what its use case returned and what was asked
(docs/exit-codes.md's table; DESIGN.md §4). The CLI only calls these: no command decides its own exit code.

0: nothing at or above the failure threshold; 1: findings (an invalid manifest, a warning too under `--strict`,
a refused or needed migration, a pod left pending, a target that does not fit); 2: the tool could not do its job
(inputs unreadable or too invalid to use). Failures the CLI finds before a use case runs (a bad flag, an unknown
release) are exit 2 at the CLI's one exception boundary.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wasplan.diagnostics import Severity
from wasplan.exitcodes import ExitCode, for_findings
from wasplan.plan import FailOn

if TYPE_CHECKING:
    from wasplan.pipeline.explain import ExplainRun
    from wasplan.pipeline.migrate import MigrateResult
    from wasplan.pipeline.plan import PlanRun
    from wasplan.pipeline.requests import PlanRequest
    from wasplan.pipeline.validate import ValidationReport
    from wasplan.plandiff import PlanDiff

# Input problems after which no verdict about the manifests is possible at all.
UNREADABLE = frozenset({"WAS001", "WAS009", "WAS012", "WAS016"})


def plan_exit_code(run: PlanRun, request: PlanRequest, diff: PlanDiff | None = None) -> ExitCode:
    """`--fail-on` decides: never < pending (a pod left pending or refused, a workload not planned) < preemption
    (that, or an eviction, or a tie kube-scheduler may draw that evicts); regression: only when the plan got worse
    than the baseline. `--strict`: a warning (an upstream bug the plan reproduces, WAS710; an input read with a
    warning) fails too, whatever decided the rest."""
    if run.invalid or run.plan is None:
        return ExitCode.TOOL_ERROR
    if request.fail_on == FailOn.REGRESSION and diff is not None:
        code = ExitCode.FINDINGS if diff.regressed else ExitCode.OK
    else:
        code = _fail_on(run, request.fail_on)
    if code is ExitCode.OK and request.strict and any(d.severity is Severity.WARNING for d in run.diagnostics):
        return ExitCode.FINDINGS
    return code


def _fail_on(run: PlanRun, fail_on: FailOn) -> ExitCode:
    if fail_on in (FailOn.PENDING, FailOn.PREEMPTION) and not run.plan.complete:
        return ExitCode.FINDINGS
    if fail_on == FailOn.PREEMPTION and (run.plan.preemptions or run.draws_preemption):
        return ExitCode.FINDINGS
    return ExitCode.OK


def explain_exit_code(out: ExplainRun) -> ExitCode:
    """1 when a target does not fit, a pod was refused by admission, or a workload could not be looked at."""
    if out.error or out.run.invalid or out.explanation is None:
        return ExitCode.TOOL_ERROR
    return ExitCode.OK if out.explanation.all_fit and not out.refused else ExitCode.FINDINGS


def validate_exit_code(report: ValidationReport, strict: bool = False) -> ExitCode:
    """2 when nothing could be read to judge; else 1 for an error (a warning too with `strict`)."""
    if any(d.code in UNREADABLE for d in report.input_diagnostics):
        return ExitCode.TOOL_ERROR
    return for_findings(report.diagnostics, strict)


def lint_exit_code(report: ValidationReport, strict: bool = False) -> ExitCode:
    """lint is validate and the checks across objects, in one report: validate's policy over all of it."""
    return validate_exit_code(report, strict)


def migrate_exit_code(result: MigrateResult, check: bool) -> ExitCode:
    """2 when a file could not be read or parsed; 1 for refusals (and pending changes under --check); else 0."""
    if result.tool_error:
        return ExitCode.TOOL_ERROR
    if any(d.severity is Severity.ERROR for d in result.all_diagnostics):
        return ExitCode.FINDINGS
    if check and result.changed:
        return ExitCode.FINDINGS
    return ExitCode.OK
