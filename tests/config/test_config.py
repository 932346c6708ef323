"""Config files: discovery up to the repository root, keys with their lines, command line over file,
and `wasplan config` showing where every value comes from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import run
from wasplan.config.files import ConfigError, find_config
from wasplan.config.resolve import resolve
from wasplan.config.settings import Settings

POD = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: i}]\n"


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_discovery_walks_up_to_the_repository_root_and_stops_there(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    _write(tmp_path / ".wasplan.yaml", "strict: true\n")  # outside the repository: never found
    deep = repo / "a" / "b"
    deep.mkdir(parents=True)
    assert find_config(deep) is None
    _write(repo / "pyproject.toml", "[project]\nname = 'x'\n")  # no [tool.wasplan]: not a config
    assert find_config(deep) is None
    _write(repo / "a" / "pyproject.toml", "[tool.wasplan]\nstrict = true\n")
    assert find_config(deep) == repo / "a" / "pyproject.toml"
    _write(repo / "a" / "b" / ".wasplan.yml", "strict: false\n")
    assert find_config(deep) == deep / ".wasplan.yml"


def test_yaml_keys_become_settings_with_their_sources(tmp_path):
    cfg = _write(tmp_path / ".wasplan.yaml", "k8s-version: 1.36\nfeature-gates:\n  GenericWorkload: true\n"
                 "  CompositePodGroup: false\nselect: [WAS1, WAS404]\nper-file-ignores:\n  'charts/**': WAS405,WAS404\n"
                 "strict-inputs: true\ncluster: clusters/lab.yaml\nfail-on: preemption\n")
    settings = resolve({}, cwd=tmp_path, config=str(cfg))
    assert (settings.k8s_version, settings.feature_gates) == ("1.36", "GenericWorkload=true,CompositePodGroup=false")
    assert (settings.select, settings.per_file_ignores) == (("WAS1", "WAS404"), (("charts/**", ("WAS405", "WAS404")),))
    assert (settings.strict_inputs, settings.fail_on, settings.strict) == (True, "preemption", False)
    assert settings.cluster == (str(tmp_path / "clusters" / "lab.yaml"),)  # relative to the file, outside the cwd
    assert settings.source("fail-on").endswith(".wasplan.yaml:10")
    assert settings.source("strict") == "default"


def test_command_line_overrides_the_file_key_by_key(tmp_path):
    cfg = _write(tmp_path / ".wasplan.yaml", "strict: true\nignore: [WAS4]\nk8s-version: '1.36'\n")
    settings = resolve({"strict": False, "ignore": ["WAS405"], "k8s-version": None}, config=str(cfg))
    assert (settings.strict, settings.ignore, settings.k8s_version) == (False, ("WAS405",), "1.36")
    assert (settings.source("strict"), settings.source("ignore")) == ("command line", "command line")


def test_pyproject_table_with_lines(tmp_path):
    cfg = _write(tmp_path / "pyproject.toml", "[project]\nname = 'x'\n\n[tool.wasplan]\nstrict = true\n"
                 "exclude = ['charts/']\n\n[tool.wasplan.per-file-ignores]\n'a/*.yaml' = ['WAS404']\n")
    settings = resolve({}, config=str(cfg))
    assert (settings.strict, settings.exclude, settings.per_file_ignores) == (True, ("charts/",), (("a/*.yaml", ("WAS404",)),))
    assert settings.source("exclude").endswith("pyproject.toml:6")
    assert settings.source("per-file-ignores").endswith("pyproject.toml:8")


@pytest.mark.parametrize("text,code,line,message", [
    ("strict: true\nstrictness: 1\n", "WAS902", 2, "unknown key 'strictness'"),
    ("strict: yes please\n", "WAS903", 1, "strict: expected true or false, got a string"),
    ("k8s-version: 1.35\n", "WAS903", 1, "k8s-version: unsupported Kubernetes release '1.35'"),
    ("\nignore: [WAS4, NOPE]\n", "WAS904", 2, "ignore: 'NOPE' is no diagnostic code or code prefix"),
    ("per-file-ignores: {'*.yaml': [WAS4O4]}\n", "WAS904", 1, "per-file-ignores: 'WAS4O4' is no diagnostic code"),
    ("fail-on: always\n", "WAS903", 1, "fail-on: expected one of never, pending, preemption, regression, got 'always'"),
    ("feature-gates: {GenericWorkload: 1}\n", "WAS903", 1, "feature gate GenericWorkload: expected true or false"),
    ("strict: [\n", "WAS901", 2, "YAML syntax error"),
    ("- strict\n", "WAS901", 1, "must be a mapping"),
])
def test_bad_files_are_errors_with_file_and_line(tmp_path, text, code, line, message):
    cfg = _write(tmp_path / ".wasplan.yaml", text)
    with pytest.raises(ConfigError) as caught:
        resolve({}, config=str(cfg))
    d = caught.value.diagnostic
    assert (d.code, d.location.line) == (code, line)
    assert message in d.message


def test_bad_toml_value_points_at_its_line(tmp_path):
    cfg = _write(tmp_path / "pyproject.toml", "[tool.wasplan]\nstrict = true\nfail-on = 3\n")
    with pytest.raises(ConfigError) as caught:
        resolve({}, config=str(cfg))
    assert (caught.value.diagnostic.code, caught.value.diagnostic.location.line) == ("WAS903", 3)


def test_cli_exits_2_on_a_bad_config_and_names_file_and_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / ".wasplan.yaml", "exclude: charts/\nselct: [WAS1]\n")
    _write(tmp_path / "pod.yaml", POD)
    result = run("validate", "pod.yaml")
    assert result.exit_code == 2
    assert result.output.startswith("wasplan: .wasplan.yaml:2:1: error WAS902 unknown key 'selct'; did you mean "
                                    "'select'? (known keys: ")
    assert run("validate", "pod.yaml", "--no-config").exit_code == 0
    assert run("validate", "pod.yaml", "--select", "WAS1,XX").exit_code == 2


def test_config_command_prints_values_and_sources(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / ".git" / "HEAD", "ref: refs/heads/main\n")
    _write(tmp_path / ".wasplan.yaml", "# team defaults\nk8s-version: '1.36'\nignore: WAS405\n")
    result = run("config", "-o", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["configFile"] == ".wasplan.yaml"
    assert data["settings"]["k8s-version"] == {"value": "1.36", "source": ".wasplan.yaml:2"}
    assert data["settings"]["ignore"] == {"value": ["WAS405"], "source": ".wasplan.yaml:3"}
    assert data["settings"]["strict"] == {"value": False, "source": "default"}
    text = run("config").output.splitlines()
    assert text[0] == "config file: .wasplan.yaml"
    assert text[1] == "k8s-version       1.36  [.wasplan.yaml:2]"
    assert run("config", "--no-config").output.splitlines()[0] == "config file: (none found)"


def test_config_shows_the_effective_feature_gates_and_where_each_comes_from(tmp_path, monkeypatch):
    """Per release (the config's, or --k8s-version): each gate's value, stage and why it has that value."""
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / ".wasplan.yaml", "k8s-version: '1.36'\nfeature-gates: DRAWorkloadResourceClaims=true,"
                                       "GangScheduling=false\n")
    data = json.loads(run("config", "-o", "json").output)
    gates = {g["name"]: g for g in data["featureGates"]["gates"]}
    assert data["featureGates"]["k8sVersion"] == "1.36" and "CompositePodGroup" not in gates
    assert gates["GangScheduling"] == {"name": "GangScheduling", "enabled": False, "stage": "Alpha",
                                       "upstreamDefault": False, "source": "feature-gates [.wasplan.yaml:2]"}
    assert gates["DRAWorkloadResourceClaims"]["enabled"] is True
    assert gates["GenericWorkload"]["source"] == "wasplan's profile (upstream: off)"
    assert gates["DynamicResourceAllocation"]["source"] == "locked (GA)"
    assert (gates["DRADeviceTaintRules"]["enabled"], gates["DRADeviceTaintRules"]["source"]) == (False,
                                                                                               "upstream default")
    text = run("config", "--no-config", env={"COLUMNS": "100"}).output.splitlines()
    at = text.index("feature gates for Kubernetes 1.37 (another release: --k8s-version):")
    assert "  CompositePodGroup                   on   Alpha  wasplan's profile (upstream: off)" in text[at:]
    assert "  DRADeviceTaintRules                 on   GA     upstream default" in text[at:]
    # the config's gates are checked against the release asked for: GangScheduling is gone in 1.37
    wrong = run("config", "--k8s-version", "1.37", "-o", "json")
    assert wrong.exit_code == 2 and "unknown feature gate 'GangScheduling' for Kubernetes 1.37" in wrong.output


def test_settings_defaults_are_the_command_defaults():
    s = Settings()
    assert (s.k8s_version, s.strict, s.strict_inputs, s.fail_on, s.exclude) == ("1.37", False, False, "pending", ())


def test_environment_variables_sit_between_the_file_and_the_command_line(tmp_path):
    cfg = _write(tmp_path / ".wasplan.yaml", "k8s-version: '1.37'\nstrict: false\nignore: [WAS4]\n")
    env = {"WASPLAN_K8S_VERSION": "1.36", "WASPLAN_STRICT": "yes", "WASPLAN_IGNORE": "WAS405,WAS1",
           "WASPLAN_PER_FILE_IGNORES": "ignored: only a file sets per-file-ignores"}
    settings = resolve({"strict": False}, config=str(cfg), environ=env)
    assert (settings.k8s_version, settings.strict, settings.ignore) == ("1.36", False, ("WAS405", "WAS1"))
    assert settings.source("k8s-version") == "environment (WASPLAN_K8S_VERSION)"
    assert settings.source("strict") == "command line"
    assert settings.per_file_ignores == ()


@pytest.mark.parametrize("name,value,code,message", [
    ("WASPLAN_STRICT_INPUTS", "sometimes", "WAS903", "strict-inputs: expected true or false, got 'sometimes'"),
    ("WASPLAN_SELECT", "WAS4,BOGUS", "WAS904", "select: 'BOGUS' is no diagnostic code"),
    ("WASPLAN_FAIL_ON", "always", "WAS903", "fail-on: expected one of never, pending, preemption"),
])
def test_bad_environment_values_name_the_variable(name, value, code, message):
    with pytest.raises(ConfigError) as caught:
        resolve({}, no_config=True, environ={name: value})
    d = caught.value.diagnostic
    assert (d.code, d.location.file) == (code, f"environment variable {name}")
    assert message in d.message


def test_config_command_shows_an_environment_source(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WASPLAN_EXCLUDE", "charts/,vendor/")
    data = json.loads(run("config", "-o", "json", "--no-config").output)
    assert data["settings"]["exclude"] == {"value": ["charts/", "vendor/"], "source": "environment (WASPLAN_EXCLUDE)"}


def test_a_gate_the_release_removed_is_refused_at_its_file_and_line(tmp_path, monkeypatch):
    """1.38 removed PodGroupPreemptionPolicy (its feature always on): a config naming it is WAS907 with upstream's
    `unrecognized feature gate` (component-base featuregate); the same file is fine for 1.37, which has the gate."""
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / ".wasplan.yaml", "k8s-version: '1.38'\nfeature-gates:\n  PodGroupPreemptionPolicy: true\n")
    _write(tmp_path / "pod.yaml", POD)
    result = run("validate", "pod.yaml")
    assert result.exit_code == 2
    assert result.output.startswith("wasplan: .wasplan.yaml:2:1: error WAS907 feature-gates: unrecognized feature "
                                    "gate: PodGroupPreemptionPolicy (removed in Kubernetes 1.38, where its feature "
                                    "is always on)")
    assert run("validate", "pod.yaml", "--k8s-version", "1.37").exit_code == 0
    flag = run("validate", "pod.yaml", "--no-config", "--k8s-version", "1.38", "--feature-gates",
               "DynamicResourceAllocation=true")
    assert flag.exit_code == 2 and "unrecognized feature gate: DynamicResourceAllocation" in flag.output
