"""Text-level building blocks: spans, splice/transplant, indentation detection, tree primitives, atomic writes."""

from __future__ import annotations

import os

import pytest

from wasplan.documents.atomic import atomic_write
from wasplan.documents.roundtrip import Indent, detect_indent, dump_yaml, load_yaml
from wasplan.migrate import tree as t
from wasplan.migrate.spans import span_indexes, split_spans
from wasplan.migrate.transplant import splice, transplant


def test_spans_cut_at_column_zero_markers_only():
    text = "# head\na: 1\n---\nb: |\n  ---\n  x\n--- # c\nc: 2\n...\n"
    spans = split_spans(text)
    assert [s.text for s in spans] == ["# head\na: 1\n", "---\nb: |\n  ---\n  x\n", "--- # c\nc: 2\n...\n"]
    assert [s.explicit_start for s in spans] == [False, True, True]
    assert "".join(s.text for s in spans) == text


def test_span_indexes_find_the_span_of_each_line():
    spans = split_spans("# head\na: 1\n---\nb: |\n  ---\n  x\n--- # c\nc: 2\n...\n")
    assert span_indexes(spans, [0, 1, 2, 4, 5, 6, 8, 40]) == [0, 0, 1, 1, 1, 2, 2, 2]


def test_splice_takes_edited_lines_only_inside_changed_ranges():
    original = "a:   1\nb: old\nc: 3\n"
    edited = "a: 1\nb: new\nc: 3\n"  # ruamel re-spaced line 0; line 1 is the real edit
    assert splice(original, edited, [(1, 1)], []) == "a:   1\nb: new\nc: 3\n"
    assert splice(original, "a: 1\nb: old\nc: 3\nd: 4\n", [], [(2, 2)]) == "a:   1\nb: old\nc: 3\nd: 4\n"
    assert splice(original, "a: 1\nb: old\nc: 3\nd: 4\n", [], []) == original


def test_splice_gives_up_when_a_neighbour_was_rewrapped():
    original = '{\n  "a": {"x": 1},\n  "b": "Pod"\n}'
    edited = '{\n  "a": {\n    "x": 1\n  },\n  "b": {\n    "single": {}\n  }\n}'
    assert splice(original, edited, [(2, 2)], []) is None


def test_transplant_applies_only_the_hunks_between_the_two_dumps():
    original = "a:   1\nb: old\nc: 3\n"
    baseline = "a: 1\nb: old\nc: 3\n"
    assert transplant(original, baseline, "a: 1\nb: new\nc: 3\n") == "a:   1\nb: new\nc: 3\n"
    # a hunk that touches a line ruamel normalised cannot be placed: the whole edited dump is used
    assert transplant(original, baseline, "a: 2\nb: old\nc: 3\n") == "a: 2\nb: old\nc: 3\n"


def test_detect_indent_measures_the_document():
    text = "a:\n    b:\n    - x\n    - y\n    c:\n    - z\n    d:\n      - w\n"
    tree = load_yaml(text)
    assert detect_indent(tree, text.splitlines()) == Indent(4, 2, 0)
    text = "a:\n  b:\n  - x\n  c:\n    - y\n  d:\n    - z\n"
    assert detect_indent(load_yaml(text), text.splitlines()) == Indent(2, 4, 2)


def _edit(text, fn):
    tree = load_yaml(text)
    fn(tree)
    return dump_yaml(tree, Indent())


def test_pop_entry_keeps_comments_above_and_after():
    text = "a: 1\n# about b\nb:\n  x: 1  # eol\n# after b\n"
    assert _edit(text, lambda d: t.pop_entry(d, "b")) == "a: 1\n# about b\n# after b\n"
    assert _edit("# top\nb:\n  x: 1\n# c\nz: 2\n", lambda d: t.pop_entry(d, "b")) == "# top\n# c\nz: 2\n"


def test_insert_entry_keeps_the_comment_above_the_next_key():
    text = "a: 1\n# about b\nb: 2\n"
    out = _edit(text, lambda d: t.insert_entry(d, "n", t.new_map(d, {"k": t.new_map(d)}), before="b"))
    assert out == "a: 1\nn:\n  k: {}\n# about b\nb: 2\n"


def test_replace_entry_keeps_position_and_comments():
    text = "a: 1\nold: x   # why\nz: 3\n"
    assert _edit(text, lambda d: t.replace_entry(d, "old", "new")) == "a: 1\nnew: x   # why\nz: 3\n"
    text = "a: 1\nm:\n  all: {}  # whole\n# next\nz: 3\n"
    assert _edit(text, lambda d: t.replace_entry(d, "m", "m", "PodGroup")) == "a: 1\nm: PodGroup  # whole\n# next\nz: 3\n"
    text = "a: 1\nm:   # mode\n  all: {}  # whole\nz: 3\n"
    assert _edit(text, lambda d: t.replace_entry(d, "m", "m", "PodGroup")) == "a: 1\nm: PodGroup   # mode  # whole\nz: 3\n"


def test_plain_dicts_get_the_same_edits():
    d = {"a": 1, "old": 2, "z": 3}
    t.replace_entry(d, "old", "new")
    t.insert_entry(d, "m", {}, before="z")
    t.pop_entry(d, "a")
    assert list(d.items()) == [("new", 2), ("m", {}), ("z", 3)]


def test_atomic_write_replaces_and_cleans_up(tmp_path, monkeypatch):
    path = tmp_path / "f.yaml"
    path.write_text("old\n")
    os.chmod(path, 0o600)
    atomic_write(path, b"new\n")
    assert path.read_text() == "new\n" and (path.stat().st_mode & 0o777) == 0o600

    def broken(*_):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        atomic_write(path, b"newer\n")
    assert path.read_text() == "new\n"
    assert [p.name for p in tmp_path.iterdir()] == ["f.yaml"]


def test_atomic_write_follows_symlinks(tmp_path):
    real = tmp_path / "real.yaml"
    real.write_text("old\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    atomic_write(link, b"new\n")
    assert link.is_symlink() and real.read_text() == "new\n"
