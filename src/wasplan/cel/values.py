"""Kubernetes CEL value types for DRA selectors: `quantity` and `semver`, as the CEL runtime can carry them.

The runtime (`common-expression-language`, see `wasplan.cel`) only passes plain values (int, string, list,
map, ...) between Python functions and expressions, so a quantity is the one-entry map
`{"__quantity__": "<numerator>/<denominator>"}` (exact and canonical, so `==` compares values as
`k8s.io/apiserver/pkg/cel/library/quantity.go` does) and a semantic version `{"__semver__": "<text>"}`.
Member functions (`q.isGreaterThan(other)`, `v.major()`) reach these Python functions with the receiver as the
first argument; `compareTo`, `isGreaterThan` and `isLessThan` serve both types and dispatch on the tag.

Semantics follow `k8s.io/apiserver/pkg/cel/library` `quantity.go` and `semverlib.go` (v0.36.0): `quantity(s)`
and `isQuantity(s)` parse with the Kubernetes grammar (`wasplan.api.quantity`); `semver(s)` parses strict
Semantic Versioning 2.0.0 (blang/semver `Parse`), `semver(s, true)` first normalises (`v` prefix, missing minor
or patch, leading zeros) as `semverlib.go`'s `normalizeVersion`.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from wasplan.api.quantity import QuantityError, parse_quantity
from wasplan.api.semver import SEMVER as _SEMVER

QUANTITY_TAG, SEMVER_TAG = "__quantity__", "__semver__"


class CelFunctionError(ValueError):
    """A Kubernetes library function rejected its argument (the message is the runtime error's text)."""


def quantity_value(amount: Fraction) -> dict[str, str]:
    return {QUANTITY_TAG: f"{amount.numerator}/{amount.denominator}"}


def _amount(value: Any) -> Fraction:
    if isinstance(value, dict) and QUANTITY_TAG in value:
        return Fraction(value[QUANTITY_TAG])
    if isinstance(value, int) and not isinstance(value, bool):
        return Fraction(value)
    raise CelFunctionError(f"no such overload: expected a quantity, got {type(value).__name__}")


def quantity(text: Any) -> dict[str, str]:
    if not isinstance(text, str):
        raise CelFunctionError("no such overload: quantity(string)")
    try:
        return quantity_value(parse_quantity(text).amount)
    except QuantityError as exc:
        raise CelFunctionError(f"quantities must match the regular expression: {exc}") from None


def is_quantity(text: Any) -> bool:
    try:
        quantity(text)
    except CelFunctionError:
        return False
    return True


def _normalize(text: str) -> str:
    """`semverlib.go` normalizeVersion: strip a leading `v`, pad to three parts, drop leading zeros."""
    text = text[1:] if text.startswith("v") else text
    core, rest = re.match(r"^([0-9.]*)(.*)$", text).groups()  # type: ignore[union-attr]
    parts = core.split(".")
    if not 1 <= len(parts) <= 3 or not all(p.isdigit() for p in parts) or (rest and rest[0] not in "-+"):
        return text
    return ".".join([str(int(p)) for p in parts] + ["0"] * (3 - len(parts))) + rest


def semver(text: Any, normalize: bool = False) -> dict[str, str]:
    if not isinstance(text, str):
        raise CelFunctionError("no such overload: semver(string)")
    candidate = _normalize(text) if normalize else text
    if not _SEMVER.match(candidate):
        raise CelFunctionError(f"could not parse {text!r} as a semantic version")
    return {SEMVER_TAG: candidate}


def is_semver(text: Any, normalize: bool = False) -> bool:
    try:
        semver(text, normalize)
    except CelFunctionError:
        return False
    return True


def semver_value(text: str) -> dict[str, str] | None:
    """An attribute's version string as a CEL semver, or None when it is not valid semver."""
    return {SEMVER_TAG: text} if _SEMVER.match(text) else None


def _semver_key(value: Any) -> tuple:
    if not (isinstance(value, dict) and SEMVER_TAG in value):
        raise CelFunctionError(f"no such overload: expected a semver, got {type(value).__name__}")
    m = _SEMVER.match(value[SEMVER_TAG])
    assert m is not None  # only valid versions are ever tagged
    pre = m.group(4)
    # SemVer 2.0.0 precedence: a pre-release sorts before the release; numeric identifiers before alphanumeric.
    ids = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split(".")) if pre else ()
    return (int(m.group(1)), int(m.group(2)), int(m.group(3)), 0 if pre else 1, ids)


def compare_to(a: Any, b: Any) -> int:
    if isinstance(a, dict) and SEMVER_TAG in a:
        x, y = _semver_key(a), _semver_key(b)
    else:
        x, y = _amount(a), _amount(b)
    return (x > y) - (x < y)


def is_greater_than(a: Any, b: Any) -> bool:
    return compare_to(a, b) > 0


def is_less_than(a: Any, b: Any) -> bool:
    return compare_to(a, b) < 0


def _component(value: Any, index: int) -> int:
    m = _SEMVER.match(value[SEMVER_TAG]) if isinstance(value, dict) and SEMVER_TAG in value else None
    if m is None:
        raise CelFunctionError("no such overload: expected a semver")
    return int(m.group(index))


def add(a: Any, b: Any) -> dict[str, str]:
    return quantity_value(_amount(a) + _amount(b))


def sub(a: Any, b: Any) -> dict[str, str]:
    return quantity_value(_amount(a) - _amount(b))


def sign(a: Any) -> int:
    x = _amount(a)
    return (x > 0) - (x < 0)


def is_integer(a: Any) -> bool:
    x = _amount(a)
    return x.denominator == 1 and -(2**63) <= x < 2**63


def as_integer(a: Any) -> int:
    if not is_integer(a):
        raise CelFunctionError("cannot convert value to integer")
    return int(_amount(a))


def as_approximate_float(a: Any) -> float:
    return float(_amount(a))


FUNCTIONS: dict[str, Any] = {
    "quantity": quantity, "isQuantity": is_quantity, "semver": semver, "isSemver": is_semver,
    "compareTo": compare_to, "isGreaterThan": is_greater_than, "isLessThan": is_less_than,
    "add": add, "sub": sub, "sign": sign, "isInteger": is_integer, "asInteger": as_integer,
    "asApproximateFloat": as_approximate_float,
    "major": lambda v: _component(v, 1), "minor": lambda v: _component(v, 2), "patch": lambda v: _component(v, 3),
}
