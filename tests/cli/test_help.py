"""Help that reads well at 80 columns: examples in every command, `-h`, metavars as words, nothing cut; and the
lazy registration behind it (the listed summaries are the commands' own, parsing without pydantic means the
same as Typer's own parsing)."""

from __future__ import annotations

import enum
from pathlib import Path

import pytest
from typer._click.exceptions import BadParameter
from typer._coercion import build_runtime_param
from typer.main import get_command

from tests.cli.helpers import run
from wasplan.cli.app import COMMANDS, app
from wasplan.cli.lazy import _Coercer, load

NARROW = {"COLUMNS": "80"}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_has_examples_and_fits_80_columns(command):
    result = run(command, "-h", env=NARROW)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "  Examples:" in lines
    assert max(len(line) for line in lines) <= 80
    assert "<" not in result.stdout  # no Python types as placeholders (<list[str]>, <bool>)


def test_metavars_read_as_words():
    out = run("plan", "--help", env=NARROW).stdout
    assert out.splitlines()[0] == "Usage: wasplan plan [OPTIONS] PATH..."
    assert "  --feature-gates NAME=BOOL,...\n" in out
    assert "  --cluster PATH " in out and "  --baseline FILE " in out
    assert "  -o, --output text|json|yaml|junit|github|html|markdown\n" in out
    assert run("explain", "-h", env=NARROW).stdout.splitlines()[0] == \
        "Usage: wasplan explain [OPTIONS] [TARGET] PATH..."


def test_cluster_help_says_it_takes_directories_and_stdin():
    """A new user passed a snapshot directory only after reading the code: every command that takes --cluster
    says it reads a file, a directory of them, or - for stdin."""
    for command in ("plan", "explain", "lint"):
        out = " ".join(run(command, "--help", env=NARROW).stdout.split())
        assert "--cluster PATH " in out
        assert "a file, a directory of them, or - for stdin" in out, command


def test_the_feature_gate_example_is_never_cut():
    out = run("validate", "-h", env=NARROW).stdout
    assert "GenericWorkload=true,CompositePodGroup=false." in out


def test_help_uses_the_width_it_is_given():
    wide = run("plan", "-h", env={"COLUMNS": "200"}).stdout.splitlines()
    assert "  --no-preemption           Plan without preemption: no PostFilter, no workload-aware preemption." \
        in wide


def test_root_help_and_version():
    result = run("-h", env=NARROW)
    assert result.exit_code == 0
    assert [line.split()[0] for line in result.stdout.split("Commands:")[1].splitlines() if line[2:3] != " "
            and line.strip()] == list(COMMANDS)
    assert run("--version").stdout == "wasplan 0.1.0\n"


@pytest.mark.parametrize("command", list(COMMANDS))
def test_listed_summaries_are_the_commands_own(command):
    assert load(command).help.split("\n\n")[0].replace("\n", " ") == COMMANDS[command][1]


def _samples(param) -> list:
    leaf = param._runtime_param.leaf
    if isinstance(leaf, type) and issubclass(leaf, enum.Enum):
        return [m.value for m in leaf] + [m.value.upper() for m in leaf] + ["html"]
    return {str: ["x", "1.37"], bool: [True, False, "yes", "maybe"], float: ["3.5", "0", "-1", "x"], int: ["3"],
            Path: ["out/dir"]}[leaf]


def _outcome(runtime, value, param):
    try:
        return "ok", runtime.coerce(value, param, None)
    except BadParameter as exc:
        return "refused", exc.message.removeprefix("Value error, ")  # pydantic's prefix; the rest is the same


@pytest.mark.parametrize("command", list(COMMANDS))
def test_cheap_parsing_gives_what_typers_own_parsing_gives(command):
    group = get_command(app)
    cmd = group.commands.get(command) or group.get_command(None, command)
    checked = 0
    for param in cmd.params:
        if not isinstance(getattr(param, "_runtime_param", None), _Coercer):
            continue
        typers = build_runtime_param(param.type_descriptor)
        for value in _samples(param):
            value = [value] if param.multiple or param.nargs == -1 else value
            assert _outcome(param._runtime_param, value, param) == _outcome(typers, value, param)
            checked += 1
    assert checked >= 2


def test_bad_values_are_refused_with_typers_wording():
    result = run("plan", "x.yaml", "--cluster", "c.yaml", "-o", "pdf", env=NARROW)
    assert result.exit_code == 2
    assert "Invalid value for '-o' / '--output': 'pdf' is not one of 'text', 'json', 'yaml'" in result.output
    result = run("explain", "x.yaml", "--cluster", "c.yaml", "--verify-budget", "-1", env=NARROW)
    assert result.exit_code == 2
    assert "Input should be greater than or equal to 0" in result.output


def test_a_mistyped_command_gets_a_suggestion_from_every_command():
    result = run("plna")
    assert result.exit_code == 2
    assert "No such command 'plna'. Did you mean 'plan'?" in result.output


def test_wasplan_alone_prints_the_help_and_exits_2():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "wasplan"], capture_output=True, text=True, check=False,
                          env={"COLUMNS": "80", "PATH": ""})
    assert done.returncode == 2
    assert done.stderr.startswith("Usage: wasplan [OPTIONS] COMMAND [ARGS]...\n")
    assert "  plan      Dry-run kube-scheduler offline: where every pod would go, which\n" in done.stderr
