"""Shell completion through the environment variables the shells' scripts set (Click's protocol as Typer
ships it): commands, `-o` values per command, `--k8s-version` values, explain TARGETs from the paths already on
the line; and the scripts for bash, zsh and fish."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import FIXTURES

TRAINING = str(FIXTURES / "examples" / "training")
CLUSTER = str(FIXTURES / "examples" / "cluster.yaml")


def _complete(shell: str, words: str, cword: int | None = None) -> list[str]:
    env = {**os.environ, "_WASPLAN_COMPLETE": f"complete_{shell}", "_TYPER_COMPLETE_ARGS": words,
           "COMP_WORDS": words, "COMP_CWORD": str(cword if cword is not None else len(words.split()))}
    if shell == "fish":
        env["_TYPER_COMPLETE_FISH_ACTION"] = "get-args"
    code = "import sys; sys.argv[0] = 'wasplan'; from wasplan.cli.app import main; main()"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    return done.stdout.split()


def test_bash_completes_command_names():
    assert _complete("bash", "wasplan pl", 1) == ["plan"]
    assert _complete("bash", "wasplan ", 1) == ["validate", "lint", "plan", "explain", "migrate", "schema", "rules",
                                                "config"]


def test_output_values_are_the_ones_the_command_takes():
    assert _complete("bash", "wasplan plan -o ") == ["text", "json", "yaml", "junit", "github", "html", "markdown"]
    assert _complete("bash", "wasplan migrate -o ") == ["text", "json"]


def test_zsh_completes_k8s_versions():
    assert _complete("zsh", "wasplan validate --k8s-version ") == ["_arguments", "'*:", ':(("1.36"', '"1.37"', '"1.38"))\'']


def test_explain_targets_come_from_the_paths_on_the_line():
    assert _complete("bash", f"wasplan explain --cluster {CLUSTER} {TRAINING} j", 5) == ["job/pretrain-70b"]
    assert _complete("fish", f"wasplan explain {TRAINING} ") == [
        "job/pretrain-70b", "podgroup/finetune-13b-evaluator", "podgroup/finetune-13b-trainers",
        "workload/finetune-13b"]


def test_without_paths_explain_offers_no_target():
    assert _complete("bash", "wasplan explain ", 2) == []


@pytest.mark.parametrize("shell, marker", [("bash", "complete -o default -F _wasplan_completion wasplan"),
                                           ("zsh", "compdef _wasplan_completion wasplan"),
                                           ("fish", "complete --command wasplan --no-files")])
def test_show_completion_prints_the_script_for_each_shell(shell, marker):
    env = {**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    code = "import sys; sys.argv[0] = 'wasplan'; from wasplan.cli.app import main; main()"
    done = subprocess.run([sys.executable, "-c", code, "--show-completion", shell], capture_output=True, text=True,
                          env=env, check=False)
    assert done.returncode == 0
    assert marker in done.stdout


@pytest.mark.parametrize("shell, script", [("bash", ".bash_completions/wasplan.sh"), ("zsh", ".zfunc/_wasplan"),
                                           ("fish", ".config/fish/completions/wasplan.fish")])
def test_install_completion_writes_the_script_for_each_shell(tmp_path, shell, script):
    env = {**os.environ, "HOME": str(tmp_path), "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    code = "import sys; sys.argv[0] = 'wasplan'; from wasplan.cli.app import main; main()"
    done = subprocess.run([sys.executable, "-c", code, "--install-completion", shell], capture_output=True,
                          text=True, env=env, check=False)
    assert done.returncode == 0
    assert "_WASPLAN_COMPLETE" in (tmp_path / script).read_text()
