"""The reader's limits for JSON input, which the json decoder does not enforce (see `limits.py`): nesting depth,
integers within int64, finite floats, and strings that are valid Unicode (JSON can spell a lone surrogate,
`"\\ud800"`, which no UTF-8 output can carry).

`first_problem` walks a decoded value without recursion and returns the first fault with its field path, so
that a large `kubectl get -o json` List loses only the items at fault, each reported at its own position,
instead of sending the whole file through the (far slower) YAML path.

`too_deep` is the quick test for a value orjson decoded (`jsontext.loads_exact`), which can break no other
limit: it goes down one level at a time over the containers only, so a 400 MB dump costs a fraction of the
decode; `first_problem` then runs only on a value that is too deep, to name the field.
"""

from __future__ import annotations

import math

from wasplan.documents import limits

Problem = tuple[str, str, tuple]  # (diagnostic code, message, field path)


def first_problem(value, check_strings: bool, depth: int = 1) -> Problem | None:
    """The first fault of `value` (at nesting `depth`); strings, the bulk of a manifest, cost one type check."""
    if not isinstance(value, (dict, list)):
        return _scalar_problem(value, check_strings, ())
    stack = [(value, depth, ())]
    while stack:
        node, level, path = stack.pop()
        if level > limits.MAX_DEPTH:
            return "WAS013", f"nesting deeper than {limits.MAX_DEPTH} levels", path
        pairs = node.items() if isinstance(node, dict) else enumerate(node)
        for key, item in pairs:
            kind = type(item)
            if kind is str and not check_strings:
                continue
            if check_strings and type(key) is str and not _encodable(key):
                return _surrogate(path + (key,))
            if kind is dict or kind is list:
                stack.append((item, level + 1, path + (key,)))
                continue
            found = _scalar_problem(item, check_strings, path + (key,))
            if found is not None:
                return found
    return None


def too_deep(value, depth: int = 1) -> bool:
    """Whether `value` (at nesting `depth`) nests mappings and lists deeper than the limit."""
    level = [value] if isinstance(value, (dict, list)) else []
    while level:
        if depth > limits.MAX_DEPTH:
            return True
        level = [item for node in level for item in (node.values() if type(node) is dict else node)
                 if type(item) is dict or type(item) is list]
        depth += 1
    return False


def _scalar_problem(item, check_strings: bool, path: tuple) -> Problem | None:
    if isinstance(item, bool) or item is None:
        return None
    if isinstance(item, int):
        if limits.INT64_MIN <= item <= limits.INT64_MAX:
            return None
        return "WAS112", f"integer {str(item)[:40]} is outside the int64 range of Kubernetes fields", path
    if isinstance(item, float):
        return None if math.isfinite(item) else ("WAS112", f"number {item} is not finite; JSON cannot carry it", path)
    if check_strings and isinstance(item, str) and not _encodable(item):
        return _surrogate(path)
    return None


def _surrogate(path: tuple) -> Problem:
    """The path is spelt with the surrogate escaped, so that reporting it cannot fail in turn."""
    shown = tuple(p if not isinstance(p, str) or _encodable(p) else p.encode("utf-8", "backslashreplace").decode()
                  for p in path)
    return "WAS003", "a string holds a lone surrogate (\\ud800-\\udfff escape), which is not valid Unicode", shown


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False
