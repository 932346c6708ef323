"""Comment-keeping read/write of one document's text, for `migrate`.

Only documents that migrate has to edit come through here: ruamel.yaml's round-trip parser is a pure-Python
parser an order of magnitude slower than the libyaml reader, so everything else stays bytes. Indentation is
detected per document because ruamel can only dump one style at a time and newly inserted lines should look
like their neighbours.
"""

from __future__ import annotations

import functools
import io
import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq


@dataclass(frozen=True)
class Indent:
    """ruamel's three numbers: mapping indent, sequence indent (to the item content) and dash offset."""

    mapping: int = 2
    sequence: int = 2
    offset: int = 0


def _yaml() -> YAML:
    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = 1 << 16  # never re-wrap long lines: a re-wrapped line is a change nobody asked for
    return y


_LOADER = _yaml()


def load_yaml(text: str) -> Any:
    """Round-trip load one document (raises ruamel's errors; callers have parsed it once already)."""
    return _LOADER.load(text)


@functools.lru_cache(maxsize=32)
def _dumper(indent: Indent, explicit_start: bool) -> YAML:
    """Building a YAML instance costs about as much as dumping a small document, so they are reused."""
    y = _yaml()
    y.indent(mapping=indent.mapping, sequence=indent.sequence, offset=indent.offset)
    y.explicit_start = explicit_start
    return y


def dump_yaml(tree: Any, indent: Indent, explicit_start: bool = False) -> str:
    """Dump one document in the given indentation (`---` first when the original had one)."""
    out = io.StringIO()
    _dumper(indent, explicit_start).dump(tree, out)
    return out.getvalue()


def _most_common(values: Counter, default: Any) -> Any:
    return values.most_common(1)[0][0] if values else default


def detect_indent(tree: Any, lines: list[str]) -> Indent:
    """Measure the indentation the document's block collections use (most common wins)."""
    maps: Counter = Counter()
    seqs: Counter = Counter()
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, CommentedMap):
            for key, value in node.items():
                if isinstance(value, (CommentedMap, CommentedSeq)):
                    stack.append(value)
                    _measure_child(node, key, value, lines, maps, seqs)
        elif isinstance(node, CommentedSeq):
            stack.extend(v for v in node if isinstance(v, (CommentedMap, CommentedSeq)))
    mapping = _most_common(maps, 2)
    sequence, offset = _most_common(seqs, (mapping, max(mapping - 2, 0)))
    if sequence < offset + 2:
        sequence = offset + 2
    return Indent(mapping, sequence, offset)


def _measure_child(parent: CommentedMap, key: Any, value: Any, lines: list[str], maps: Counter, seqs: Counter) -> None:
    if value.fa.flow_style() or not value:
        return
    key_line, key_col = parent.lc.key(key)
    if isinstance(value, CommentedMap):
        line, col = value.lc.key(next(iter(value)))
        if line > key_line and col > key_col:
            maps[col - key_col] += 1
        return
    line, col = value.lc.item(0)
    if line <= key_line or line >= len(lines):
        return
    dash = lines[line].rfind("-", 0, col)
    if dash >= key_col:
        seqs[(col - key_col, dash - key_col)] += 1


def to_plain(node: Any) -> Any:
    """The round-trip tree as plain dicts/lists/scalars, what the typed models and validators take."""
    if isinstance(node, dict):
        return {str(k) if not isinstance(k, (str, int, float, bool)) else k: to_plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [to_plain(v) for v in node]
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    return node


# ---------------------------------------------------------------------------------------------- JSON

_JSON_INDENT = re.compile(r"\n([ \t]+)\S")


@dataclass(frozen=True)
class JsonStyle:
    """How a JSON file was written, so a rewrite keeps it: indent unit (None = one line) and final newline."""

    indent: str | None
    trailing_newline: bool


def detect_json_style(text: str) -> JsonStyle:
    match = _JSON_INDENT.search(text)
    return JsonStyle(match.group(1) if match else None, text.endswith("\n"))


def dump_json(value: Any, style: JsonStyle) -> str:
    if style.indent is None:
        out = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    else:
        out = json.dumps(value, ensure_ascii=False, indent=style.indent)
    return out + ("\n" if style.trailing_newline else "")
