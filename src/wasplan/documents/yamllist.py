"""A `kubectl get -o yaml` List read item by item, so that a dump's node trees are never all alive at once.

Composing a YAML document keeps a node (with its marks) for every scalar, about thirty times the text; for a
List of 24,000 objects that is gigabytes, all held until the last item is built. kubectl writes a List in one
layout (go-yaml's): top-level keys at column 0, `items:` followed by its entries, each starting with `- ` at
column 0 and every other line of an entry indented or empty. In that layout an entry is a YAML text of its own,
so each is composed and built alone (prefixed with `items:\\n`, so that it nests as deep as in the List), and
its nodes are dropped as soon as its value is built; an entry in which no plain scalar could read differently
in YAML 1.2 is read by a compiled reader instead (`documents/yamlfast.py`, the same values, no nodes). A
Document then gets a locator that composes its entry again, padded so that lines, columns and indexes are those
of the whole file, the first time a finding needs a position (`model.Document.location`).

Anything else goes to the reader's whole-document path, which stays the reference: another layout, more than
one document, directives, anchors or aliases (an alias may point into another entry), and any entry or head
that gives a finding while read here (syntax, duplicate keys, tags, limits, an entry that is not an object), so
that every finding keeps the exact position, depth and wording of that path. `split` only looks at line
starts (C-speed searches); a line it misreads makes an entry or the head fail to parse, which sends the file
to the whole-document path too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

import yaml

from wasplan.documents import limits, yamlfast
from wasplan.documents.construct import ConstructError, construct
from wasplan.documents.loader import FastLoader

_ITEMS = "\nitems:\n- "
# a line at column 0 that ends the items block: anything but an entry start, an indented line, an empty line
_OUTSIDE = re.compile(r"\n(?![ \n]|- )")
_PREFIX = "items:\n"
REPORT_EVERY = 200


@dataclass(frozen=True)
class Entry:
    """One `- ` entry of the items block: its text span and its first line (0-based)."""

    start: int
    end: int
    line: int


@dataclass(frozen=True)
class Layout:
    """A kubectl-style List as text: the List without its entries, and each entry's span."""

    head: str  # the List without its entries (`items: []`), for its apiVersion, kind and metadata
    entries: list[Entry]


def split(text: str) -> Layout | None:
    """The entries of a kubectl-style List, or None when the text is not laid out as one."""
    if "*" in text or "&" in text or text.startswith(("%", "---")) or "\n---" in text or "\n..." in text:
        return None
    at = text.find(_ITEMS)
    if at == -1 and text.startswith(_ITEMS[1:]):
        at = -1  # `items:` on the first line
    elif at == -1 or text.find(_ITEMS, at + 1) != -1:
        return None
    first = at + len(_ITEMS) - 2  # the first entry's `- `
    outside = _OUTSIDE.search(text, first)
    stop = outside.start() + 1 if outside else len(text)
    entries = []
    line = text.count("\n", 0, first)
    start = first
    while start < stop:
        end = text.find("\n- ", start, stop)
        end = stop if end == -1 else end + 1
        entries.append(Entry(start, end, line))
        line += text.count("\n", start, end)
        start = end
    head = text[:at + 1] + "items: []\n" + text[stop:]
    return Layout(head, entries)


def _compose(text: str):
    loader = FastLoader(text)
    try:
        node = loader.get_single_node()
    finally:
        loader.dispose()
    return node


def _entry_node(root):
    """The entry's node in `items:\\n- ...` (None when the text is not exactly one entry)."""
    if root is None or root.id != "mapping" or len(root.value) != 1:
        return None
    items = root.value[0][1]
    return items.value[0] if items.id == "sequence" and len(items.value) == 1 else None


def padded(text: str, entry: Entry) -> str:
    """The entry prefixed so that its marks are the whole file's: newlines up to the line before it, on which
    `items:` stands after a comment that fills the characters between."""
    fill = entry.start - entry.line - len(_PREFIX)  # the comment's spaces
    if entry.line < 2 or fill < 0:  # `items:` on the first line: the prefix is the file's own
        return _PREFIX + text[entry.start:entry.end]
    return "\n" * (entry.line - 2) + "#" + " " * fill + "\n" + _PREFIX + text[entry.start:entry.end]


def relocator(text: str, entry: Entry) -> Callable[[], object]:
    """The entry's node with the whole file's marks, composed on first use."""
    return lambda: _entry_node(_compose(padded(text, entry)))


def read_items(text: str, layout: Layout,
               progress: Callable[[int], None] | None = None) -> tuple[dict, list[dict]] | None:
    """(the List without items, every entry's value), or None when anything calls for the whole-document path;
    `progress(characters read)` every `REPORT_EVERY` entries and at the end."""
    head = _plain(layout.head)
    if not isinstance(head, dict) or head.get("items") != []:
        return None
    values = []
    for n, entry in enumerate(layout.entries, 1):
        if progress is not None and (n % REPORT_EVERY == 0 or n == len(layout.entries)):
            progress(entry.end)
        chunk = _PREFIX + text[entry.start:entry.end]
        oversized = len(chunk) - len(_PREFIX) > limits.MAX_OBJECT_BYTES
        value = None if oversized else yamlfast.read(chunk)  # the compiled reader where it cannot differ
        if value is None:
            value = _plain(chunk, oversized)
        if not isinstance(value, dict) or not isinstance(value.get("items"), list) or len(value["items"]) != 1:
            return None
        item = value["items"][0]
        if not isinstance(item, dict):
            return None
        values.append(item)
    return head, values


def _plain(text: str, oversized: bool = False):
    """The value of a text read without a finding; None at the first finding of any kind."""
    if oversized:
        return None
    found: list = []
    try:
        node = _compose(text)
        value = construct(node, lambda *args: found.append(args), False) if node is not None else None
    except (yaml.YAMLError, ConstructError, RecursionError):
        return None
    return None if found else value
