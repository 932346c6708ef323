"""`wasplan validate` and `wasplan lint`: options -> pipeline -> report -> exit code."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, List, Optional

import typer

from wasplan.cli import terminal
from wasplan.cli.app import app
from wasplan.cli.common import FeatureGatesOpt, K8sVersionOpt, OutputFormat, check_formats, output_option, resolve_gates

if TYPE_CHECKING:
    from wasplan.pipeline.validate import ValidationReport

_FORMATS = (OutputFormat.text, OutputFormat.json, OutputFormat.github, OutputFormat.sarif)
PathsArg = typer.Argument(..., metavar="PATH...", help="Files, directories (recursive *.yaml, *.yml, *.json) or - "
                                                        "for stdin.")
OutputOpt = output_option(_FORMATS, "text, json, github (annotations) or sarif.")
StrictOpt = typer.Option(False, "--strict", help="Warnings fail too (exit 1).")


def _emit(report: ValidationReport, output: OutputFormat, strict: bool) -> None:
    """Renderers are imported here, not at the top, so `validate -h` costs only the options."""
    from wasplan.report.annotations import render_github
    from wasplan.report.sarif import render_sarif
    from wasplan.report.validate_report import render_json, render_text

    if output is OutputFormat.json:
        typer.echo(render_json(report), nl=False)
    elif output is OutputFormat.github:
        typer.echo(render_github(report.diagnostics), nl=False)
    elif output is OutputFormat.sarif:
        typer.echo(render_sarif(report.diagnostics), nl=False)
    else:
        render_text(report, terminal.console(), strict, wrap=terminal.for_person(sys.stdout))
    raise typer.Exit(int(report.exit_code(strict)))


@app.command()
def validate(
    paths: List[str] = PathsArg,
    k8s_version: str = K8sVersionOpt,
    feature_gates: Optional[str] = FeatureGatesOpt,
    output: OutputFormat = OutputOpt,
    strict: bool = StrictOpt,
) -> None:
    """Check every manifest against the chosen release: served versions, schemas, server rules, feature gates.

    Examples:

    \b
      wasplan validate manifests/
      wasplan validate --k8s-version 1.36 job.yaml workload.yaml
      kubectl get workloads -A -o yaml | wasplan validate -
      wasplan validate -o github manifests/
    """
    check_formats(output, _FORMATS, "validate")
    gates = resolve_gates(k8s_version, feature_gates)
    from wasplan.pipeline.validate import validate_paths

    _emit(validate_paths(paths, gates), output, strict)


@app.command()
def lint(
    paths: List[str] = PathsArg,
    k8s_version: str = K8sVersionOpt,
    feature_gates: Optional[str] = FeatureGatesOpt,
    output: OutputFormat = OutputOpt,
    strict: bool = StrictOpt,
    cluster: List[str] = typer.Option([], "--cluster", metavar="FILE",
                                      help="Snapshot or Cluster kind whose nodes must carry the "
                                           "topology keys the groups name (repeatable)."),
) -> None:
    """Validate, then check the objects against each other: references, quorum, schedulers, priorities.

    Examples:

    \b
      wasplan lint manifests/
      wasplan lint --cluster snapshot.yaml manifests/
      wasplan lint --strict -o sarif manifests/ > lint.sarif
    """
    check_formats(output, _FORMATS, "lint")
    gates = resolve_gates(k8s_version, feature_gates)
    from wasplan.pipeline.validate import validate_paths

    _emit(validate_paths(paths, gates, lint=True, cluster_paths=cluster), output, strict)
