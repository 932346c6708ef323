"""`wasplan validate` and `wasplan lint`: options -> pipeline -> report -> exit code."""

from __future__ import annotations

from typing import List, Optional

import typer
from rich.console import Console

from wasplan.cli.app import app
from wasplan.cli.common import FeatureGatesOpt, K8sVersionOpt, OutputFormat, check_formats, resolve_gates
from wasplan.pipeline.validate import ValidationReport, validate_paths
from wasplan.report.annotations import render_github
from wasplan.report.sarif import render_sarif
from wasplan.report.validate_report import render_json, render_text

_FORMATS = (OutputFormat.text, OutputFormat.json, OutputFormat.github, OutputFormat.sarif)
PathsArg = typer.Argument(..., help="Files, directories (recursive *.yaml, *.yml, *.json) or - for stdin.")
OutputOpt = typer.Option(OutputFormat.text, "-o", "--output", help="text, json, github (annotations) or sarif.")
StrictOpt = typer.Option(False, "--strict", help="Warnings fail too (exit 1).")


def _emit(report: ValidationReport, output: OutputFormat, strict: bool) -> None:
    if output is OutputFormat.json:
        typer.echo(render_json(report), nl=False)
    elif output is OutputFormat.github:
        typer.echo(render_github(report.diagnostics), nl=False)
    elif output is OutputFormat.sarif:
        typer.echo(render_sarif(report.diagnostics), nl=False)
    else:
        render_text(report, Console(highlight=False, soft_wrap=True), strict)
    raise typer.Exit(int(report.exit_code(strict)))


@app.command()
def validate(
    paths: List[str] = PathsArg,
    k8s_version: str = K8sVersionOpt,
    feature_gates: Optional[str] = FeatureGatesOpt,
    output: OutputFormat = OutputOpt,
    strict: bool = StrictOpt,
) -> None:
    """Check every manifest against the chosen release: served versions, schemas, server rules, feature gates."""
    check_formats(output, _FORMATS, "validate")
    gates = resolve_gates(k8s_version, feature_gates)
    _emit(validate_paths(paths, gates), output, strict)


@app.command()
def lint(
    paths: List[str] = PathsArg,
    k8s_version: str = K8sVersionOpt,
    feature_gates: Optional[str] = FeatureGatesOpt,
    output: OutputFormat = OutputOpt,
    strict: bool = StrictOpt,
    cluster: List[str] = typer.Option([], "--cluster", help="Snapshot or Cluster kind whose nodes must carry the "
                                                              "topology keys the groups name (repeatable)."),
) -> None:
    """Validate, then check the objects against each other: references, quorum, schedulers, priorities."""
    check_formats(output, _FORMATS, "lint")
    gates = resolve_gates(k8s_version, feature_gates)
    _emit(validate_paths(paths, gates, lint=True, cluster_paths=cluster), output, strict)
