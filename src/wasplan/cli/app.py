"""The `wasplan` command group; commands live in sibling modules and register themselves here."""

from __future__ import annotations

import typer

from wasplan import __version__

app = typer.Typer(
    name="wasplan",
    help="Validate, migrate and dry-run plan Kubernetes workload-aware scheduling manifests, offline.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"wasplan {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version.")) -> None:
    """wasplan: workload-aware scheduling for Kubernetes 1.36/1.37, offline."""


def _register() -> None:
    # Imported for their side effect of adding commands to `app`.
    from wasplan.cli import schema_cmd, validate_cmd  # noqa: F401
    from wasplan.cli import migrate_cmd, plan_cmd  # noqa: F401


def main() -> None:
    _register()
    app()
