"""The `wasplan` command group; commands live in sibling modules and register themselves here."""

from __future__ import annotations

import sys

import typer

from wasplan import __version__
from wasplan.cli import collector

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


# Which module defines each command. Importing a command module registers it on `app` (and pulls in its
# pipeline: the engine, ruamel.yaml, ...), so a run imports only the module of the command it runs; that keeps
# `wasplan validate` in CI from paying for the scheduler's imports (about 0.4 s per process).
COMMAND_MODULES = {  # in the order `wasplan --help` lists them
    "validate": "validate_cmd", "lint": "validate_cmd", "plan": "plan_cmd", "explain": "explain_cmd",
    "migrate": "migrate_cmd", "schema": "schema_cmd", "rules": "rules_cmd", "config": "config_cmd",
}


def _register(command: str | None = None) -> None:
    """Import the module of `command`, or every command module (for help and for tests)."""
    import importlib

    wanted = [COMMAND_MODULES[command]] if command in COMMAND_MODULES else list(dict.fromkeys(COMMAND_MODULES.values()))
    for module in wanted:
        importlib.import_module(f"wasplan.cli.{module}")


def main() -> None:
    """The console script: every command runs inside the one exception boundary (`cli/boundary.py`)."""
    from wasplan.cli.boundary import guarded, split_debug

    collector.pause()
    args = sys.argv[1:]
    command = next((a for a in split_debug(args)[0] if not a.startswith("-")), None)
    _register(command)
    sys.exit(guarded(app, args))
