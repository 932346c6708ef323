"""`wasplan config`: the effective settings and where each came from (a file and line, or the default)."""

from __future__ import annotations

import json
from typing import Optional

import typer

from wasplan.cli import terminal
from wasplan.cli.app import app
from wasplan.cli.common import OutputFormat
from wasplan.cli.options import ConfigOpt, NoConfigOpt, as_format, load_settings, output_option
from wasplan.config.settings import SETTING_KEYS, Settings, field_of
from wasplan.report.fit import wrap

ConfigFormat, OutputOpt = output_option("config", OutputFormat.text, OutputFormat.json)


def _value(settings: Settings, key: str):
    value = getattr(settings, field_of(key))
    if key == "per-file-ignores":
        return {glob: list(codes) for glob, codes in value}
    if key == "feature-gates":
        return value if value is not None else ("(every workload-aware gate of the release on, the DRA gates at "
                                                "upstream's defaults)")
    return list(value) if isinstance(value, tuple) else value


def _text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(value) if value else "(none)"
    if isinstance(value, dict):
        return "; ".join(f"{glob}: {', '.join(codes)}" for glob, codes in value.items()) or "(none)"
    return str(value)


@app.command("config")
def config_command(config: Optional[str] = ConfigOpt, no_config: bool = NoConfigOpt,
                   output: ConfigFormat = OutputOpt) -> None:
    """Show the effective settings (config file over defaults) and where each one comes from.

    Examples:

    \b
      wasplan config
      wasplan config --config ci/.wasplan.yaml -o json
      WASPLAN_STRICT=true wasplan config
    """
    fmt = as_format(output)
    settings = load_settings(config=config, no_config=no_config)
    rows = [(key, _value(settings, key), settings.source(key)) for key in SETTING_KEYS]
    if fmt is OutputFormat.json:
        typer.echo(json.dumps({"configFile": settings.config_file,
                               "settings": {k: {"value": v, "source": s} for k, v, s in rows}}, indent=2))
        return
    typer.echo(f"config file: {settings.config_file or '(none found)'}")
    width = max(len(k) for k in SETTING_KEYS)
    for key, value, source in rows:  # long values wrap between words under the value column
        for line in wrap(f"{key:<{width}}  {_text(value)}  [{source}]", terminal.width(), "", " " * (width + 2)):
            typer.echo(line)
