"""Each command's exit-code function (pipeline/exits.py) against docs/exit-codes.md's table: every case names
the words of the table's row that promise its code, so the table and the functions cannot drift apart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wasplan.api.releases import default_gates, get_release
from wasplan.diagnostics import Diagnostic, Location, Severity
from wasplan.exitcodes import ExitCode
from wasplan.explain.model import Explanation, TargetExplanation
from wasplan.explain.verdicts import Verdict
from wasplan.migrate.files import FileOutcome
from wasplan.migrate.targets import Target
from wasplan.pipeline.exits import (explain_exit_code, lint_exit_code, migrate_exit_code, plan_exit_code,
                                    validate_exit_code)
from wasplan.pipeline.explain import ExplainRun
from wasplan.pipeline.migrate import MigrateResult
from wasplan.pipeline.plan import PlanRun
from wasplan.pipeline.requests import PlanRequest
from wasplan.pipeline.validate import ValidationReport
from wasplan.plan import Alternative, FailOn, GroupOutcome, GroupStatus, Plan, PodOutcome, PodStatus, \
    Preemption, UnplannedWorkload, Victim
from wasplan.plandiff import diff_plans

TABLE = Path(__file__).resolve().parent.parent / "docs" / "exit-codes.md"
GATES = default_gates(get_release("1.37"))


def rows() -> dict[int, str]:
    """The `| code | meaning |` rows of the Exit codes table."""
    section = TABLE.read_text().split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    return {int(m[1]): m[2] for m in re.finditer(r"^\| (\d) \| (.+) \|$", section, re.M)}


def diag(code: str, severity: Severity) -> Diagnostic:
    return Diagnostic(code, severity, "a finding", Location("app.yaml", 0, (), 1, 1))


def pods(*statuses: PodStatus) -> tuple[PodOutcome, ...]:
    return tuple(PodOutcome("ns", f"p{i}", s, node="n1" if s == PodStatus.BOUND else None)
                 for i, s in enumerate(statuses))


def plan_run(*statuses: PodStatus, diagnostics=(), **plan) -> PlanRun:
    return PlanRun(plan=Plan("1.37", 1, pods(*statuses), **plan), diagnostics=list(diagnostics))


def plan(run: PlanRun, fail_on: FailOn = FailOn.PENDING, strict: bool = False, diff=None) -> ExitCode:
    return plan_exit_code(run, PlanRequest((), (), GATES, fail_on=fail_on, strict=strict), diff)


def regressed(worse: bool):
    """A real diff: the base plan bound the pod; the head leaves it pending (worse) or binds it too."""
    base = plan_run(PodStatus.BOUND).plan.to_dict()
    return diff_plans(base, plan_run(PodStatus.PENDING if worse else PodStatus.BOUND).plan.to_dict())


def report(*diagnostics: Diagnostic, input_problem: Diagnostic | None = None) -> ValidationReport:
    return ValidationReport(GATES, input_diagnostics=[input_problem] if input_problem else [],
                            lint_diagnostics=list(diagnostics))


def migration(*files: FileOutcome, problem: Diagnostic | None = None) -> MigrateResult:
    return MigrateResult(Target("1.37"), list(files), [problem] if problem else [])


def explained(verdict: Verdict | None = None, refused: int = 0, **run) -> ExplainRun:
    targets = (TargetExplanation("PodGroup", "ns", "g", verdict, "why"),) if verdict else ()
    return ExplainRun(plan_run(PodStatus.BOUND, **run), Explanation("1.37", 1, targets), refused=refused)


EVICTION = Preemption("Pod", "ns", "p0", (Victim("ns", "old", "n1", 0),))
DRAWN = GroupOutcome("ns", "g", "gang", 1, GroupStatus.SCHEDULED,
                     alternatives=(Alternative("k=x", ("n1",), (), True), Alternative("k=y", ("n2",), ("ns/a",))))
UNPLANNED = UnplannedWorkload("PyTorchJob", "ns", "train")
WARNING, ERROR = diag("WAS710", Severity.WARNING), diag("WAS101", Severity.ERROR)
CHANGED = FileOutcome("a.yaml", "old", "new")
REFUSED = FileOutcome("a.yaml", "old", None, diagnostics=[ERROR])

# (case, the words of the row that promise the code, the code, what the function returns)
CASES = [
    ("plan: every pod bound", "nothing to report", 0, lambda: plan(plan_run(PodStatus.BOUND))),
    ("plan: a warning without --strict", "with `--strict`, warnings too", 0,
     lambda: plan(plan_run(PodStatus.BOUND, diagnostics=[WARNING]))),
    ("plan: a warning with --strict", "with `--strict`, a warning too, on every command", 1,
     lambda: plan(plan_run(PodStatus.BOUND, diagnostics=[WARNING]), strict=True)),
    ("plan: a pod pending", "a pod left pending", 1, lambda: plan(plan_run(PodStatus.BOUND, PodStatus.PENDING))),
    ("plan: a pod refused", "or refused", 1, lambda: plan(plan_run(PodStatus.REFUSED))),
    ("plan: a workload not planned", "a workload not planned", 1,
     lambda: plan(plan_run(PodStatus.BOUND, unplanned=(UNPLANNED,)))),
    ("plan: pending under --fail-on never", "nothing to report", 0,
     lambda: plan(plan_run(PodStatus.PENDING), FailOn.NEVER)),
    ("plan: an eviction under --fail-on pending", "nothing to report", 0,
     lambda: plan(plan_run(PodStatus.BOUND, preemptions=(EVICTION,)))),
    ("plan: an eviction under --fail-on preemption", "also an eviction (`--fail-on preemption`)", 1,
     lambda: plan(plan_run(PodStatus.BOUND, preemptions=(EVICTION,)), FailOn.PREEMPTION)),
    ("plan: a tie that may evict under --fail-on preemption", "also an eviction (`--fail-on preemption`)", 1,
     lambda: plan(plan_run(PodStatus.BOUND, pod_groups=(DRAWN,)), FailOn.PREEMPTION)),
    ("plan: worse than the baseline", "only a plan worse than `--baseline`", 1,
     lambda: plan(plan_run(PodStatus.PENDING), FailOn.REGRESSION, diff=regressed(True))),
    ("plan: pending as in the baseline", "nothing to report", 0,
     lambda: plan(plan_run(PodStatus.PENDING), FailOn.REGRESSION, diff=regressed(False))),
    ("plan: invalid inputs", "inputs too invalid to plan or explain", 2,
     lambda: plan(PlanRun(diagnostics=[ERROR]))),
    ("plan: a bad --scheduler-config", "a bad flag or config file", 2, lambda: plan(PlanRun(error="bad config"))),
    ("explain: the target fits", "nothing to report", 0, lambda: explain_exit_code(explained(Verdict.FITS))),
    ("explain: the target does not fit", "an explain target that does not fit", 1,
     lambda: explain_exit_code(explained(Verdict.DOES_NOT_FIT))),
    ("explain: a pod refused", "or refused", 1, lambda: explain_exit_code(explained(refused=1))),
    ("explain: invalid inputs", "inputs too invalid to plan or explain", 2,
     lambda: explain_exit_code(ExplainRun(PlanRun(diagnostics=[ERROR])))),
    ("validate: clean", "nothing to report", 0, lambda: validate_exit_code(report())),
    ("validate: an invalid manifest", "an invalid manifest", 1, lambda: validate_exit_code(report(ERROR))),
    ("validate: a warning", "errors; with `--strict`, warnings too", 0, lambda: validate_exit_code(report(WARNING))),
    ("validate: a warning with --strict", "a warning too", 1, lambda: validate_exit_code(report(WARNING), True)),
    ("validate: no manifests", "no manifests found", 2,
     lambda: validate_exit_code(report(input_problem=diag("WAS009", Severity.ERROR)))),
    ("validate: a FIFO", "an unreadable or special file", 2,
     lambda: validate_exit_code(report(input_problem=diag("WAS016", Severity.ERROR)))),
    ("lint: an invalid manifest", "an invalid manifest", 1, lambda: lint_exit_code(report(ERROR))),
    ("lint: a warning with --strict", "a warning too, on every command", 1,
     lambda: lint_exit_code(report(WARNING), True)),
    ("lint: no manifests", "no manifests found", 2,
     lambda: lint_exit_code(report(input_problem=diag("WAS009", Severity.ERROR)))),
    ("migrate: converted", "nothing to report", 0, lambda: migrate_exit_code(migration(CHANGED), check=False)),
    ("migrate: refused", "a refused migration", 1, lambda: migrate_exit_code(migration(REFUSED), check=False)),
    ("migrate --check: a change needed", "a migration needed", 1,
     lambda: migrate_exit_code(migration(CHANGED), check=True)),
    ("migrate: an unparseable file", "the tool could not do its job", 2,
     lambda: migrate_exit_code(migration(FileOutcome("a.yaml", "", None, fatal=True)), check=False)),
    ("migrate: no manifests", "no manifests found", 2,
     lambda: migrate_exit_code(migration(problem=diag("WAS009", Severity.ERROR)), check=False)),
]


@pytest.mark.parametrize(("words", "code", "decide"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_command_exits_as_the_table_says(words, code, decide):
    assert words in rows()[code], f"docs/exit-codes.md's row {code} no longer says {words!r}"
    assert decide() == code


def test_the_table_has_the_three_codes_the_enum_has():
    assert sorted(rows()) == sorted(int(c) for c in ExitCode)


def test_every_command_s_function_is_held_to_the_table():
    named = {c[0].split(":")[0].split(" ")[0] for c in CASES}
    assert named == {"plan", "explain", "validate", "lint", "migrate"}
