"""`wasplan migrate`: options -> pipeline.migrate -> report -> exit code."""

from __future__ import annotations

import sys
from typing import List, Optional

import typer

from wasplan.api.releases import DEFAULT_RELEASE, SUPPORTED_RELEASES
from wasplan.cli import terminal
from wasplan.cli.app import app
from wasplan.cli.common import OutputFormat, complete_versions, fail
from wasplan.cli.options import (ConfigOpt, ExcludeOpt, NoConfigOpt, StrictInputsOpt, as_format, load_settings,
                                 output_option)
from wasplan.migrate.plan import Options
from wasplan.migrate.targets import FORCEABLE, Target
from wasplan.pipeline.migrate import MigrateResult, exit_code, migrate
from wasplan.report import migrate_json, migrate_text

def _target(to_k8s: Optional[str], to: Optional[str]) -> Target:
    try:
        target = Target.parse(to_k8s, to)
    except ValueError as exc:
        fail(str(exc))
    return target


MigrateFormat, OutputOpt = output_option("migrate", OutputFormat.text, OutputFormat.json)


@app.command("migrate")
def migrate_command(
    paths: List[str] = typer.Argument(..., metavar="PATH...", help="Files, directories (recursive) or - for stdin."),
    to_k8s: Optional[str] = typer.Option(None, "--to-k8s", "--k8s-version", metavar="VERSION",
                                         autocompletion=complete_versions,
                                         help=f"Kubernetes release to migrate to ({', '.join(SUPPORTED_RELEASES)}; default {DEFAULT_RELEASE})."),
    to: Optional[str] = typer.Option(None, "--to", metavar="GROUP/VERSION",
                                     help=f"Force one version: {', '.join(FORCEABLE)}."),
    in_place: bool = typer.Option(False, "--in-place", "-i", help="Rewrite the files (atomically)."),
    check: bool = typer.Option(False, "--check", help="Write nothing; exit 1 if anything would change."),
    diff: bool = typer.Option(False, "--diff", help="Print a unified diff instead of the migrated stream."),
    allow_lossy: bool = typer.Option(False, "--allow-lossy",
                                     help="Drop fields the target cannot hold where that is safe (with a warning)."),
    keep_status: bool = typer.Option(False, "--keep-status", help="Keep status (renaming conditions) instead of dropping it."),
    output: MigrateFormat = OutputOpt,
    strict_inputs: Optional[bool] = StrictInputsOpt,
    exclude: List[str] = ExcludeOpt,
    config: Optional[str] = ConfigOpt,
    no_config: bool = NoConfigOpt,
) -> None:
    """Rewrite manifests to the scheduling.k8s.io versions a release serves, keeping comments and layout.

    Examples:

    \b
      wasplan migrate --to-k8s 1.37 workload.yaml > workload-1.37.yaml
      wasplan migrate --to-k8s 1.37 --diff manifests/
      wasplan migrate --to-k8s 1.37 --check manifests/
      wasplan migrate --to-k8s 1.37 --in-place manifests/
    """
    fmt = as_format(output)
    settings = load_settings(config=config, no_config=no_config, strict_inputs=strict_inputs, exclude=exclude)
    if in_place and (check or diff):
        fail("--in-place cannot be combined with --check or --diff")
    if in_place and "-" in paths:
        fail("--in-place cannot rewrite stdin")
    target = _target(to_k8s if to_k8s is not None else (None if to else settings.k8s_version), to)
    result = migrate(paths, target, Options(allow_lossy=allow_lossy, keep_status=keep_status), in_place=in_place,
                     read_options=settings.read_options())
    mode = "in-place" if in_place else "check" if check else "diff" if diff else "stdout"
    if fmt is OutputFormat.json:
        typer.echo(migrate_json.render(result, mode), nl=False)
    else:
        _text(result, in_place=in_place, check=check, diff=diff)
    raise typer.Exit(int(exit_code(result, check)))


def _text(result: MigrateResult, *, in_place: bool, check: bool, diff: bool) -> None:
    """Diagnostics and listings go to stderr, so stdout carries only the stream or the diff."""
    # findings and the --check listing wrap for a person; in a log each stays on its one line
    width = terminal.width() if terminal.for_person(sys.stderr) else 1 << 30
    typer.echo(migrate_text.render_diagnostics(result, width), nl=False, err=True)
    if diff:
        text = migrate_text.render_diff(result)
        typer.echo(migrate_text.colorize_diff(text) if terminal.color(sys.stdout) else text, nl=False, color=True)
    if check:
        typer.echo(migrate_text.render_check(result, width), nl=False, err=True)
    elif in_place:
        typer.echo(migrate_text.summary(result, "migrated"), nl=False, err=True)
    elif not diff and any(not f.fatal for f in result.files):
        typer.echo(migrate_text.render_stream(result), nl=False)
