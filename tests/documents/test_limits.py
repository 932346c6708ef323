"""Reader limits and safe loading: each hostile input is one positioned finding, never a hang or a crash."""

from __future__ import annotations

import json

import pytest

from wasplan.documents import limits, read_text
from wasplan.documents.reader import read_bytes

HEAD = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n"


def findings(result):
    return [(d.code, d.location.line, d.location.col, d.message) for d in result.diagnostics]


@pytest.mark.parametrize("value, tag", [
    ("!!binary aGVsbG8=", "!!binary"),
    ("!!python/object/apply:os.system ['true']", "!!python/object/apply:os.system"),
    ("!custom {a: 1}", "!custom"),
    ("!!set {a, b}", "!!set"),
    ("!!timestamp 2024-01-01", "!!timestamp"),
])
def test_tags_other_than_plain_data_are_findings(value, tag):
    result = read_text("t.yaml", HEAD + f"spec: {value}\n")
    assert result.documents == []
    assert findings(result) == [("WAS015", 5, 7, f"tag {tag} is not plain data; wasplan reads only strings, numbers, "
                                                 "booleans, null, mappings and lists")]


def test_a_core_tag_that_cannot_hold_its_value_is_a_finding():
    assert findings(read_text("t.yaml", HEAD + "spec: !!int abc\n")) == [
        ("WAS015", 5, 7, "!!int cannot hold 'abc'")]


def test_implicit_timestamps_and_equals_stay_strings():
    result = read_text("t.yaml", HEAD + "  labels: {day: 2024-01-01, eq: =}\n")
    assert result.diagnostics == []
    assert result.documents[0].obj["metadata"]["labels"] == {"day": "2024-01-01", "eq": "="}


def test_alias_bomb_stops_at_the_limit():
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]" for i in range(8)]
    result = read_text("bomb.yaml", "\n".join(lines) + "\n")
    assert [(c, line) for c, line, _, _ in findings(result)] == [("WAS014", 1)]
    assert "1000 alias uses" in result.diagnostics[0].message


def test_a_few_aliases_are_plain_data():
    text = HEAD + "  labels: &l {app: x}\n  annotations: *l\n"
    result = read_text("a.yaml", text)
    assert result.diagnostics == [] and result.documents[0].obj["metadata"]["annotations"] == {"app": "x"}


def test_yaml_nesting_beyond_the_limit():
    depth = limits.MAX_DEPTH + 1
    result = read_text("deep.yaml", HEAD + "spec: " + "[" * depth + "]" * depth + "\n")
    assert findings(result)[0][:3] == ("WAS013", 5, 6 + limits.MAX_DEPTH)


def test_json_nesting_beyond_the_limit_is_reported_with_a_position():
    deep = '{"a":' * 150 + "1" + "}" * 150
    result = read_text("deep.json", '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":' + deep + "}")
    assert [c for c, *_ in findings(result)] == ["WAS013"]
    # far beyond what the json module or libyaml accept: the same finding, whichever of them stops first
    deeper = "[" * 5000 + "]" * 5000
    assert [c for c, *_ in findings(read_text("deeper.json", deeper))] == ["WAS013"]


@pytest.mark.parametrize("number, message", [
    ("99999999999999999999", "integer 99999999999999999999 is outside the int64 range of Kubernetes fields"),
    (".inf", "number '.inf' is not finite; JSON cannot carry it"),
])
def test_numbers_beyond_int64_or_not_finite(number, message):
    assert findings(read_text("n.yaml", HEAD + f"spec: {{priority: {number}}}\n")) == [("WAS112", 5, 18, message)]


def test_json_numbers_beyond_int64_are_reported_with_a_position():
    text = '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a"},\n "spec": {"priority": 99999999999999999999}}'
    assert [(c, line) for c, line, _, _ in findings(read_text("n.json", text))] == [("WAS112", 2)]


def test_lone_surrogate_in_json_is_a_finding_not_a_crash():
    text = '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "\\ud800"}}'
    result = read_text("s.json", text)
    assert result.documents == []
    assert [(c, line, col) for c, line, col, _ in findings(result)] == [("WAS004", 1, 61)]


def test_a_valid_surrogate_pair_in_json_is_read():
    text = '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "\\ud83d\\ude00"}}'
    result = read_text("p.json", text)
    assert result.diagnostics == [] and result.documents[0].obj["metadata"]["name"] == "\U0001f600"


def test_number_of_documents(monkeypatch):
    monkeypatch.setattr(limits, "MAX_DOCUMENTS", 2)
    result = read_text("many.yaml", (HEAD + "---\n") * 3)
    assert len(result.documents) == 2
    assert findings(result) == [("WAS012", 11, 1, "more than 2 documents in one file; the rest is not read")]


def test_object_size(monkeypatch):
    monkeypatch.setattr(limits, "MAX_OBJECT_BYTES", 1024)
    big = HEAD + "  annotations:\n" + "".join(f"    k{i}: {'v' * 40}\n" for i in range(40))
    result = read_text("big.yaml", big + "---\n" + HEAD)
    assert len(result.documents) == 1
    assert [(c, line) for c, line, _, _ in findings(result)] == [("WAS012", 1)]
    assert "larger than 0.000976562 MiB" in result.diagnostics[0].message


def test_list_items_are_measured_one_by_one(monkeypatch):
    monkeypatch.setattr(limits, "MAX_OBJECT_BYTES", 200)
    items = "".join(f"- apiVersion: v1\n  kind: Pod\n  metadata: {{name: p{i}}}\n" for i in range(5))
    items += "- apiVersion: v1\n  kind: Pod\n  metadata: {name: big, labels: {a: " + "x" * 300 + "}}\n"
    result = read_text("list.yaml", "apiVersion: v1\nkind: List\nitems:\n" + items)
    assert len(result.documents) == 5
    assert [(d.code, d.location.field) for d in result.diagnostics] == [("WAS012", "items[5]")]


def test_binary_and_encodings_stay_findings():
    assert [d.code for d in read_bytes("u16.yaml", HEAD.encode("utf-16")).diagnostics] in (["WAS002"], ["WAS003"])


def test_a_json_list_loses_only_the_items_at_fault():
    """A large `kubectl get -o json` snapshot with one bad number keeps its other items, and the finding points
    at the item's field (no trip through the slow YAML path)."""
    items = [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"p{i}"}, "spec": {"priority": 1}}
             for i in range(3)]
    items[1]["spec"]["priority"] = 10**20
    text = '{"apiVersion": "v1", "kind": "List",\n "items": [\n' + ",\n".join(
        json.dumps(item) for item in items) + "]}\n"
    result = read_text("snap.json", text)
    assert [d.name for d in result.documents] == ["p0", "p2"]
    assert [(d.code, d.location.line, d.location.field) for d in result.diagnostics] == [
        ("WAS112", 4, "items[1].spec.priority")]


def test_lone_surrogate_in_a_key_of_a_json_list_item():
    """Found by the fuzz suite: a key holding a lone surrogate above a nested value reached the checker."""
    text = ('{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Pod", '
            '"\\ud800 metadata": {"name": "a"}}, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "b"}}]}')
    result = read_text("s.json", text)
    assert [d.name for d in result.documents] == ["b"]
    assert [(d.code, d.location.field) for d in result.diagnostics] == [("WAS003", "items[0].\\ud800 metadata")]


def test_a_json_document_that_is_one_huge_number():
    """Found by the fuzz suite: a top-level number beyond int64 in a .json file."""
    result = read_text("n.json", "99999999999999999999\n")
    assert [(d.code, d.location.line) for d in result.diagnostics] == [("WAS112", 1)]
