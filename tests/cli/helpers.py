"""Runs the real CLI in-process, as a user would from a shell."""

from __future__ import annotations

from typer.testing import CliRunner

from wasplan.cli.app import app
from wasplan.cli.lazy import load_all

load_all()


def run(*args: str, stdin: str | None = None, env: dict | None = None):
    return CliRunner().invoke(app, list(args), input=stdin, catch_exceptions=False, env=env)
