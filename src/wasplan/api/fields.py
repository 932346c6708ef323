"""The field types `to_hub` holds a scheduling object to: what the hub models' pydantic validation did until
issue 33, now in one explicit place.

A `--cluster` snapshot's objects are not schema-validated (an API server stored them), so these readers are
what stands between a hand-edited snapshot and the engine. They accept exactly what the pydantic models
accepted in their lax mode, so that every verdict stays the same:

- an integer field takes an int, a bool (as 0/1), a float without a fractional part within int64, or a string
  of ASCII digits (optional sign, single underscores between digits, surrounding whitespace, a fraction of
  zeros only: `" 3 "`, `"+3"`, `"3.00"`); nothing else;
- a string field takes a str (a str subclass, a str-valued enum member, becomes the plain string) or UTF-8
  bytes; nothing else, not a number;
- `metadata` is a map with string keys (copied), or empty.

Each reader takes the field's path in the manifest's own spelling (`spec.schedulingPolicy.gang.minCount`) and
raises one ValueError naming it and the bad value, which `cluster/parse_core.parse_group` reports as WAS608.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

_INTEGER_TEXT = re.compile(r"([+-]?[0-9]+(?:_[0-9]+)*)(?:\.0+)?")
_INT64 = 2 ** 63


_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


class FieldError(ValueError):
    """A field of the wrong type; `path` is where it is in the object (`("spec", "resourceClaims", 0, "name")`),
    so the finding can point at its line."""

    def __init__(self, at: str, message: str):
        super().__init__(message)
        self.path = tuple(int(index) if index else name for name, index in _STEP.findall(at))


def _bad(at: str, expected: str, value: Any) -> FieldError:
    return FieldError(at, f"{at}: expected {expected}, got {value!r}")


def integer(value: Any, at: str) -> int:
    """A required integer field."""
    if type(value) is int:
        return value
    if isinstance(value, int):  # bool, or an int subclass (a YAML reader's own scalar type)
        return int(value)
    if isinstance(value, float):
        if value.is_integer() and -_INT64 <= value < _INT64:
            return int(value)
    elif isinstance(value, (str, bytes, bytearray)):
        text = value.decode("utf-8", "replace") if not isinstance(value, str) else value
        match = _INTEGER_TEXT.fullmatch(text.strip())
        if match:
            return int(match.group(1))
    raise _bad(at, "an integer", value)


def optional_integer(value: Any, at: str) -> int | None:
    return None if value is None else integer(value, at)


def string(value: Any, at: str) -> str:
    """A required string field."""
    if type(value) is str:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, (bytes, bytearray)):
        with contextlib.suppress(UnicodeDecodeError):  # bytes that are not UTF-8 are refused as any other type
            return bytes(value).decode("utf-8")
    raise _bad(at, "a string", value)


def optional_string(value: Any, at: str) -> str | None:
    return None if value is None else string(value, at)


def metadata(value: Any) -> dict[str, Any]:
    """`metadata` as a plain dict of its own (the caller's may be a YAML reader's map type)."""
    if not value:
        return {}
    if not isinstance(value, dict):
        raise _bad("metadata", "a map", value)
    for key in value:
        if not isinstance(key, str):
            raise _bad("metadata", "string keys", key)
    return dict(value)


def mapping(value: Any, at: str) -> dict:
    """A nested object: a map, or empty when absent."""
    if not value:
        return {}
    if not isinstance(value, dict):
        raise _bad(at, "a map", value)
    return value


def items(value: Any, at: str) -> list:
    """A list field: a list, or empty when absent."""
    if not value:
        return []
    if not isinstance(value, list):
        raise _bad(at, "a list", value)
    return value


def optional_items(value: Any, at: str) -> list | None:
    """A status list whose absence (None) differs from an empty one (`[]`, `{}`, `""`)."""
    if value is None:
        return None
    if isinstance(value, list) or (isinstance(value, (dict, str)) and not value):
        return list(value)
    raise _bad(at, "a list", value)


def strict_mapping(value: Any, at: str) -> dict:
    """A nested object that is present (not None): a map, even an empty one."""
    if not isinstance(value, dict):
        raise _bad(at, "a map", value)
    return value
