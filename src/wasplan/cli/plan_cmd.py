"""`wasplan plan`: options -> pipeline -> report -> exit code. Thin on purpose."""

from __future__ import annotations

import enum
import sys
from typing import List, Optional

import typer
from rich.console import Console

from wasplan.cli.app import app
from wasplan.cli.common import FeatureGatesOpt, K8sVersionOpt, OutputFormat, check_formats, fail, fail_with_diagnostics, resolve_gates
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


_FORMATS = (OutputFormat.text, OutputFormat.json, OutputFormat.yaml)


def _progress():
    """A progress bar on stderr, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        return None, None
    from rich.progress import Progress

    bar = Progress(console=Console(stderr=True), transient=True)
    task = bar.add_task("arrivals", total=None)
    return bar, (lambda done, total: bar.update(task, completed=done, total=total))


def _emit(run: PlanRun, output: OutputFormat, emit_snapshot: Optional[str], gates) -> None:
    if emit_snapshot:
        problem = write_output_file(emit_snapshot, render_snapshot(run.final, gates.release))
        if problem is not None:
            fail_with_diagnostics([problem], run.sources)
    if output is OutputFormat.json:
        typer.echo(render_plan_json(run.plan), nl=False)
    elif output is OutputFormat.yaml:
        typer.echo(render_plan_yaml(run.plan), nl=False)
    else:
        # pipes and CI logs get a wide table instead of rich's 80-column default
        width = None if sys.stdout.isatty() else 160
        render_text(run.plan, Console(highlight=False, soft_wrap=True, width=width))


@app.command()
def plan(
    paths: List[str] = typer.Argument(..., help="Manifests to create: files, directories or - for stdin."),
    cluster: List[str] = typer.Option(..., "--cluster", help="Cluster snapshot (kubectl List or Cluster kind); repeatable."),
    k8s_version: str = K8sVersionOpt,
    feature_gates: Optional[str] = FeatureGatesOpt,
    arrival: Arrival = typer.Option(Arrival.sequential, "--arrival",
                                    help="sequential: create objects one by one, scheduling after each; batch: all first."),
    scheduler_config: Optional[str] = typer.Option(None, "--scheduler-config", help="KubeSchedulerConfiguration file."),
    output: OutputFormat = typer.Option(OutputFormat.text, "-o", "--output", help="text, json or yaml."),
    fail_on: FailOn = typer.Option(FailOn.pending, "--fail-on",
                                   help="Exit 1 when pods stay pending (pending); also when the plan evicts any "
                                        "pod (preemption); or never."),
    no_preemption: bool = typer.Option(False, "--no-preemption",
                                       help="Plan without preemption: no PostFilter, no workload-aware preemption."),
    emit_snapshot: Optional[str] = typer.Option(None, "--emit-snapshot", help="Write the cluster after the plan here."),
) -> None:
    """Dry-run kube-scheduler offline: where every pod would go, which groups stay pending and why."""
    check_formats(output, _FORMATS, "plan")
    gates = resolve_gates(k8s_version, feature_gates)
    bar, progress = _progress()
    if bar is not None:
        bar.start()
    try:
        run = run_plan(paths, cluster, gates, arrival=arrival.value, scheduler_config=scheduler_config,
                       progress=progress, preemption=not no_preemption)
    finally:
        if bar is not None:
            bar.stop()
    if run.error:
        fail(run.error)
    if run.invalid:
        fail_with_diagnostics(run.diagnostics, run.sources)
    if run.diagnostics:  # warnings and notes go to stderr so -o json stays a clean document
        render_diagnostics(run.diagnostics, run.sources, Console(stderr=True, highlight=False, soft_wrap=True))
    _emit(run, output, emit_snapshot, gates)
    raise typer.Exit(int(run.exit_code(fail_on.value)))
