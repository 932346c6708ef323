"""Items of a JSON List are located by composing only their own element (documents/jsonpos.py), at the same
lines and columns as composing the whole file gives, for pretty-printed and one-line files alike."""

from __future__ import annotations

import json

import yaml

from wasplan.documents.jsonpos import item_spans
from wasplan.documents.model import locate_in_node
from wasplan.documents.reader import _Loader, read_text

ITEMS = [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"p\u00e9-{i}", "namespace": "ns",
                                                          "labels": {"a/b": "x\\y\"z"}},
          "spec": {"containers": [{"name": "c", "image": "i", "args": ["--x", 1, 2.5, None, True]}]}}
         for i in range(4)]
PATHS = [("metadata", "name"), ("spec", "containers", 0, "args", 3), ("metadata", "labels", "a/b"), ()]


def _whole(text: str, i: int):
    root = yaml.compose(text, Loader=_Loader)
    return next(v for k, v in root.value if k.value == "items").value[i]


def test_items_are_located_as_the_whole_file_would_locate_them():
    for indent in (None, 2, "\t"):
        doc = {"kind": "List", "apiVersion": "v1", "items": ITEMS, "metadata": {"resourceVersion": ""}}
        text = json.dumps(doc, indent=indent, ensure_ascii=False)
        read = read_text("list.json", text)
        assert [d.name for d in read.documents] == [f"p\u00e9-{i}" for i in range(4)]
        for i, document in enumerate(read.documents):
            for path in PATHS:
                location = document.location(path)
                assert (location.line, location.col) == locate_in_node(_whole(text, i), path)


def test_item_spans_follow_the_json_modules_reading():
    text = '{"items": [1], "kind": "List", "items": [ {"a": 1} , [2, 3],"x" ]}'
    assert [text[a:b] for a, b in item_spans(text)] == ['{"a": 1}', "[2, 3]", '"x"']  # the last `items` wins
    assert item_spans("[1, 2]") is None and item_spans('{"kind": "List"}') is None
    assert item_spans('{"items": [1, ') is None  # broken text: the caller composes the whole file
