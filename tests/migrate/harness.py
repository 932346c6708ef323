"""Running fixture cases through the real CLI, shared by the fixture tests.

A case is `fixtures/migrate/<case>/` with `input.*` (a file or a directory tree), `case.toml` (CLI args,
expected exit code and diagnostic codes) and the committed `expected.*` output. `WASPLAN_REGEN=1` rewrites
the expected outputs from the current code (review the diff before committing it).
"""

from __future__ import annotations

import json
import os
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from wasplan.cli import migrate_cmd  # noqa: F401  (registers the command)
from wasplan.cli.app import app

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "migrate"
CASES = sorted(p.name for p in FIXTURES.iterdir() if (p / "case.toml").exists())


@dataclass
class Case:
    name: str
    root: Path
    args: list[str]
    exit: int
    codes: list[str]

    @property
    def input(self) -> Path:
        return next(p for p in self.root.iterdir() if p.name.startswith("input"))

    @property
    def expected(self) -> Path:
        return self.root / self.input.name.replace("input", "expected")

    @property
    def release(self) -> str:
        if "--to-k8s" in self.args:
            return self.args[self.args.index("--to-k8s") + 1]
        return "1.36" if "v1alpha2" in self.args else "1.37"


def load(name: str) -> Case:
    spec = tomllib.loads((FIXTURES / name / "case.toml").read_text())
    return Case(name, FIXTURES / name, list(spec["args"]), int(spec["exit"]), list(spec["codes"]))


def invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(app, ["migrate", *args], input=input)


def files_of(path: Path) -> dict[str, bytes]:
    if path.is_file():
        return {"": path.read_bytes()}
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def run_in_place(case: Case, tmp: Path):
    """Copy the input to `tmp`, migrate it in place with `-o json`; returns (result, report, files)."""
    target = tmp / case.input.name
    if case.input.is_dir():
        shutil.copytree(case.input, target)
    else:
        shutil.copy(case.input, target)
    result = invoke(str(target), *case.args, "--in-place", "-o", "json")
    report = json.loads(result.stdout)
    if os.environ.get("WASPLAN_REGEN") and result.exit_code == case.exit:
        if case.expected.exists():
            shutil.rmtree(case.expected) if case.expected.is_dir() else case.expected.unlink()
        shutil.copytree(target, case.expected) if target.is_dir() else shutil.copy(target, case.expected)
    return result, report, files_of(target)
