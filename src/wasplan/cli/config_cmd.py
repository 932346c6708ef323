"""`wasplan config`: the effective settings and where each came from (a file and line, or the default), then the
feature gates in force for the effective release, each with its value, stage and why it has that value: set by
`feature-gates` (with that setting's source), locked by its GA stage, on in wasplan's profile (a workload-aware
gate, off upstream), or upstream's default (api/releases.py `default_gates`, `parse_gates`)."""

from __future__ import annotations

import json
from typing import Optional

import typer

from wasplan.cli import terminal
from wasplan.cli.app import app
from wasplan.cli.common import K8sVersionOpt, OutputFormat, resolve_gates
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


def _named(spec: str | None) -> set[str]:
    """The gates a `Name=true,Other=false` value sets by name."""
    return {part.split("=", 1)[0].strip() for part in (spec or "").split(",") if "=" in part}


def gate_rows(settings: Settings) -> list[dict]:
    """One row per gate of the effective release: name, enabled, stage, upstream default and source."""
    gates = resolve_gates(settings.k8s_version, settings.feature_gates)
    named = _named(settings.feature_gates)
    rows = []
    for name, gate in sorted(gates.release.gates.items()):
        if name in named:
            source = f"feature-gates [{settings.source('feature-gates')}]"
        elif gate.locked:
            source = f"locked ({gate.stage})"
        elif gate.workload_aware:
            source = "wasplan's profile (upstream: off)"
        else:
            source = "upstream default"
        rows.append({"name": name, "enabled": gates.enabled(name), "stage": gate.stage,
                     "upstreamDefault": gate.default, "source": source})
    return rows


def _gates_text(settings: Settings, rows: list[dict]) -> None:
    typer.echo("")
    typer.echo(f"feature gates for Kubernetes {settings.k8s_version} (another release: --k8s-version):")
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        on = "on" if r["enabled"] else "off"
        text = f"  {r['name']:<{width}}  {on:<3}  {r['stage']:<5}  {r['source']}"
        for line in wrap(text, terminal.width(), "", " " * (width + 16)):
            typer.echo(line)


@app.command("config")
def config_command(config: Optional[str] = ConfigOpt, no_config: bool = NoConfigOpt,
                   k8s_version: Optional[str] = K8sVersionOpt, output: ConfigFormat = OutputOpt) -> None:
    """Show the effective settings (config file over defaults) and feature gates, and where each one comes from.

    Examples:

    \b
      wasplan config
      wasplan config --config ci/.wasplan.yaml -o json
      wasplan config --k8s-version 1.36        # the feature gates of 1.36
      WASPLAN_STRICT=true wasplan config
    """
    fmt = as_format(output)
    settings = load_settings(config=config, no_config=no_config, k8s_version=k8s_version)
    rows = [(key, _value(settings, key), settings.source(key)) for key in SETTING_KEYS]
    gates = gate_rows(settings)
    if fmt is OutputFormat.json:
        typer.echo(json.dumps({"configFile": settings.config_file,
                               "settings": {k: {"value": v, "source": s} for k, v, s in rows},
                               "featureGates": {"k8sVersion": settings.k8s_version, "gates": gates}}, indent=2))
        return
    typer.echo(f"config file: {settings.config_file or '(none found)'}")
    width = max(len(k) for k in SETTING_KEYS)
    for key, value, source in rows:  # long values wrap between words under the value column
        for line in wrap(f"{key:<{width}}  {_text(value)}  [{source}]", terminal.width(), "", " " * (width + 2)):
            typer.echo(line)
    _gates_text(settings, gates)
