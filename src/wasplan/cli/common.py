"""Options every command shares, and the one way a command reports that it cannot do its job."""

from __future__ import annotations

import enum
import sys
from typing import NoReturn

import typer

from wasplan.api.releases import DEFAULT_RELEASE, SUPPORTED_RELEASES, GateError, GateSet, get_release, parse_gates
from wasplan.cli.boundary import emit_failure
from wasplan.exitcodes import ExitCode


class OutputFormat(str, enum.Enum):
    text = "text"
    json = "json"
    yaml = "yaml"
    junit = "junit"
    sarif = "sarif"
    github = "github"
    html = "html"
    markdown = "markdown"


K8S_VERSION_HELP = f"Kubernetes release to check against ({', '.join(SUPPORTED_RELEASES)}; default {DEFAULT_RELEASE})."
FEATURE_GATES_HELP = ("Feature gates as the cluster sets them, e.g. GenericWorkload=true,CompositePodGroup=false. "
                      "Default: every workload-aware gate of the release on, the DRA gates at upstream's defaults.")


def complete_versions(incomplete):
    """Shell completion of --k8s-version: the supported releases."""
    return [v for v in SUPPORTED_RELEASES if v.startswith(incomplete or "")]


K8sVersionOpt = typer.Option(None, "--k8s-version", metavar="VERSION", help=K8S_VERSION_HELP,
                             autocompletion=complete_versions)  # None: config file or default
FeatureGatesOpt = typer.Option(None, "--feature-gates", metavar="NAME=BOOL,...", help=FEATURE_GATES_HELP)


def fail(message: str, code: ExitCode = ExitCode.TOOL_ERROR) -> NoReturn:
    """Print a one-line error to stderr (and, with -o json, the failure document to stdout) and exit."""
    typer.echo(f"wasplan: error: {message}", err=True)
    emit_failure(message, code=code)
    raise typer.Exit(int(code))


def fail_with_diagnostics(diagnostics, sources, code: ExitCode = ExitCode.TOOL_ERROR,
                          message: str = "the inputs are invalid; nothing was planned") -> NoReturn:
    """Inputs too invalid to do the job: the findings on stderr, then one line saying what was not done (so the
    end of a long list of findings is not mistaken for a plan), and with -o json a failure document too."""
    print_diagnostics(diagnostics, sources)
    typer.echo(f"wasplan: {closing_line(message, diagnostics)}", err=True)
    emit_failure(message, diagnostics, code)
    raise typer.Exit(int(code))


def closing_line(message: str, diagnostics) -> str:
    """`the inputs are invalid (9 errors); nothing was planned`: the message with the count of errors."""
    from wasplan.diagnostics import Severity
    from wasplan.words import plural

    errors = sum(1 for d in diagnostics if d.severity is Severity.ERROR)
    head, sep, tail = message.partition("; ")
    counted = f"{head} ({plural(errors, 'error')})" if errors else head
    return f"{counted}{sep}{tail}"


def resolve_gates(k8s_version: str, feature_gates: str | None) -> GateSet:
    try:
        release = get_release(k8s_version)
    except KeyError as exc:
        fail(str(exc.args[0]))
    try:
        return parse_gates(release, feature_gates)
    except GateError as exc:
        fail(str(exc))


def stdout_is_tty() -> bool:
    return sys.stdout.isatty()


def print_diagnostics(diags, sources) -> None:
    """Findings on stderr, wrapped for a person, one line each for a log (see cli/terminal.py)."""
    from wasplan.cli import terminal
    from wasplan.report.diagnostics_text import render

    render(diags, sources, terminal.console(stderr=True), terminal.for_person(sys.stderr))
