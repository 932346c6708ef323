"""The manifest reader: every shape of input a user throws at it becomes documents or positioned findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wasplan.documents import read_paths, read_text
from wasplan.documents.reader import ReadOptions, expand_paths, read_bytes

POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: worker-0
spec:
  schedulingGroup:
    podGroupName: trainer
  containers:
  - name: main
    image: trainer:1
"""


def codes(result):
    return [(d.code, d.location.line, d.location.col) for d in result.diagnostics]


def test_multi_document_stream_keeps_order_and_document_index():
    text = POD + "---\n# just a comment\n---\n" + POD.replace("worker-0", "worker-1")
    result = read_text("pods.yaml", text)
    assert [d.name for d in result.documents] == ["worker-0", "worker-1"]
    assert [d.index for d in result.documents] == [0, 2]
    assert result.diagnostics == []


def test_field_positions_point_at_the_key():
    doc = read_text("pods.yaml", POD).documents[0]
    loc = doc.location(("spec", "schedulingGroup", "podGroupName"))
    assert (loc.line, loc.col, loc.field) == (7, 5, "spec.schedulingGroup.podGroupName")
    # a list item is located at its start; a missing field at its deepest existing ancestor
    assert doc.location(("spec", "containers", 0, "image")).line == 10
    assert doc.location(("spec", "schedulingGroup", "nope")).line == 6


def test_kubectl_list_is_flattened_and_typed_lists_get_item_kinds():
    text = """\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: n1}
- apiVersion: v1
  kind: Node
  metadata: {name: n2}
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroupList
items:
- metadata: {name: g1}
  spec: {schedulingPolicy: {basic: {}}}
"""
    result = read_text("snap.yaml", text)
    assert [(d.kind, d.name, d.item) for d in result.documents] == [
        ("Node", "n1", 0), ("Node", "n2", 1), ("PodGroup", "g1", 0)]
    assert result.documents[2].api_version == "scheduling.k8s.io/v1beta1"
    assert result.documents[1].location(("metadata", "name")).line == 9


def test_duplicate_keys_are_findings_with_positions():
    result = read_text("dup.yaml", POD.replace("  name: worker-0\n", "  name: worker-0\n  name: worker-9\n"))
    assert codes(result) == [("WAS005", 5, 3)]
    assert result.diagnostics[0].location.field == "metadata.name"


@pytest.mark.parametrize("text,code,line", [
    ("apiVersion: v1\nkind: Pod\nmetadata: {name: [}\n", "WAS004", 3),
    ("- a\n- b\n", "WAS006", 1),
    ("kind: Pod\nmetadata: {name: x}\n", "WAS007", 1),
    ("apiVersion: v1\nmetadata: {name: x}\n", "WAS007", 1),
])
def test_bad_documents_become_diagnostics_not_exceptions(text, code, line):
    result = read_text("bad.yaml", text)
    assert result.documents == []
    assert [(d.code, d.location.line) for d in result.diagnostics] == [(code, line)]


def test_binary_and_non_utf8_files():
    assert codes(read_bytes("x.yaml", b"apiVersion: v1\n\x00\x01")) == [("WAS002", 2, 1)]
    assert codes(read_bytes("y.yaml", b"apiVersion: v1\nkind: \xff\n")) == [("WAS003", 2, 7)]


def test_empty_documents_are_skipped():
    result = read_text("e.yaml", "---\n---\n# nothing\n---\n" + POD)
    assert [d.name for d in result.documents] == ["worker-0"]
    assert result.diagnostics == []


def test_json_documents_are_located_lazily(tmp_path):
    obj = {"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a"}, "spec": {"nodeName": "n1"}}]}
    path = tmp_path / "pods.json"
    path.write_text(json.dumps(obj, indent=2))
    result = read_paths([str(path)])
    (doc,) = result.documents
    assert doc.node is None  # nothing located yet
    loc = doc.location(("spec", "nodeName"))
    assert (loc.line, loc.col) == (12, 9) and doc.node is not None


def test_directories_are_walked_recursively_sorted_and_hidden_entries_skipped(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / ".git").mkdir()
    (tmp_path / "b" / "z.yml").write_text(POD.replace("worker-0", "z"))
    (tmp_path / "a.yaml").write_text(POD.replace("worker-0", "a"))
    (tmp_path / "notes.txt").write_text("not a manifest")
    (tmp_path / ".git" / "c.yaml").write_text(POD.replace("worker-0", "hidden"))
    result = read_paths([str(tmp_path)])
    assert [d.name for d in result.documents] == ["a", "z"]
    assert [d.order for d in result.documents] == [0, 1]


def test_missing_path_and_stdin():
    result = read_paths(["/no/such/dir", "-"], stdin_text=POD)
    assert [d.code for d in result.diagnostics] == ["WAS001"]
    assert result.documents[0].source == "<stdin>"


def test_yaml_scalars_follow_kubernetes_json_conversion():
    text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  creationTimestamp: 2026-01-02T03:04:05Z\n" \
           "data:\n  a: '1'\n  b: 0x10\n  c: null\n"
    (doc,) = read_text("c.yaml", text).documents
    assert doc.metadata["creationTimestamp"] == "2026-01-02T03:04:05Z"
    assert doc.obj["data"] == {"a": "1", "b": 16, "c": None}


def test_fast_path_uses_libyaml_when_pyyaml_has_it():
    import yaml

    from wasplan.documents.loader import FastLoader

    if yaml.__with_libyaml__:
        from yaml.cyaml import CParser

        assert issubclass(FastLoader, CParser)


def test_merge_keys_fill_in_and_explicit_keys_override_without_a_duplicate_finding():
    text = ("base: &b {cpu: '1', memory: 1Gi}\n"
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\n"
            "data:\n  <<: *b\n  cpu: '2'\n")
    result = read_text("m.yaml", text)
    assert result.diagnostics == []
    assert result.documents[0].obj["data"] == {"cpu": "2", "memory": "1Gi"}


TEMPLATE = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Values.name }}\n"
VALUES = "replicaCount: 2\nimage:\n  repository: nginx\n"


def test_template_file_is_skipped_with_a_note_and_the_render_hint():
    result = read_text("chart/templates/pod.yaml", TEMPLATE)
    assert result.documents == []
    assert [(d.code, d.severity.label, d.location.line, d.location.col) for d in result.diagnostics] == [
        ("WAS031", "info", 4, 9)]
    assert result.diagnostics[0].hint == ("render it first and validate the output: "
                                          "`helm template ... | wasplan validate -` (file: chart/templates/pod.yaml)")
    assert [(s.file, s.doc, s.reason) for s in result.skipped] == [("chart/templates/pod.yaml", None, "template")]


def test_non_kubernetes_document_is_skipped_and_counted():
    result = read_text("values.yaml", VALUES + "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n")
    assert [d.kind for d in result.documents] == ["Namespace"]
    assert [(d.code, d.severity.label, d.location.line, d.location.doc) for d in result.diagnostics] == [
        ("WAS030", "info", 1, 0)]
    assert [(s.file, s.doc, s.reason) for s in result.skipped] == [("values.yaml", 0, "not-kubernetes")]


def test_strict_inputs_turns_skips_back_into_errors():
    strict = ReadOptions(strict_inputs=True)
    assert [(d.code, d.severity.label) for d in read_text("t.yaml", TEMPLATE, strict).diagnostics] == [("WAS008", "error")]
    values = read_text("values.yaml", VALUES, strict)
    assert [(d.code, d.severity.label, d.location.line) for d in values.diagnostics] == [("WAS007", "error", 1)]
    assert values.skipped == []


def test_walk_skips_hidden_entries_node_modules_and_excluded_patterns(tmp_path):
    for rel in ("a.yaml", ".hidden.yaml", ".github/workflows/ci.yml", "node_modules/pkg/x.yaml",
                "charts/app/templates/pod.yaml", "charts/app/values.yaml", "sub/b.yml", "sub/c.json", "sub/d.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("{}\n")
    files, diags = expand_paths([str(tmp_path)])
    assert [Path(f).relative_to(tmp_path).as_posix() for f in files] == [
        "a.yaml", "charts/app/templates/pod.yaml", "charts/app/values.yaml", "sub/b.yml", "sub/c.json"]
    files, _ = expand_paths([str(tmp_path)], exclude=("templates/", "/sub/*.json"))
    assert [Path(f).relative_to(tmp_path).as_posix() for f in files] == [
        "a.yaml", "charts/app/values.yaml", "sub/b.yml"]
    assert diags == []


def test_exclude_applies_to_files_named_on_the_command_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("values.yaml").write_text(VALUES)
    Path("pod.yaml").write_text("{}\n")
    assert expand_paths(["values.yaml", "pod.yaml"], exclude=("values.yaml",)) == (["pod.yaml"], [])
