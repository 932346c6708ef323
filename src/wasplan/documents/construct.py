"""Turn composed YAML nodes into plain Python values, reporting duplicate keys.

PyYAML's own constructors silently let a repeated key win; the API server's strict decoding rejects it, so
we construct mappings ourselves and only borrow PyYAML's scalar constructors for the non-string tags. This
runs for every node of every input, so the common cases (string scalars, mappings) take the shortest path
and field paths are only worked out when a duplicate is actually found.
"""

from __future__ import annotations

from typing import Any, Callable

import yaml

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_MERGE = "tag:yaml.org,2002:merge"

_scalar = yaml.SafeLoader("")  # only its constructor methods are used
_SCALARS: dict[str, Callable[[yaml.ScalarNode], Any]] = {
    _INT: _scalar.construct_yaml_int,
    _FLOAT: _scalar.construct_yaml_float,
    _BOOL: _scalar.construct_yaml_bool,
    _NULL: lambda node: None,
}

DuplicateHandler = Callable[[yaml.Node, tuple], None]


def path_to(root: yaml.Node, target: yaml.Node) -> tuple:
    """The field path of the mapping key node `target` inside `root` (found only when needed)."""
    stack: list[tuple[yaml.Node, tuple]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        if node.id == "mapping":
            for key_node, value_node in node.value:
                key = key_node.value if key_node.id == "scalar" else "?"
                if key_node is target:
                    return path + (key,)
                stack.append((value_node, path + (key,)))
        elif node.id == "sequence":
            stack.extend((child, path + (i,)) for i, child in enumerate(node.value))
    return ()


class _Builder:
    def __init__(self, on_duplicate: Callable[[yaml.Node], None]):
        self.on_duplicate = on_duplicate

    def build(self, node: yaml.Node) -> Any:
        node_id = node.id
        if node_id == "scalar":
            tag = node.tag
            if tag == _STR:
                return node.value
            make = _SCALARS.get(tag)
            # timestamps, binary and unknown tags stay text, as Kubernetes' JSON conversion keeps them
            return make(node) if make is not None else node.value
        build = self.build
        if node_id == "sequence":
            return [build(child) for child in node.value]
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


def construct(node: yaml.Node, on_duplicate: DuplicateHandler) -> Any:
    """Build the value of `node`; `on_duplicate(key_node, path)` is called for every repeated key."""
    return _Builder(lambda key_node: on_duplicate(key_node, path_to(node, key_node))).build(node)
