"""What a new user meets first: usage mistakes, the rule catalogue by name, config typos, the schema of the
release. Each test runs the real CLI on real input and checks the exact words and exit code."""

from __future__ import annotations

import contextlib
import io
import json

from tests.cli.helpers import run
from wasplan.cli.app import app
from wasplan.cli.boundary import guarded


def cli(*args: str) -> tuple[int, str, str]:
    """The console script's path: the exception boundary around the app, as `wasplan ...` runs it."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = guarded(app, list(args))
    return code, out.getvalue(), err.getvalue()


def test_a_bad_option_is_one_line_naming_the_command_and_its_help():
    code, out, err = cli("config", "--bogus")
    assert (code, out) == (2, "")
    assert err == "wasplan config: error: No such option: --bogus (see `wasplan config -h`)\n"
    code, _, err = cli("plan")
    assert code == 2
    assert err == "wasplan plan: error: Missing argument 'PATH...' (see `wasplan plan -h`)\n"
    code, _, err = cli("plna")
    assert err == "wasplan: error: No such command 'plna'. Did you mean 'plan'? (see `wasplan -h`)\n"


def test_a_bad_option_with_json_output_is_still_one_failure_document():
    code, out, err = cli("config", "-o", "json", "--bogus")
    assert code == 2
    assert json.loads(out)["message"] == "No such option: --bogus"
    assert len(err.splitlines()) == 1


def test_rules_takes_the_name_it_prints():
    listing = run("rules").output
    assert "WAS009  no-input" in listing
    by_name, by_code = run("rules", "no-input"), run("rules", "WAS009")
    assert by_name.exit_code == 0
    assert by_name.output == by_code.output
    assert by_name.output.startswith("WAS009 no-input (error)\n")
    assert run("rules", "No-Input").output == by_code.output


def test_rules_suggests_the_nearest_name_or_code():
    result = run("rules", "no-inptu")
    assert result.exit_code == 2
    assert "no diagnostic code or rule name matches 'no-inptu'; did you mean no-input?" in result.output
    assert "did you mean WAS009?" in run("rules", "WAS99").output


def test_rules_usage_shows_its_argument_once_bracketed():
    assert run("rules", "-h").output.startswith("Usage: wasplan rules [OPTIONS] [CODE]\n")


def test_a_mistyped_config_key_gets_a_did_you_mean(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".wasplan.yaml").write_text('k8s-verison: "1.36"\n', encoding="utf-8")
    result = run("config")
    assert result.exit_code == 2
    assert result.output.startswith("wasplan: .wasplan.yaml:1:1: error WAS902 unknown key 'k8s-verison'; did you "
                                    "mean 'k8s-version'? (known keys: k8s-version, feature-gates, ")
    (tmp_path / ".wasplan.yaml").write_text("colour: true\n", encoding="utf-8")
    assert "unknown key 'colour'; known keys: k8s-version," in run("config").output


def _schema_id(output: str) -> str:
    return next(k for k in json.loads(output)["$defs"] if k.endswith("PodGroupSpec"))


def test_schema_of_a_kind_in_several_versions_is_the_release_s_version(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("schema", "PodGroup")
    assert result.exit_code == 0, result.output
    assert _schema_id(result.output) == "io.k8s.api.scheduling.v1beta1.PodGroupSpec"
    assert _schema_id(run("schema", "PodGroup", "--k8s-version", "1.36").output) == \
        "io.k8s.api.scheduling.v1alpha2.PodGroupSpec"
    forced = run("schema", "PodGroup", "--api-version", "scheduling.k8s.io/v1alpha3").output
    assert _schema_id(forced) == "io.k8s.api.scheduling.v1alpha3.PodGroupSpec"
    (tmp_path / ".wasplan.yaml").write_text('k8s-version: "1.36"\n', encoding="utf-8")
    assert _schema_id(run("schema", "PodGroup").output) == "io.k8s.api.scheduling.v1alpha2.PodGroupSpec"
