"""Command line over environment over config file over defaults, into one `Settings` value.

A command passes the options the user gave (None for those not given); values from the file go through the
same parsers as validation, so a bad value in the file is reported with the file and line (WAS902/WAS903),
and code lists from both sides are checked against the codes table (WAS904).
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any, Mapping

from wasplan.api.releases import get_release
from wasplan.config.files import ConfigError, Entry, config_error, find_config, read_config
from wasplan.config.keys import PARSERS, UnknownCode, from_environment, parse_codes
from wasplan.config.settings import COMMAND_LINE, SETTING_KEYS, Settings, field_of, relative_to_cwd


def load_entries(config: str | None, no_config: bool, cwd: Path | None = None) -> tuple[Path | None, dict[str, Entry]]:
    if no_config:
        return None, {}
    if config is not None:
        path = Path(config)
        if not path.is_file():
            raise config_error("WAS901", f"config file not found: {config}", config)
    else:
        path = find_config(cwd or Path.cwd())
        if path is None:
            return None, {}
    return path, read_config(path)


def _code_of(exc: ValueError) -> str:
    return "WAS904" if isinstance(exc, UnknownCode) else "WAS903"


def _file_values(path: Path, entries: Mapping[str, Entry]) -> tuple[dict[str, Any], dict[str, str]]:
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    shown = relative_to_cwd(str(path), ".")
    for key, entry in entries.items():
        if key not in PARSERS:
            raise config_error("WAS902", _unknown_key(key), shown, entry.line)
        try:
            value = PARSERS[key](entry.value)
        except ValueError as exc:
            raise config_error(_code_of(exc), f"{key}: {exc}", shown, entry.line) from None
        if key == "cluster":
            value = tuple(relative_to_cwd(p, str(path.parent)) for p in value)
        values[field_of(key)] = value
        sources[key] = f"{shown}:{entry.line}" if entry.line else shown
    return values, sources


def _unknown_key(key: str) -> str:
    from wasplan.suggest import did_you_mean

    near = did_you_mean(str(key), list(SETTING_KEYS))
    known = f"known keys: {', '.join(SETTING_KEYS)}"
    return f"unknown key {key!r}; did you mean {near!r}? ({known})" if near else f"unknown key {key!r}; {known}"


def env_name(key: str) -> str:
    return "WASPLAN_" + key.upper().replace("-", "_")


def _env_values(environ: Mapping[str, str]) -> tuple[dict[str, Any], dict[str, str]]:
    """WASPLAN_K8S_VERSION=1.36 and friends: one variable per key (per-file-ignores only in a file), so a CI
    job can set a value for every step at once."""
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for key in PARSERS:
        name = env_name(key)
        if key == "per-file-ignores" or not environ.get(name):
            continue
        try:
            value = PARSERS[key](from_environment(key, environ[name]))
        except ValueError as exc:
            raise config_error(_code_of(exc), f"{key}: {exc}", f"environment variable {name}") from None
        values[field_of(key)] = value
        sources[key] = f"environment ({name})"
    return values, sources


def _cli_values(cli: Mapping[str, Any]) -> dict[str, Any]:
    """Options the user gave; code lists are checked like the file's (a typo fails instead of selecting nothing)."""
    out = {}
    for key, value in cli.items():
        if value is None or value == [] or value == ():
            continue
        if key in ("select", "ignore"):
            try:
                value = parse_codes(list(value))
            except ValueError as exc:
                raise config_error("WAS904", f"--{key}: {exc}", "<command line>") from None
        elif isinstance(value, list):
            value = tuple(value)
        out[field_of(key)] = value
    return out


def resolve(cli: Mapping[str, Any], *, config: str | None = None, no_config: bool = False,
            cwd: Path | None = None, environ: Mapping[str, str] | None = None) -> Settings:
    """`cli` maps option keys (`k8s-version`) to the values given on the command line, None when not given.
    Precedence: command line, then WASPLAN_* environment variables, then the config file, then defaults."""
    path, entries = load_entries(config, no_config, cwd)
    values, sources = _file_values(path, entries) if path is not None else ({}, {})
    env_values, env_sources = _env_values(os.environ if environ is None else environ)
    values.update(env_values)
    sources.update(env_sources)
    given = _cli_values(cli)
    values.update(given)
    sources.update({key: COMMAND_LINE for key in cli if field_of(key) in given})
    if path is not None:
        values["root"] = relative_to_cwd(str(path.parent), ".")
        values["config_file"] = relative_to_cwd(str(path), ".")
    settings = dataclasses.replace(Settings(), **values, sources=sources)
    _removed_gates(settings, path, entries)
    return settings


def _removed_gates(settings: Settings, path: Path | None, entries: Mapping[str, Entry]) -> None:
    """WAS907 at the file and line (or the environment variable) whose feature-gates names a gate the release
    removed (`Release.removed_gates`): kube components refuse it with `unrecognized feature gate`, and so does
    wasplan. The command line's --feature-gates gets the same message from the gate parser."""
    source = settings.source("feature-gates")
    if not settings.feature_gates or source == COMMAND_LINE:
        return
    try:
        release = get_release(settings.k8s_version)
    except KeyError:
        return  # the release itself is reported where it is used
    for part in settings.feature_gates.split(","):
        name = part.partition("=")[0].strip()
        if name in release.removed_gates:
            message = (f"feature-gates: unrecognized feature gate: {name} (removed in Kubernetes {release.version}, "
                       "where its feature is always on)")
            if source.startswith("environment"):
                raise config_error("WAS907", message, source)
            entry = entries.get("feature-gates")
            raise config_error("WAS907", message, relative_to_cwd(str(path), "."), entry.line if entry else None)


__all__ = ["ConfigError", "Settings", "resolve"]
