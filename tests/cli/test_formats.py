"""Each command offers exactly the -o formats it renders, and its --help lists exactly those."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tests.cli.helpers import run
from wasplan.cli.app import app

FORMATS = {
    "validate": ["text", "json", "github", "sarif", "junit"],
    "lint": ["text", "json", "github", "sarif", "junit"],
    "plan": ["text", "json", "yaml", "junit", "github", "html", "markdown"],
    "explain": ["text", "json"],
    "migrate": ["text", "json"],
    "rules": ["text", "json"],
    "config": ["text", "json"],
}


@pytest.mark.parametrize("command", sorted(FORMATS))
def test_output_choices_are_the_formats_the_command_renders(command):
    wide = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "250"}).output
    (line,) = [line for line in wide.splitlines() if "--output" in line]
    assert line.split()[:3] == ["-o,", "--output", "|".join(FORMATS[command])]  # the choices as words, no <type>


def _flat(text: str) -> str:
    """rich's help and error boxes wrapped at 80 columns, joined back into one string."""
    return "".join(line.strip(" │╭╮╰╯─") for line in text.splitlines()).replace(" ", "")


def test_a_format_the_command_does_not_render_is_a_usage_error():
    result = run("migrate", "-o", "junit", "x.yaml")
    assert result.exit_code == 2
    assert "'junit'isnotoneof'text','json'" in _flat(result.output)
