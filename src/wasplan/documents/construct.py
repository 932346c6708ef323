"""Turn composed YAML nodes into plain Python values, reporting duplicate keys and refusing anything else.

PyYAML's own constructors silently let a repeated key win; the API server's strict decoding rejects it, so
we construct mappings ourselves and only borrow PyYAML's scalar constructors for the core types. This runs
for every node of every input, so the common cases (string scalars, mappings) take the shortest path and
field paths are only worked out when a duplicate is actually found.

Only plain data is ever built: str, int, float, bool, null, mappings and lists. Any other tag (`!!binary`,
`!!timestamp`, `!!python/...`, `!custom`) raises `ConstructError`, as do values a core tag cannot hold
(`!!int abc`, `!!int ""`, `!!bool maybe`, `!!null x`), a scalar tag on a collection (`!!str {a: 1}`) or a
collection tag on a scalar (`!!map x`), numbers beyond int64 or not finite, nesting deeper than
`limits.MAX_DEPTH` and alias expansion beyond `limits.MAX_ALIASES` / `MAX_ALIAS_NODES` (see
`documents/limits.py` for where the figures come from). Each error carries the offending node, so the reader
reports its line, column and field path. The values a tag takes are YAML 1.1's (yaml.org/type/bool.html,
int.html, float.html, null.html), the set go-yaml v2 decodes for the API server; PyYAML's scalar constructors
index and look up the text without checking it (`!!int ""` raises IndexError, `!!bool maybe` KeyError), so
every error they can raise becomes the same finding.
Implicit timestamps and `=` never get here as such: the loader resolves them to strings.
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable

import yaml

from wasplan.documents import limits

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_MERGE = "tag:yaml.org,2002:merge"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"

_scalar = yaml.SafeLoader("")  # only its constructor methods are used
_SCALARS: dict[str, Callable[[yaml.ScalarNode], Any]] = {
    _INT: _scalar.construct_yaml_int,
    _FLOAT: _scalar.construct_yaml_float,
    _BOOL: _scalar.construct_yaml_bool,
    _NULL: lambda node: None,
}

# `!!null` is the one core tag whose constructor ignores the text; YAML 1.1 gives it these forms only.
_NULL_FORM = re.compile(r"(?:~|null|Null|NULL|)$")
_SCALAR_KIND = {"scalar": "a scalar", "mapping": "a mapping", "sequence": "a list"}

DuplicateHandler = Callable[[yaml.Node, tuple], None]


class ConstructError(Exception):
    """A document that cannot become plain data within the limits; `code` is the diagnostic to report."""

    def __init__(self, code: str, message: str, node: yaml.Node):
        super().__init__(message)
        self.code, self.message, self.node = code, message, node


def path_to(root: yaml.Node, target: yaml.Node) -> tuple:
    """The field path of `target` inside `root`, a mapping key node or a value node (found only when needed)."""
    if target is root:
        return ()
    stack: list[tuple[yaml.Node, tuple]] = [(root, ())]
    seen: set[int] = set()
    while stack:
        node, path = stack.pop()
        if id(node) in seen:  # an alias: its subtree was searched already
            continue
        seen.add(id(node))
        if node.id == "mapping":
            for key_node, value_node in node.value:
                key = key_node.value if key_node.id == "scalar" else "?"
                if key_node is target or value_node is target:
                    return path + (key,)
                stack.append((value_node, path + (key,)))
        elif node.id == "sequence":
            for i, child in enumerate(node.value):
                if child is target:
                    return path + (i,)
                stack.append((child, path + (i,)))
    return ()


def _tag_name(tag: str) -> str:
    return "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag


def _cannot_hold(node: yaml.ScalarNode) -> ConstructError:
    return ConstructError("WAS015", f"{_tag_name(node.tag)} cannot hold {node.value[:40]!r}", node)


def _number(node: yaml.ScalarNode, make: Callable[[yaml.ScalarNode], Any]) -> Any:
    if node.tag == _NULL and not _NULL_FORM.match(node.value):
        raise _cannot_hold(node)
    try:
        value = make(node)
    except (ValueError, TypeError, OverflowError, IndexError, KeyError) as exc:  # `!!int ""`, `!!bool maybe`
        raise _cannot_hold(node) from exc
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int) and not limits.INT64_MIN <= value <= limits.INT64_MAX:
        raise ConstructError("WAS112", f"integer {node.value[:40]} is outside the int64 range of Kubernetes fields", node)
    if isinstance(value, float) and not math.isfinite(value):
        raise ConstructError("WAS112", f"number {node.value[:40]!r} is not finite; JSON cannot carry it", node)
    return value


def _not_plain(node: yaml.Node) -> ConstructError:
    """A tag wasplan does not build, or a core tag on the wrong kind of node (`!!str {a: 1}`, `!!map x`)."""
    tag = node.tag
    if tag in _SCALARS or tag in (_STR, _MAP, _SEQ):
        wanted = "a scalar" if tag in _SCALARS or tag == _STR else "a mapping" if tag == _MAP else "a list"
        return ConstructError("WAS015", f"{_tag_name(tag)} tags {wanted}, but the value is "
                                        f"{_SCALAR_KIND[node.id]}", node)
    return ConstructError("WAS015", f"tag {_tag_name(tag)} is not plain data; wasplan reads only strings, numbers, "
                                    "booleans, null, mappings and lists", node)


class _Builder:
    def __init__(self, on_duplicate: Callable[[yaml.Node], None], track_aliases: bool):
        self.on_duplicate = on_duplicate
        self.depth = 0
        self.track = track_aliases  # False when the text has no `*`, so no node can be reached twice
        self.built: set[int] = set()  # collection nodes built once; building one again is an alias use
        self.aliases = 0
        self.alias_depth = 0  # > 0 while building a subtree reached through an alias
        self.alias_nodes = 0

    def build(self, node: yaml.Node) -> Any:
        if node.id == "scalar":
            tag = node.tag
            if tag == _STR:
                return node.value
            make = _SCALARS.get(tag)
            if make is None:
                raise _not_plain(node)
            return _number(node, make)
        return self._collection(node)

    def _collection(self, node: yaml.Node) -> Any:
        """A mapping or list; an exception abandons the whole document, so the counters need no unwinding."""
        if node.tag != (_MAP if node.id == "mapping" else _SEQ):
            raise _not_plain(node)
        self.depth += 1
        if self.depth > limits.MAX_DEPTH:
            raise ConstructError("WAS013", f"nesting deeper than {limits.MAX_DEPTH} levels", node)
        if self.track:
            self._count_alias(node)
        if node.id == "sequence":
            build = self.build
            value: Any = [build(child) for child in node.value]
        else:
            value = self._mapping(node)
        self.depth -= 1
        if self.alias_depth:
            self.alias_depth -= 1
        return value

    def _count_alias(self, node: yaml.Node) -> None:
        key = id(node)
        if key in self.built or self.alias_depth:
            self.alias_depth += 1
            if key in self.built:
                self.aliases += 1
            self.alias_nodes += len(node.value)
            if self.aliases > limits.MAX_ALIASES or self.alias_nodes > limits.MAX_ALIAS_NODES:
                raise ConstructError("WAS014", f"aliases expand beyond the limit ({limits.MAX_ALIASES} alias uses, "
                                               f"{limits.MAX_ALIAS_NODES:,} nodes)", node)
        else:
            self.built.add(key)

    def _mapping(self, node: yaml.Node) -> dict:
        build = self.build
        out: dict[Any, Any] = {}
        merged: list[Any] = []
        for key_node, value_node in node.value:
            if key_node.id == "scalar":
                if key_node.tag == _MERGE:
                    merged.append(build(value_node))
                    continue
                key = key_node.value
            else:
                key = repr(build(key_node))
            if key in out:
                self.on_duplicate(key_node)
            out[key] = build(value_node)
        if merged:
            self._merge(out, merged)
        return out

    @staticmethod
    def _merge(out: dict, merged: list[Any]) -> None:
        """`<<: *base` keys fill in what the mapping does not set itself (explicit keys win, as in YAML 1.1)."""
        for value in merged:
            for source in value if isinstance(value, list) else [value]:
                if isinstance(source, dict):
                    for k, v in source.items():
                        out.setdefault(k, v)


def construct(node: yaml.Node, on_duplicate: DuplicateHandler, track_aliases: bool = True) -> Any:
    """Build the value of `node`; `on_duplicate(key_node, path)` is called for every repeated key.
    `track_aliases=False` is for text without any `*` (no alias, so nothing to count).

    Raises `ConstructError` for anything that is not plain data within the limits."""
    return _Builder(lambda key_node: on_duplicate(key_node, path_to(node, key_node)), track_aliases).build(node)
