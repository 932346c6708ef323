"""Colour: off when piped, on with FORCE_COLOR, off again with NO_COLOR or --no-color (before or after the
command); `migrate --diff` coloured like `git diff` when colour is on."""

from __future__ import annotations

from tests.cli.helpers import run
from tests.conftest import FIXTURES

BROKEN = str(FIXTURES / "manifests" / "broken-from-a-blog.yaml")
ESC = "\x1b["


def test_piped_output_is_plain():
    assert ESC not in run("validate", BROKEN, env={"FORCE_COLOR": "", "NO_COLOR": ""}).stdout


def test_force_color_colours_a_pipe_and_no_color_wins():
    assert f"{ESC}1;31merror" in run("validate", BROKEN, env={"FORCE_COLOR": "1", "NO_COLOR": ""}).stdout
    assert ESC not in run("validate", BROKEN, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout


def test_no_color_flag_on_the_command_or_before_it():
    env = {"FORCE_COLOR": "1", "NO_COLOR": ""}
    assert ESC not in run("validate", "--no-color", BROKEN, env=env).stdout
    assert ESC not in run("--no-color", "validate", BROKEN, env=env).stdout
    assert f"{ESC}1;31merror" in run("validate", BROKEN, env=env).stdout  # the flag does not stick


def test_migrate_diff_is_coloured_when_colour_is_on():
    case = str(FIXTURES / "migrate" / "v1alpha1-workload" / "input.yaml")
    coloured = run("migrate", "--to-k8s", "1.37", "--diff", case, env={"FORCE_COLOR": "1", "NO_COLOR": ""}).stdout
    assert f"{ESC}31m-apiVersion: scheduling.k8s.io/v1alpha1{ESC}0m\n" in coloured
    assert f"{ESC}36m@@ -1,5 +1,5 @@{ESC}0m\n" in coloured
    plain = run("migrate", "--to-k8s", "1.37", "--diff", "--no-color", case, env={"FORCE_COLOR": "1"}).stdout
    assert "\n-apiVersion: scheduling.k8s.io/v1alpha1\n" in plain and ESC not in plain


def test_plan_colours_only_the_result_cell():
    plan = run("plan", str(FIXTURES / "plan-text" / "sweep.yaml"), "--cluster",
               str(FIXTURES / "plan-diff" / "cluster.yaml"), env={"FORCE_COLOR": "1", "NO_COLOR": "", "COLUMNS": "80"})
    assert f"ml/sweep-job  basic   -         0/100   {ESC}31mUnschedulable{ESC}0m  -          -\n" in plan.stdout
