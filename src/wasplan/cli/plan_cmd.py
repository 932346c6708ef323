"""`wasplan plan`: options -> settings -> pipeline -> report -> exit code. Thin on purpose."""

from __future__ import annotations

import dataclasses

from typing import TYPE_CHECKING, List, Optional

import typer

from wasplan.cli import plan_report, terminal
from wasplan.cli.app import app
from wasplan.cli.common import (FeatureGatesOpt, K8sVersionOpt, OutputFormat, fail, fail_with_diagnostics,
                                print_diagnostics, resolve_gates)
from wasplan.cli.options import (ConfigOpt, ExcludeOpt, NoConfigOpt, StrictInputsOpt, StrictOpt, as_format,
                                 load_settings, output_option)
from wasplan.cli.progress import phase_bar
from wasplan.pipeline.exits import plan_exit_code
from wasplan.pipeline.plan import PlanRun, run_plan
from wasplan.pipeline.requests import PlanRequest
from wasplan.plan import Arrival, ClusterCheck, FailOn

if TYPE_CHECKING:
    from wasplan.config.settings import Settings


PlanFormat, OutputOpt = output_option("plan", OutputFormat.text, OutputFormat.json, OutputFormat.yaml,
                                      OutputFormat.junit, OutputFormat.github, OutputFormat.html,
                                      OutputFormat.markdown)
AssumeAdmittedOpt = typer.Option(False, "--assume-admitted",
                                 help="Plan what Kueue manages (label kueue.x-k8s.io/queue-name) as if Kueue admitted "
                                      "it now; its quotas are not modelled. Default: its pods wait for admission.")


ValidateClusterOpt = typer.Option(ClusterCheck.STORED, "--validate-cluster",
                                  help="stored: check the snapshot's objects for what the plan reads (an API server "
                                       "accepted them already); full: every rule, as for manifests.")
ClusterOpt = typer.Option([], "--cluster", metavar="PATH",
                          help="Cluster snapshot: a file, a directory of them, or - for stdin (`kubectl get "
                               "-o yaml` output or a Cluster kind); repeatable. Default: the config file's "
                               "`cluster`.")


def _snapshot(run: PlanRun, path: str, gates) -> None:
    from wasplan.documents.atomic import write_output_file
    from wasplan.report.plan_json import render_snapshot

    problem = write_output_file(path, render_snapshot(run.final, gates.release))
    if problem is not None:
        fail_with_diagnostics([problem], run.sources)


def _emit(run: PlanRun, output: OutputFormat, fail_on: FailOn, verbose: bool, renderer) -> None:
    from wasplan.report.plan_json import render_plan_json, render_plan_yaml

    if output in plan_report.VISUAL:
        typer.echo(renderer(output), nl=False)
    elif output is OutputFormat.json:
        typer.echo(render_plan_json(run.plan), nl=False)
    elif output is OutputFormat.yaml:
        typer.echo(render_plan_yaml(run.plan), nl=False)
    elif output is OutputFormat.junit:
        from wasplan.report.plan_ci import render_plan

        typer.echo(render_plan(run.plan, run.origins, fail_on), nl=False)
    elif output is OutputFormat.github:
        from wasplan.report.plan_ci import render_plan_github

        typer.echo(render_plan_github(run.plan, run.origins, run.diagnostics), nl=False)
    else:
        from wasplan.report.plan_text import render_text

        render_text(run.plan, terminal.console(), verbose=verbose)


def _baseline_diff(run: PlanRun, baseline: str):
    from wasplan.pipeline.baseline import read_baseline
    from wasplan.plandiff import diff_plans

    base = read_baseline(baseline, run.plan.k8s_version)
    if base.invalid:  # exit 2, and with -o json the failure document
        fail_with_diagnostics(base.diagnostics, base.sources, message=f"{baseline} is not a usable baseline Plan")
    if base.diagnostics:
        print_diagnostics(base.diagnostics, base.sources)
    return diff_plans(base.plan, run.plan.to_dict())


def _upgrade_diff(run: PlanRun, upgraded: PlanRun):
    """--to-k8s: the plan under --k8s-version is the baseline, the same inputs planned under the target release
    the head (what the page, the snapshot and the exit code then show), so a regression is what the upgrade
    makes worse. The target run's findings that the first run did not have are printed too (a
    release-specific warning, e.g. WAS730)."""
    from wasplan.plandiff import diff_plans

    if upgraded.error:
        fail(upgraded.error)
    if upgraded.invalid:
        fail_with_diagnostics(upgraded.diagnostics, upgraded.sources)
    seen = {(d.code, d.message) for d in run.diagnostics}
    if new := [d for d in upgraded.diagnostics if (d.code, d.message) not in seen]:
        print_diagnostics(new, upgraded.sources)
    return diff_plans(run.plan.to_dict(), upgraded.plan.to_dict())


def _diff(diff, output: OutputFormat, fail_on: FailOn) -> None:
    """Print the diff with the baseline Plan as text, JSON, YAML or GitHub commands."""
    from wasplan.report import plandiff

    if output is OutputFormat.json:
        typer.echo(plandiff.render_diff_json(diff), nl=False)
    elif output is OutputFormat.github:
        typer.echo(plandiff.render_diff_github(diff, fail_on == FailOn.REGRESSION), nl=False)
    elif output is OutputFormat.yaml:
        import yaml

        typer.echo(yaml.safe_dump(diff.to_dict(), sort_keys=False), nl=False)
    else:
        plandiff.render_diff_text(diff, terminal.console())


def plan_settings(k8s_version, feature_gates, cluster, fail_on, strict_inputs, exclude, config, no_config,
                  strict=None) -> Settings:
    """The options plan and explain share with the config file; no snapshot at all is a usage error."""
    settings = load_settings(config=config, no_config=no_config, k8s_version=k8s_version, feature_gates=feature_gates,
                             cluster=cluster, fail_on=fail_on, strict_inputs=strict_inputs, exclude=exclude,
                             strict=strict)
    if not settings.cluster:
        fail("no cluster snapshot: give --cluster FILE (or `cluster` in the config file)")
    return settings


def _check(output: OutputFormat, fail_on: FailOn, baseline: Optional[str], to_k8s: Optional[str] = None) -> None:
    if baseline is not None and to_k8s is not None:
        fail("--baseline and --to-k8s are two kinds of comparison: give one")
    if baseline is None and to_k8s is None and fail_on == FailOn.REGRESSION:
        fail("--fail-on regression compares with a baseline: add --baseline PLAN.json or --to-k8s VERSION")
    if (baseline is not None or to_k8s is not None) and output is OutputFormat.junit:
        option = "--baseline" if baseline is not None else "--to-k8s"
        fail(f"plan {option} reports a diff as text, json, yaml, github, html or markdown, not junit")


@app.command()
def plan(
    paths: List[str] = typer.Argument(..., metavar="PATH...",
                                      help="Manifests to create: files, directories or - for stdin."),
    cluster: List[str] = ClusterOpt,
    validate_cluster: ClusterCheck = ValidateClusterOpt,
    k8s_version: Optional[str] = K8sVersionOpt,
    feature_gates: Optional[str] = FeatureGatesOpt,
    arrival: Arrival = typer.Option(Arrival.SEQUENTIAL, "--arrival",
                                    help="sequential: create objects one by one, scheduling after each; batch: "
                                         "all first."),
    scheduler_config: Optional[str] = typer.Option(None, "--scheduler-config", metavar="FILE",
                                                   help="KubeSchedulerConfiguration file."),
    output: PlanFormat = OutputOpt,
    fail_on: Optional[FailOn] = typer.Option(None, "--fail-on",
                                             help="Exit 1 when pods stay pending (pending, the default); also when "
                                                  "the plan evicts any pod (preemption); only when the plan got "
                                                  "worse than --baseline (regression); or never."),
    no_preemption: bool = typer.Option(False, "--no-preemption",
                                       help="Plan without preemption: no PostFilter, no workload-aware preemption."),
    emit_snapshot: Optional[str] = typer.Option(None, "--emit-snapshot", metavar="FILE",
                                                help="Write the cluster after the plan here."),
    baseline: Optional[str] = typer.Option(None, "--baseline", metavar="FILE",
                                           help="A Plan saved earlier (-o json): report what changed against it "
                                                "(text, json, yaml or github; html and markdown add it)."),
    to_k8s: Optional[str] = typer.Option(None, "--to-k8s", metavar="VERSION",
                                         help="Plan the same inputs under this release too and report what the "
                                              "upgrade from --k8s-version changes (as --baseline does)."),
    report: List[str] = typer.Option([], "--report", metavar="FILE",
                                     help="Also write the plan as HTML (.html) or Markdown (.md) to FILE, beside "
                                          "-o; html:FILE or markdown:FILE for other names. Repeatable."),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="List every pending pod, not one line per group."),
    assume_admitted: bool = AssumeAdmittedOpt,
    strict: Optional[bool] = StrictOpt,
    strict_inputs: Optional[bool] = StrictInputsOpt,
    exclude: List[str] = ExcludeOpt,
    config: Optional[str] = ConfigOpt,
    no_config: bool = NoConfigOpt,
) -> None:
    """Dry-run kube-scheduler offline: where every pod would go, which groups stay pending and why.

    Examples:

    \b
      wasplan plan manifests/ --cluster cluster.yaml
      wasplan plan job.yaml --cluster cluster.yaml -o json > plan.json
      wasplan plan job.yaml --cluster cluster.yaml -o json --report plan.html
      wasplan plan manifests/ --cluster cluster.yaml --baseline base.json \\
          --fail-on regression
      wasplan plan manifests/ --cluster cluster.yaml --k8s-version 1.37 \\
          --to-k8s 1.38
      kubectl get nodes,pods -A -o yaml > snap.yaml
      wasplan plan manifests/ --cluster snap.yaml --emit-snapshot after.yaml
    """
    fmt = as_format(output)
    settings = plan_settings(k8s_version, feature_gates, cluster, fail_on, strict_inputs,
                             exclude, config, no_config, strict)
    _check(fmt, settings.fail_on, baseline, to_k8s)
    reports = plan_report.parse_reports(report)
    gates = resolve_gates(settings.k8s_version, settings.feature_gates)
    target = resolve_gates(to_k8s, settings.feature_gates) if to_k8s is not None else None
    request = PlanRequest(paths, settings.cluster, gates, arrival=arrival, scheduler_config=scheduler_config,
                          preemption=not no_preemption, read_options=settings.read_options(),
                          assume_admitted=assume_admitted, cluster_check=validate_cluster,
                          fail_on=settings.fail_on, strict=bool(settings.strict), baseline=baseline)

    def planned(req: PlanRequest) -> PlanRun:
        with phase_bar() as progress:
            return run_plan(req, *([progress] if progress else []))

    run = planned(request)
    if run.error:
        fail(run.error)
    if run.invalid:
        fail_with_diagnostics(run.diagnostics, run.sources)
    if run.diagnostics and not (fmt is OutputFormat.github and baseline is None):
        print_diagnostics(run.diagnostics, run.sources)  # on stderr, so -o json stays a clean document
    diff = _baseline_diff(run, baseline) if baseline is not None else None
    if target is not None:
        request = dataclasses.replace(request, gates=target)
        run, diff, gates = (upgraded := planned(request)), _upgrade_diff(run, upgraded), target
    if emit_snapshot:
        _snapshot(run, emit_snapshot, gates)
    renderer = plan_report.Renderer(run, diff, paths, settings.cluster, k8s_version, arrival=arrival,
                                    preemption=not no_preemption, scheduler_config=scheduler_config,
                                    feature_gates=feature_gates)
    plan_report.write_reports(reports, renderer)
    if diff is not None and fmt not in plan_report.VISUAL:  # the page and the summary carry the diff themselves
        _diff(diff, fmt, settings.fail_on)
    else:
        _emit(run, fmt, settings.fail_on, verbose, renderer)
    raise typer.Exit(int(plan_exit_code(run, request, diff)))
