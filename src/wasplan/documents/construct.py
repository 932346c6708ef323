"""Turn composed YAML nodes into plain Python values, reporting duplicate keys.

PyYAML's own constructors silently let a repeated key win; the API server's strict decoding rejects it, so
we construct mappings ourselves and only borrow PyYAML's scalar constructors for the non-string tags.
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


def _construct_scalar(node: yaml.ScalarNode) -> Any:
    tag = node.tag
    if tag == _STR:
        return node.value
    if tag == _INT:
        return _scalar.construct_yaml_int(node)
    if tag == _NULL:
        return None
    if tag == _BOOL:
        return _scalar.construct_yaml_bool(node)
    if tag == _FLOAT:
        return _scalar.construct_yaml_float(node)
    # timestamps, binary and unknown tags stay text, as Kubernetes' JSON conversion keeps them
    return node.value


DuplicateHandler = Callable[[yaml.Node, tuple], None]


def construct(node: yaml.Node, on_duplicate: DuplicateHandler, path: tuple = ()) -> Any:
    """Build the value of `node`; `on_duplicate(key_node, path)` is called for every repeated key."""
    node_id = node.id
    if node_id == "scalar":
        return _construct_scalar(node)
    if node_id == "sequence":
        return [construct(child, on_duplicate, path + (i,)) for i, child in enumerate(node.value)]
    out: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        if key_node.tag == _MERGE:
            merged = construct(value_node, on_duplicate, path)
            for source in merged if isinstance(merged, list) else [merged]:
                if isinstance(source, dict):
                    for k, v in source.items():
                        out.setdefault(k, v)
            continue
        key = key_node.value if key_node.id == "scalar" else repr(construct(key_node, on_duplicate, path))
        if key in out:
            on_duplicate(key_node, path + (key,))
        out[key] = construct(value_node, on_duplicate, path + (key,))
    return out
