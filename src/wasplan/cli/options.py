"""Options every PATHS-taking command shares, and how they become one `Settings` value.

Options that a config file can also set default to None here, so "not given" is distinguishable from "given
the default" and the command line overrides the file key by key (config/resolve.py). Each command builds its
`-o` choices with `output_option`, so its `--help` lists exactly the formats it accepts.
"""

from __future__ import annotations

import enum
from typing import Any, Iterable

import typer
from typer._click.globals import get_current_context

from wasplan.cli.boundary import emit_failure, set_output
from wasplan.cli.common import OutputFormat
from wasplan.exitcodes import ExitCode
from wasplan.config.files import ConfigError
from wasplan.config.resolve import resolve
from wasplan.config.settings import Settings

ConfigOpt = typer.Option(None, "--config", metavar="FILE",
                         help="Read settings from FILE instead of the .wasplan.yaml (or the tool.wasplan table of "
                              "pyproject.toml) found upwards.")
NoConfigOpt = typer.Option(False, "--no-config", help="Ignore every config file.")
ExcludeOpt = typer.Option([], "--exclude", metavar="GLOB",
                          help="Skip files matching this gitignore-style pattern (relative to each PATH); repeatable.")
StrictInputsOpt = typer.Option(None, "--strict-inputs/--lenient-inputs",
                               help="Non-Kubernetes YAML and template files are errors instead of skipped (info).")
StrictOpt = typer.Option(None, "--strict/--no-strict", help="Warnings fail too (exit 1).")
SelectOpt = typer.Option([], "--select", metavar="CODES",
                         help="Report only these codes or prefixes (WAS4, WAS101); comma-separated or repeated.")
IgnoreOpt = typer.Option([], "--ignore", metavar="CODES",
                         help="Never report these codes or prefixes; comma-separated or repeated.")
ShowSuppressedOpt = typer.Option(False, "--show-suppressed", help="Also list the suppressed findings and why.")


def output_option(name: str, *formats: OutputFormat) -> tuple[type[enum.Enum], Any]:
    """A per-command enum of the formats it renders, and its `-o/--output` option (default text)."""
    choices = enum.Enum(f"{name.title()}Format", {f.value: f.value for f in formats}, type=str)  # type: ignore[misc]
    return choices, typer.Option(choices("text"), "-o", "--output", help="Output format.")


def as_format(value: enum.Enum) -> OutputFormat:
    """The chosen format; a command asks for it first, before anything (a bad config file) can fail, and it is
    recorded for the exception boundary (with -o json, a failure still prints one JSON document)."""
    ctx = get_current_context(silent=True)
    set_output(ctx.info_name if ctx is not None and ctx.info_name else "", value.value)
    return OutputFormat(value.value)


def _codes(values: Iterable[str]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def load_settings(*, config: str | None = None, no_config: bool = False, **cli: Any) -> Settings:
    """Resolve command line over config file; a bad file or option ends the run with exit 2 and file:line."""
    given = {key.replace("_", "-"): value for key, value in cli.items()}
    for key in ("select", "ignore"):
        if key in given:
            given[key] = _codes(given[key])
    try:
        return resolve(given, config=config, no_config=no_config)
    except ConfigError as exc:
        from wasplan.report.diagnostics_text import header  # imports rich: only when there is a finding to show

        typer.echo(f"wasplan: {header(exc.diagnostic).removeprefix('<command line>: ')}", err=True)
        emit_failure("the configuration is invalid", [exc.diagnostic])
        raise typer.Exit(int(ExitCode.TOOL_ERROR)) from None
