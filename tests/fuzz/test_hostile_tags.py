"""The hostile-tag reproducers and their classes, fixed cases beside the random fuzz runs: every core YAML tag
with a value it cannot take, and core tags on the wrong kind of node, placed in a real manifest at one field. Each
command reports the same positioned finding (file, line, column, field) and its documented exit code; none
reaches the boundary's "internal error" line."""

from __future__ import annotations

import json

import pytest

from tests.fuzz.test_fuzz_commands import CLUSTER, run_cli

POD = """\
apiVersion: v1
kind: Pod
metadata: {{name: p, namespace: default}}
spec:
  priority: {value}
  containers: [{{name: main, image: app:1}}]
"""

CASES = [
    ('!!int ""', "!!int cannot hold ''"),
    ("!!int _", "!!int cannot hold '_'"),
    ("!!int 0x", "!!int cannot hold '0x'"),
    ("!!int abc", "!!int cannot hold 'abc'"),
    ('!!float ""', "!!float cannot hold ''"),
    ("!!float abc", "!!float cannot hold 'abc'"),
    ("!!bool maybe", "!!bool cannot hold 'maybe'"),
    ('!!bool ""', "!!bool cannot hold ''"),
    ("!!null x", "!!null cannot hold 'x'"),
    ("!!str {a: 1}", "!!str tags a scalar, but the value is a mapping"),
    ("!!int [1]", "!!int tags a scalar, but the value is a list"),
    ("!!map x", "!!map tags a mapping, but the value is a scalar"),
    ("!!seq x", "!!seq tags a list, but the value is a scalar"),
    ("!!map [1]", "!!map tags a mapping, but the value is a list"),
    ("!!seq {a: 1}", "!!seq tags a list, but the value is a mapping"),
    ("!!timestamp nope", "tag !!timestamp is not plain data; wasplan reads only strings, numbers, booleans, null, "
                         "mappings and lists"),
    ("!!binary '@@'", "tag !!binary is not plain data; wasplan reads only strings, numbers, booleans, null, "
                      "mappings and lists"),
]
# (command, exit code): validate and lint find an invalid manifest (1); migrate and plan cannot work on it (2)
COMMANDS = [(["validate"], 1), (["lint"], 1), (["migrate", "--check"], 2), (["plan", "--cluster", CLUSTER], 2)]


@pytest.mark.parametrize("value, message", CASES)
@pytest.mark.parametrize("command, exit_code", COMMANDS)
def test_hostile_tag_is_a_positioned_finding(tmp_path, value, message, command, exit_code):
    path = tmp_path / "pod.yaml"
    path.write_text(POD.format(value=value))
    code, out, err = run_cli(*command[:1], str(path), *command[1:], "-o", "json")
    assert "internal error" not in err and "Traceback" not in err, err
    assert code == exit_code, (code, out, err)
    (found,) = [d for d in json.loads(out)["diagnostics"] if d["code"] == "WAS015"]
    assert (found["message"], found["file"], found["line"], found["column"], found["field"]) == (
        message, str(path), 5, 13, "spec.priority")


def test_tag_inside_a_list_names_the_index(tmp_path):
    path = tmp_path / "pod.yaml"
    path.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: a\n"
                    "    image: b\n    args: [x, !!bool maybe]\n")
    code, out, _ = run_cli("validate", str(path), "-o", "json")
    (found,) = json.loads(out)["diagnostics"]
    assert code == 1
    assert (found["line"], found["column"], found["field"]) == (8, 15, "spec.containers[0].args[1]")


def test_hostile_tag_in_the_config_file(tmp_path, monkeypatch):
    (tmp_path / ".wasplan.yaml").write_text('k8s-version: !!int ""\n')
    (tmp_path / "pod.yaml").write_text(POD.format(value="1"))
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli("validate", "pod.yaml")
    assert code == 2
    assert "error WAS901 k8s-version: !!int cannot hold ''" in err
    assert ".wasplan.yaml:1:14" in err and "internal error" not in err


CLUSTER_KIND = """\
apiVersion: wasplan.io/v1alpha1
kind: Cluster
metadata: {{name: c}}
spec:
  nodePools:
  - name: gpu
    count: 2
    namePattern: "{template}"
    allocatable: {{cpu: "8", memory: 32Gi}}
"""


@pytest.mark.parametrize("template, message", [
    ("n-{index:99999999999999999999}", "width 99999999999999999999 in template 'n-{index:99999999999999999999}' is "
                                       "wider than 253, the longest name Kubernetes accepts"),
    ("n-{index:254}", "width 254 in template 'n-{index:254}' is wider than 253, the longest name Kubernetes accepts"),
    ("n-{index*99999999999999999*99999999999999999}",
     "value beyond int64 in template 'n-{index*99999999999999999*99999999999999999}' (index 1)"),
])
def test_cluster_template_beyond_any_node(tmp_path, template, message):
    cluster = tmp_path / "cluster.yaml"
    cluster.write_text(CLUSTER_KIND.format(template=template))
    pod = tmp_path / "pod.yaml"
    pod.write_text(POD.format(value="1").replace("  priority: 1\n", ""))
    code, out, err = run_cli("plan", str(pod), "--cluster", str(cluster), "-o", "json")
    assert code == 2 and "internal error" not in err
    (found,) = [d for d in json.loads(out)["diagnostics"] if d["code"] == "WAS605"]
    assert (found["message"], found["line"], found["field"]) == (message, 8, "spec.nodePools[0].namePattern")


def test_width_253_is_accepted(tmp_path):
    cluster = tmp_path / "cluster.yaml"
    cluster.write_text(CLUSTER_KIND.format(template="{index:0253}"))
    pod = tmp_path / "pod.yaml"
    pod.write_text(POD.format(value="1").replace("  priority: 1\n", ""))
    code, out, _ = run_cli("plan", str(pod), "--cluster", str(cluster), "-o", "json")
    assert code == 0
    assert json.loads(out)["pods"][0]["node"] == "0" * 253
