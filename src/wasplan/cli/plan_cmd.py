"""`wasplan plan`: options -> pipeline -> report -> exit code. Thin on purpose."""

from __future__ import annotations

import enum
import sys
from typing import Callable, List, Optional

import typer
from rich.console import Console

from wasplan.cli.app import app
from wasplan.cli.common import FeatureGatesOpt, K8sVersionOpt, OutputFormat, fail, fail_with_diagnostics, resolve_gates
from wasplan.cli.options import (ConfigOpt, ExcludeOpt, NoConfigOpt, StrictInputsOpt, as_format, load_settings,
                                 output_option)
from wasplan.config.settings import Settings
from wasplan.documents.atomic import write_output_file
from wasplan.pipeline.plan import PlanRun, run_plan
from wasplan.report.diagnostics_text import render as render_diagnostics
from wasplan.report.plan_json import render_plan_json, render_plan_yaml, render_snapshot
from wasplan.report.plan_text import render_text


class Arrival(str, enum.Enum):
    sequential = "sequential"
    batch = "batch"


class FailOn(str, enum.Enum):
    never = "never"
    pending = "pending"
    preemption = "preemption"


PlanFormat, OutputOpt = output_option("plan", OutputFormat.text, OutputFormat.json, OutputFormat.yaml,
                                      OutputFormat.junit, OutputFormat.github)
ClusterOpt = typer.Option([], "--cluster", help="Cluster snapshot (kubectl List or Cluster kind); repeatable. "
                                                "Default: the config file's `cluster`.")


def _progress():
    """A progress bar on stderr, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        return None, None
    from rich.progress import Progress

    bar = Progress(console=Console(stderr=True), transient=True)
    task = bar.add_task("arrivals", total=None)
    return bar, (lambda done, total: bar.update(task, completed=done, total=total))


def _run(plan_with: Callable[[Optional[Callable[[int, int], None]]], PlanRun]) -> PlanRun:
    """Run the plan with a progress bar on a terminal's stderr."""
    bar, progress = _progress()
    if bar is not None:
        bar.start()
    try:
        return plan_with(progress)
    finally:
        if bar is not None:
            bar.stop()


def _emit(run: PlanRun, output: OutputFormat, emit_snapshot: Optional[str], gates, fail_on: str) -> None:
    if emit_snapshot:
        problem = write_output_file(emit_snapshot, render_snapshot(run.final, gates.release))
        if problem is not None:
            fail_with_diagnostics([problem], run.sources)
    if output is OutputFormat.json:
        typer.echo(render_plan_json(run.plan), nl=False)
    elif output is OutputFormat.yaml:
        typer.echo(render_plan_yaml(run.plan), nl=False)
    elif output is OutputFormat.junit:
        from wasplan.report.plan_ci import render_plan

        typer.echo(render_plan(run.plan, run.origins, fail_on), nl=False)
    elif output is OutputFormat.github:
        from wasplan.report.plan_ci import render_plan_github

        typer.echo(render_plan_github(run.plan, run.origins), nl=False)
    else:
        # pipes and CI logs get a wide table instead of rich's 80-column default
        width = None if sys.stdout.isatty() else 160
        render_text(run.plan, Console(highlight=False, soft_wrap=True, width=width))


def plan_settings(k8s_version, feature_gates, cluster, fail_on, strict_inputs, exclude, config, no_config) -> Settings:
    """The options plan and explain share with the config file; no snapshot at all is a usage error."""
    settings = load_settings(config=config, no_config=no_config, k8s_version=k8s_version, feature_gates=feature_gates,
                             cluster=cluster, fail_on=fail_on, strict_inputs=strict_inputs, exclude=exclude)
    if not settings.cluster:
        fail("no cluster snapshot: give --cluster FILE (or `cluster` in the config file)")
    return settings


@app.command()
def plan(
    paths: List[str] = typer.Argument(..., help="Manifests to create: files, directories or - for stdin."),
    cluster: List[str] = ClusterOpt,
    k8s_version: Optional[str] = K8sVersionOpt,
    feature_gates: Optional[str] = FeatureGatesOpt,
    arrival: Arrival = typer.Option(Arrival.sequential, "--arrival",
                                    help="sequential: create objects one by one, scheduling after each; batch: all first."),
    scheduler_config: Optional[str] = typer.Option(None, "--scheduler-config", help="KubeSchedulerConfiguration file."),
    output: PlanFormat = OutputOpt,
    fail_on: Optional[FailOn] = typer.Option(None, "--fail-on",
                                             help="Exit 1 when pods stay pending (pending, the default); also when "
                                                  "the plan evicts any pod (preemption); or never."),
    no_preemption: bool = typer.Option(False, "--no-preemption",
                                       help="Plan without preemption: no PostFilter, no workload-aware preemption."),
    emit_snapshot: Optional[str] = typer.Option(None, "--emit-snapshot", help="Write the cluster after the plan here."),
    strict_inputs: Optional[bool] = StrictInputsOpt,
    exclude: List[str] = ExcludeOpt,
    config: Optional[str] = ConfigOpt,
    no_config: bool = NoConfigOpt,
) -> None:
    """Dry-run kube-scheduler offline: where every pod would go, which groups stay pending and why."""
    fmt = as_format(output)
    settings = plan_settings(k8s_version, feature_gates, cluster, fail_on.value if fail_on else None, strict_inputs,
                             exclude, config, no_config)
    gates = resolve_gates(settings.k8s_version, settings.feature_gates)
    run = _run(lambda progress: run_plan(paths, settings.cluster, gates, arrival=arrival.value,
                                         scheduler_config=scheduler_config, progress=progress,
                                         preemption=not no_preemption, read_options=settings.read_options()))
    if run.error:
        fail(run.error)
    if run.invalid:
        fail_with_diagnostics(run.diagnostics, run.sources)
    if run.diagnostics:  # warnings and notes go to stderr so -o json stays a clean document
        render_diagnostics(run.diagnostics, run.sources, Console(stderr=True, highlight=False, soft_wrap=True))
    _emit(run, fmt, emit_snapshot, gates, settings.fail_on)
    raise typer.Exit(int(run.exit_code(settings.fail_on)))
