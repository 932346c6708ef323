"""`wasplan plan`: options -> pipeline -> report -> exit code. Thin on purpose."""

from __future__ import annotations

import enum
from typing import List, Optional

import typer

from wasplan.cli import terminal
from wasplan.cli.app import app
from wasplan.cli.common import (FeatureGatesOpt, K8sVersionOpt, OutputFormat, check_formats, fail, output_option,
                                print_diagnostics, resolve_gates)
from wasplan.cli.progress import phase_bar
from wasplan.exitcodes import ExitCode
from wasplan.pipeline.plan import PlanRun, run_plan


class Arrival(str, enum.Enum):
    sequential = "sequential"
    batch = "batch"


class FailOn(str, enum.Enum):
    never = "never"
    pending = "pending"
    preemption = "preemption"
    regression = "regression"


_FORMATS = (OutputFormat.text, OutputFormat.json, OutputFormat.yaml, OutputFormat.github)


def _snapshot(run: PlanRun, path: str, gates) -> None:
    from wasplan.report.plan_json import render_snapshot

    with open(path, "w", encoding="utf-8") as fh:
        fh.write(render_snapshot(run.final, gates.release))


def _emit(run: PlanRun, output: OutputFormat, verbose: bool) -> None:
    from wasplan.report.plan_json import render_plan_json, render_plan_yaml

    if output is OutputFormat.json:
        typer.echo(render_plan_json(run.plan), nl=False)
    elif output is OutputFormat.yaml:
        typer.echo(render_plan_yaml(run.plan), nl=False)
    else:
        from wasplan.report.plan_text import render_text

        render_text(run.plan, terminal.console(), verbose=verbose)


def _diff(run: PlanRun, baseline: str, output: OutputFormat, fail_on: FailOn) -> ExitCode:
    """Compare with the baseline Plan; the exit code follows --fail-on (regression: only when worse)."""
    from wasplan.pipeline.baseline import read_baseline
    from wasplan.plandiff import diff_plans
    from wasplan.report import plandiff

    base = read_baseline(baseline, run.plan.k8s_version)
    if base.diagnostics:
        print_diagnostics(base.diagnostics, base.sources)
    if base.invalid:
        return ExitCode.TOOL_ERROR
    diff = diff_plans(base.plan, run.plan.to_dict())
    if output is OutputFormat.json:
        typer.echo(plandiff.render_diff_json(diff), nl=False)
    elif output is OutputFormat.github:
        typer.echo(plandiff.render_diff_github(diff, fail_on is FailOn.regression), nl=False)
    elif output is OutputFormat.yaml:
        import yaml

        typer.echo(yaml.safe_dump(diff.to_dict(), sort_keys=False), nl=False)
    else:
        plandiff.render_diff_text(diff, terminal.console())
    if fail_on is FailOn.regression:
        return ExitCode.FINDINGS if diff.regressed else ExitCode.OK
    return run.exit_code(fail_on.value)


def _check(output: OutputFormat, fail_on: FailOn, baseline: Optional[str]) -> None:
    check_formats(output, _FORMATS, "plan")
    if baseline is None and fail_on is FailOn.regression:
        fail("--fail-on regression compares with a baseline: add --baseline PLAN.json")
    if baseline is None and output is OutputFormat.github:
        fail("plan -o github annotates a plan diff: add --baseline PLAN.json")


@app.command()
def plan(
    paths: List[str] = typer.Argument(..., metavar="PATH...",
                                      help="Manifests to create: files, directories or - for stdin."),
    cluster: List[str] = typer.Option(..., "--cluster", metavar="FILE",
                                      help="Cluster snapshot (kubectl List or Cluster kind); repeatable."),
    k8s_version: str = K8sVersionOpt,
    feature_gates: Optional[str] = FeatureGatesOpt,
    arrival: Arrival = typer.Option(Arrival.sequential, "--arrival",
                                    help="sequential: create objects one by one, scheduling after each; batch: all first."),
    scheduler_config: Optional[str] = typer.Option(None, "--scheduler-config", metavar="FILE",
                                                   help="KubeSchedulerConfiguration file."),
    output: OutputFormat = output_option(_FORMATS, "text, json or yaml; with --baseline the diff in these or "
                                                   "github (annotations)."),
    fail_on: FailOn = typer.Option(FailOn.pending, "--fail-on",
                                   help="Exit 1 when pods stay pending (pending); also when the plan evicts any "
                                        "pod (preemption); only when the plan got worse than --baseline "
                                        "(regression); or never."),
    no_preemption: bool = typer.Option(False, "--no-preemption",
                                       help="Plan without preemption: no PostFilter, no workload-aware preemption."),
    emit_snapshot: Optional[str] = typer.Option(None, "--emit-snapshot", metavar="FILE",
                                                help="Write the cluster after the plan here."),
    baseline: Optional[str] = typer.Option(None, "--baseline", metavar="FILE",
                                           help="A Plan saved earlier (-o json): report what changed against it."),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="List every pending pod, not one line per group."),
) -> None:
    """Dry-run kube-scheduler offline: where every pod would go, which groups stay pending and why.

    Examples:

    \b
      wasplan plan manifests/ --cluster cluster.yaml
      wasplan plan job.yaml --cluster cluster.yaml -o json > plan.json
      wasplan plan manifests/ --cluster cluster.yaml --baseline base.json \\
          --fail-on regression
      kubectl get nodes,pods -A -o yaml > snap.yaml
      wasplan plan manifests/ --cluster snap.yaml --emit-snapshot after.yaml
    """
    _check(output, fail_on, baseline)
    gates = resolve_gates(k8s_version, feature_gates)
    with phase_bar() as progress:
        run = run_plan(paths, cluster, gates, arrival=arrival.value, scheduler_config=scheduler_config,
                       preemption=not no_preemption, **({"progress": progress} if progress else {}))
    if run.error:
        fail(run.error)
    if run.diagnostics:  # warnings and notes go to stderr so -o json stays a clean document
        print_diagnostics(run.diagnostics, run.sources)
    if run.invalid:
        raise typer.Exit(int(run.exit_code(fail_on.value)))
    if emit_snapshot:
        _snapshot(run, emit_snapshot, gates)
    if baseline is not None:
        raise typer.Exit(int(_diff(run, baseline, output, fail_on)))
    _emit(run, output, verbose)
    raise typer.Exit(int(run.exit_code(fail_on.value)))
