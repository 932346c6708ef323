"""Finding and reading the config file, keeping the line of every key so a bad value is reported where it is.

Discovery walks up from the working directory and stops at the repository root (the first directory holding
`.git`); the first of `.wasplan.yaml`, `.wasplan.yml` or a pyproject.toml with a `[tool.wasplan]` table wins,
as ruff and yamllint find theirs. TOML carries no positions (tomllib), so a key's line is found in the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wasplan.codes import lookup
from wasplan.diagnostics import Diagnostic, Location

CANDIDATES = (".wasplan.yaml", ".wasplan.yml", "pyproject.toml")


class ConfigError(Exception):
    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def config_error(code: str, message: str, file: str, line: int | None = None, col: int | None = None) -> ConfigError:
    return ConfigError(Diagnostic(code, lookup(code).severity, message, Location(file, None, (), line, col)))


@dataclass(frozen=True)
class Entry:
    """One setting read from a configuration file, with its line."""

    value: Any
    line: int | None


def _has_tool_table(path: Path) -> bool:
    try:
        return re.search(r"^\[tool\.wasplan\]", path.read_text(encoding="utf-8"), re.M) is not None
    except (OSError, UnicodeDecodeError):
        return False


def find_config(start: Path) -> Path | None:
    for directory in (start, *start.parents):
        for name in CANDIDATES:
            candidate = directory / name
            if candidate.is_file() and (name != "pyproject.toml" or _has_tool_table(candidate)):
                return candidate
        if (directory / ".git").exists():
            return None
    return None


def read_config(path: Path) -> dict[str, Entry]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise config_error("WAS901", f"cannot read config file: {getattr(exc, 'strerror', None) or exc}", str(path))
    if path.name == "pyproject.toml":
        return _read_toml(path, text)
    return _read_yaml(path, text)


def _read_yaml(path: Path, text: str) -> dict[str, Entry]:
    import yaml

    from wasplan.documents.construct import ConstructError, construct
    from wasplan.documents.loader import FastLoader

    try:
        node = yaml.compose(text, Loader=FastLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise config_error("WAS901", f"YAML syntax error: {getattr(exc, 'problem', None) or exc}", str(path),
                           mark.line + 1 if mark else None, mark.column + 1 if mark else None)
    if node is None:
        return {}
    if node.id != "mapping":
        raise config_error("WAS901", "the config file must be a mapping of settings", str(path), node.start_mark.line + 1)
    out: dict[str, Entry] = {}
    for key_node, value_node in node.value:
        try:
            value = construct(value_node, lambda *_: None)
        except ConstructError as exc:  # `!!int ""`, `!!binary ...`: a finding at the value, not a crash
            mark = exc.node.start_mark
            raise config_error("WAS901", f"{key_node.value}: {exc.message}", str(path), mark.line + 1,
                               mark.column + 1) from None
        out[str(key_node.value)] = Entry(value, key_node.start_mark.line + 1)
    return out


def _read_toml(path: Path, text: str) -> dict[str, Entry]:
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"line (\d+)", str(exc))
        raise config_error("WAS901", f"TOML syntax error: {exc}", str(path), int(line.group(1)) if line else None)
    table = data.get("tool", {}).get("wasplan", {})
    section = re.search(r"^\[tool\.wasplan\]", text, re.M)
    offset = text.count("\n", 0, section.start()) + 1 if section else 0
    lines = text.splitlines()
    out = {}
    for key, value in table.items():
        out[key] = Entry(value, _toml_line(lines, offset, key))
    return out


def _toml_line(lines: list[str], offset: int, key: str) -> int | None:
    """The line of `key = ...` inside [tool.wasplan] (or its own `[tool.wasplan.key]` sub-table)."""
    pattern = re.compile(rf'^\s*(?:"{re.escape(key)}"|{re.escape(key)})\s*=|^\[tool\.wasplan\.{re.escape(key)}\]')
    for number in range(offset, len(lines)):
        if pattern.match(lines[number]):
            return number + 1
        if number > offset and lines[number].startswith("[") and not lines[number].startswith("[tool.wasplan"):
            break
    return offset or None
