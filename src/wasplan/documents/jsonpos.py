"""Positions inside one item of a large JSON List without composing the whole file.

A `kubectl get ... -o json` snapshot is one JSON document of tens of megabytes. The reader decodes it without
positions and locates an object only when a finding or an explanation names it; composing the whole text
with libyaml for that took seconds (14 MB: about 2 s) and was repeated for every located item. Here the
json module's C decoder (`raw_decode`, which reports where a value ends) walks the top-level object once to
find where each element of `items` starts and ends, and only the wanted element is composed, padded with the
newlines and spaces before it so its marks are the file's own lines and columns.
"""

from __future__ import annotations

import json
from typing import Callable

import yaml

_DECODER = json.JSONDecoder()
_SPACE = " \t\n\r"


def _skip(text: str, i: int, also: str = "") -> int:
    while i < len(text) and (text[i] in _SPACE or text[i] in also):
        i += 1
    return i


def _elements(text: str, i: int) -> tuple[list[tuple[int, int]], int]:
    """(start, end) of every element of the array whose `[` is at `i`, and the offset after the array."""
    out: list[tuple[int, int]] = []
    i = _skip(text, i + 1)
    while text[i] != "]":
        _, end = _DECODER.raw_decode(text, i)
        out.append((i, end))
        i = _skip(text, end, ",")
    return out, i + 1


def item_spans(text: str) -> list[tuple[int, int]] | None:
    """(start, end) offsets of each element of the top-level object's `items` (the last such key, as the json
    module reads it); None when the text is not such an object (the caller then composes the whole text)."""
    spans = None
    try:
        i = _skip(text, 0)
        if text[i] != "{":
            return None
        i = _skip(text, i + 1)
        while text[i] == '"':
            key, i = _DECODER.raw_decode(text, i)
            i = _skip(text, i, ":")
            if key == "items" and text[i] == "[":
                spans, i = _elements(text, i)
            else:
                _, i = _DECODER.raw_decode(text, i)
            i = _skip(text, i, ",")
    except (ValueError, IndexError):
        return None
    return spans


def compose_span(text: str, start: int, end: int, loader) -> yaml.Node | None:
    """The node of `text[start:end]` with marks in the whole text's lines and columns."""
    line = text.count("\n", 0, start)
    column = start - (text.rfind("\n", 0, start) + 1)
    try:
        return yaml.compose("\n" * line + " " * column + text[start:end], Loader=loader)
    except yaml.YAMLError:
        return None


class JsonLocator:
    """Positions for one JSON document read without them: called, it composes the whole text (once); `items`
    gives one locator per element of its `items`, each composing only its own element."""

    def __init__(self, text: str, loader):
        self.text, self.loader = text, loader
        self._root: list = []
        self._spans: list = []

    def __call__(self) -> yaml.Node | None:
        if not self._root:
            try:
                self._root.append(yaml.compose(self.text, Loader=self.loader))
            except yaml.YAMLError:
                self._root.append(None)
        return self._root[0]

    def items(self, count: int) -> list[Callable[[], yaml.Node | None]]:
        return [lambda i=i: self._item(i, count) for i in range(count)]

    def _item(self, i: int, count: int) -> yaml.Node | None:
        if not self._spans:
            self._spans.append(item_spans(self.text))
        offsets = self._spans[0]
        if offsets is not None and len(offsets) == count:
            return compose_span(self.text, *offsets[i], self.loader)
        root = self()
        for k, v in root.value if root is not None else ():
            if k.value == "items":
                return v.value[i]
        return None
