"""A kubectl-style YAML List read entry by entry (documents/yamllist.py) gives exactly what the whole-document
read gives: the same objects, the same positions for findings, and the whole-document path's findings whenever
anything in the file calls for one."""

from __future__ import annotations

import pytest

from wasplan.documents import reader

POD = """- apiVersion: v1
  kind: Pod
  metadata:
    name: p{i}
    namespace: default
    labels: {{app: web, tier: "{i}"}}
  spec:
    containers:
    - name: c
      image: nginx
      args: ["--port", "80"]
      env:
      - name: A
        value: |
          line one
          line two
    nodeName: n1
  status:
    phase: Running
"""


def kubectl_list(count: int, head: str = "apiVersion: v1\n", tail: str = "") -> str:
    return (head + "items:\n" + "".join(POD.format(i=i) for i in range(count)) + "kind: List\nmetadata:\n"
            "  resourceVersion: \"\"\n" + tail)


def both(text: str, monkeypatch) -> tuple:
    monkeypatch.setattr(reader, "_ENTRY_BY_ENTRY", 0)
    by_entry = reader.read_text("dump.yaml", text)
    monkeypatch.setattr(reader, "_ENTRY_BY_ENTRY", 10**12)
    whole = reader.read_text("dump.yaml", text)
    return by_entry, whole


def marks(node) -> list:
    out = [(node.start_mark.line, node.start_mark.column, node.start_mark.index, node.end_mark.index)]
    if node.id == "mapping":
        for key, value in node.value:
            out += marks(key) + marks(value)
    elif node.id == "sequence":
        for value in node.value:
            out += marks(value)
    return out


@pytest.mark.parametrize(("head", "tail"), [("apiVersion: v1\n", ""), ("", "apiVersion: v1\n"),
                                           ("# kubectl get pods -o yaml\napiVersion: v1\n", "")])
def test_entries_give_the_same_objects_and_positions_as_the_whole_list(monkeypatch, head, tail):
    by_entry, whole = both(kubectl_list(30, head, tail), monkeypatch)
    assert by_entry.diagnostics == whole.diagnostics == []
    assert [(d.obj, d.index, d.item) for d in by_entry.documents] == [(d.obj, d.index, d.item) for d in whole.documents]
    assert all(d.node is None for d in by_entry.documents)  # no node tree kept past reading
    for fast, slow in zip(by_entry.documents, whole.documents):
        assert marks(fast._node()) == marks(slow._node())
        path = ("spec", "containers", 0, "env", 0, "value")
        assert fast.location(path) == slow.location(path)


def test_a_position_is_the_files_line_and_column(monkeypatch):
    monkeypatch.setattr(reader, "_ENTRY_BY_ENTRY", 0)
    text = kubectl_list(3)
    doc = reader.read_text("dump.yaml", text).documents[2]
    assert doc.node is None
    line, col = doc.location(("spec", "nodeName")).line, doc.location(("spec", "nodeName")).col
    assert text.splitlines()[line - 1][col - 1:].startswith("nodeName: n1")
    assert line == 2 + 2 * len(POD.splitlines()) + POD.splitlines().index("    nodeName: n1") + 1


@pytest.mark.parametrize("change", [
    lambda t: t.replace("    phase: Running\n", "    phase: Running\n    phase: Failed\n", 1),  # duplicate key (WAS005)
    lambda t: t.replace("image: nginx", "image: !!binary aGk=", 1),  # a tag (WAS015)
    lambda t: t.replace("labels: {app: web", "labels: &l {app: web", 1).replace("tier: \"1\"}", "tier: \"1\"}\n    x: *l", 1),
    lambda t: t.replace("- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p2", "- 7\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p2"),
    lambda t: t.replace("  kind: Pod\n  metadata:\n    name: p1\n", "  metadata:\n    name: p1\n"),  # no kind (WAS007)
    lambda t: t.replace("      image: nginx\n", "      image: [nginx\n", 1),  # syntax error (WAS004)
    lambda t: t.replace("items:\n- ", "items:\n  - ", 1),  # another layout
    lambda t: t + "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n",
])
def test_anything_unusual_is_read_by_the_whole_document_path(monkeypatch, change):
    by_entry, whole = both(change(kubectl_list(5)), monkeypatch)
    assert [(d.code, d.message, d.location) for d in by_entry.diagnostics] == \
           [(d.code, d.message, d.location) for d in whole.diagnostics]
    assert [d.obj for d in by_entry.documents] == [d.obj for d in whole.documents]
    assert [d.node is None for d in by_entry.documents] == [d.node is None for d in whole.documents]


def test_a_typed_list_gives_its_items_their_kind(monkeypatch):
    text = kubectl_list(2).replace("  kind: Pod\n", "").replace("kind: List", "kind: PodList")
    by_entry, whole = both(text, monkeypatch)
    assert [d.obj["kind"] for d in by_entry.documents] == ["Pod", "Pod"]
    assert [d.obj for d in by_entry.documents] == [d.obj for d in whole.documents]


def test_reading_the_entries_reports_how_far_it_has_come(monkeypatch, tmp_path):
    from wasplan.documents import yamllist

    monkeypatch.setattr(reader, "_ENTRY_BY_ENTRY", 0)
    monkeypatch.setattr(yamllist, "REPORT_EVERY", 10)
    path = tmp_path / "dump.yaml"
    text = kubectl_list(45)
    path.write_text(text)
    events = []
    assert len(reader.read_paths([str(path)], progress=lambda *e: events.append(e)).documents) == 45
    done = [d for _, d, _ in events]
    assert {(name, total) for name, _, total in events} == {(str(path), len(text))}
    assert len(done) == 5 and done == sorted(done)
    assert done[-1] == text.index("kind: List\n")  # the end of the last entry


def test_a_file_of_many_documents_reports_how_far_parsing_has_come(monkeypatch, tmp_path):
    from wasplan.documents import yamllist

    monkeypatch.setattr(yamllist, "REPORT_EVERY", 10)
    path = tmp_path / "many.yaml"
    text = "---\n".join(POD[2:].replace("\n  ", "\n").format(i=i) for i in range(35))
    path.write_text(text)
    events = []
    assert len(reader.read_paths([str(path)], progress=lambda *e: events.append(e)).documents) == 35
    done = [d for _, d, _ in events]
    assert {(name, total) for name, _, total in events} == {(str(path), len(text))}
    assert len(done) == 3 and done == sorted(done) and done[-1] < len(text)
    assert text[:done[0]].count("kind: Pod") == 10  # reported after the tenth document
