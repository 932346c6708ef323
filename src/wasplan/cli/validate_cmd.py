"""`wasplan validate` and `wasplan lint`: options -> settings -> pipeline -> report -> exit code."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, List, Optional

import typer

from wasplan.cli import terminal
from wasplan.cli.app import app
from wasplan.cli.common import FeatureGatesOpt, K8sVersionOpt, OutputFormat, resolve_gates
from wasplan.cli.options import (ConfigOpt, ExcludeOpt, IgnoreOpt, NoConfigOpt, SelectOpt, ShowSuppressedOpt,
                                 StrictInputsOpt, StrictOpt, as_format, load_settings, output_option)

if TYPE_CHECKING:
    from wasplan.config.settings import Settings
    from wasplan.pipeline.validate import ValidationReport

ValidateFormat, OutputOpt = output_option("validate", OutputFormat.text, OutputFormat.json, OutputFormat.github,
                                          OutputFormat.sarif, OutputFormat.junit)
PathsArg = typer.Argument(..., metavar="PATH...", help="Files, directories (recursive *.yaml, *.yml, *.json) or - "
                                                        "for stdin.")


def _emit(report: ValidationReport, output: OutputFormat, settings: Settings, show_suppressed: bool,
          command: str) -> None:
    """Renderers are imported here, not at the top, so `validate -h` costs only the options."""
    from wasplan.report import validate_report

    strict = settings.strict
    if output is OutputFormat.json:
        typer.echo(validate_report.render_json(report, show_suppressed), nl=False)
    elif output is OutputFormat.github:
        from wasplan.report.annotations import render_github

        typer.echo(render_github(report.diagnostics), nl=False)
    elif output is OutputFormat.sarif:
        from wasplan.report.sarif import render_sarif

        hidden = [(s.diagnostic, s.reason) for s in report.suppressed] if show_suppressed else []
        typer.echo(render_sarif(report.diagnostics, hidden), nl=False)
    elif output is OutputFormat.junit:
        from wasplan.report.junit_validate import render_validation

        typer.echo(render_validation(report, f"wasplan {command}", strict), nl=False)
    else:
        validate_report.render_text(report, terminal.console(), strict, show_suppressed,
                                    wrap=terminal.for_person(sys.stdout))
    from wasplan.pipeline.exits import lint_exit_code, validate_exit_code

    exit_code = lint_exit_code if command == "lint" else validate_exit_code
    raise typer.Exit(int(exit_code(report, strict)))


@app.command()
def validate(
    paths: List[str] = PathsArg,
    k8s_version: Optional[str] = K8sVersionOpt,
    feature_gates: Optional[str] = FeatureGatesOpt,
    output: ValidateFormat = OutputOpt,
    strict: Optional[bool] = StrictOpt,
    strict_inputs: Optional[bool] = StrictInputsOpt,
    exclude: List[str] = ExcludeOpt,
    select: List[str] = SelectOpt,
    ignore: List[str] = IgnoreOpt,
    show_suppressed: bool = ShowSuppressedOpt,
    config: Optional[str] = ConfigOpt,
    no_config: bool = NoConfigOpt,
) -> None:
    """Check every manifest against the chosen release: served versions, schemas, server rules, feature gates.

    Examples:

    \b
      wasplan validate manifests/
      wasplan validate --k8s-version 1.36 job.yaml workload.yaml
      kubectl get workloads -A -o yaml | wasplan validate -
      wasplan validate -o github --select WAS1,WAS2 manifests/
    """
    from wasplan.pipeline.validate import validate_paths

    fmt = as_format(output)
    settings = load_settings(config=config, no_config=no_config, k8s_version=k8s_version, feature_gates=feature_gates,
                             strict=strict, strict_inputs=strict_inputs, exclude=exclude, select=select, ignore=ignore)
    gates = resolve_gates(settings.k8s_version, settings.feature_gates)
    _emit(validate_paths(paths, gates, settings=settings), fmt, settings, show_suppressed, "validate")


@app.command()
def lint(
    paths: List[str] = PathsArg,
    k8s_version: Optional[str] = K8sVersionOpt,
    feature_gates: Optional[str] = FeatureGatesOpt,
    output: ValidateFormat = OutputOpt,
    strict: Optional[bool] = StrictOpt,
    cluster: List[str] = typer.Option([], "--cluster", metavar="PATH",
                                      help="Snapshot (a file, a directory of them, or - for stdin) or Cluster "
                                           "kind: its nodes must carry the topology keys "
                                           "the groups name, its devices must be able to serve the claims' "
                                           "requests, and its DRA objects and Namespaces count as existing "
                                           "(repeatable)."),
    strict_inputs: Optional[bool] = StrictInputsOpt,
    exclude: List[str] = ExcludeOpt,
    select: List[str] = SelectOpt,
    ignore: List[str] = IgnoreOpt,
    show_suppressed: bool = ShowSuppressedOpt,
    config: Optional[str] = ConfigOpt,
    no_config: bool = NoConfigOpt,
) -> None:
    """Validate, then check the objects against each other: references, quorum, schedulers, priorities, claims.

    Examples:

    \b
      wasplan lint manifests/
      wasplan lint --cluster snapshot.yaml manifests/
      wasplan lint --strict -o sarif manifests/ > lint.sarif
    """
    from wasplan.pipeline.validate import validate_paths

    fmt = as_format(output)
    settings = load_settings(config=config, no_config=no_config, k8s_version=k8s_version, feature_gates=feature_gates,
                             strict=strict, strict_inputs=strict_inputs, exclude=exclude, select=select, ignore=ignore,
                             cluster=cluster)
    gates = resolve_gates(settings.k8s_version, settings.feature_gates)
    report = validate_paths(paths, gates, lint=True, cluster_paths=settings.cluster, settings=settings)
    _emit(report, fmt, settings, show_suppressed, "lint")
