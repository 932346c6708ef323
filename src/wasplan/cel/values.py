"""CEL runtime values of the Kubernetes DRA environment and the operators of the standard library.

Representation (chosen so the common case costs nothing to convert): CEL `bool`, `int`, `double`, `string`,
`bytes`, `null`, `list` and `map` are Python `bool`, `int`, `float`, `str`, `bytes`, `None`, `list`/`tuple` and
`dict`; `uint` is `UInt` (an int subclass, so `1u` and `1` stay apart), a type value is `CelType`, an optional is
`Optional`, and the Kubernetes types are `Quantity` (an exact Fraction), `Semver`, `IP`, `CIDR` and `URL`.

Semantics are cel-go's (`common/types`, v0.26, the version Kubernetes 1.36 and 1.37 build with): equality is
heterogeneous (values of different types are unequal, numbers compare by value: CrossTypeNumericComparisons is
on in the Kubernetes base environment, `k8s.io/apiserver/pkg/cel/environment/base.go`), ordering needs two
numbers or two values of one orderable type, int arithmetic is 64-bit with an error on overflow, `/` and `%`
truncate toward zero, doubles follow IEEE 754. Errors are `CelEvalError` with cel-go's message words ("no such
key", "no such overload", "integer overflow", "division by zero", "index out of bounds").
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

INT_MIN, INT_MAX, UINT_MAX = -(2**63), 2**63 - 1, 2**64 - 1


class CelEvalError(Exception):
    """A CEL runtime error: the expression's value is an error (absorbed only by `&&`, `||` and the
    quantifier macros when the other side decides)."""


class UInt(int):
    """A CEL `uint`: a separate type from `int` (`1u == 1` is true by value, `type(1u)` is `uint`)."""

    __slots__ = ()


class CelType:
    """A CEL type value (`type(x)`, the identifier `int`)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CelType) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("type", self.name))

    def __repr__(self) -> str:
        return self.name


class Optional:
    """cel-go's `optional_type`: a value or none."""

    __slots__ = ("value", "present")

    def __init__(self, value: Any = None, present: bool = False) -> None:
        self.value, self.present = value, present

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Optional) and other.present == self.present and (
            not self.present or equal(self.value, other.value))

    def __hash__(self) -> int:
        return hash(self.present)


NONE = Optional()


class Quantity:
    """`kubernetes.Quantity` (k8s.io/apiserver `pkg/cel/library/quantity.go`): compared by exact value.

    `form` is apimachinery's int64 representation `(value, scale)` (amount = value * 10**scale) when the quantity
    has one, None when it is held as an arbitrary-precision decimal: `isInteger()` and `asInteger()` answer from
    it, not from the amount (`AsInt64` refuses a negative scale and any decimal-backed quantity, so
    `quantity("1.0").isInteger()` is false)."""

    __slots__ = ("amount", "form")

    def __init__(self, amount: Fraction, form: tuple[int, int] | None = None, derive: bool = True) -> None:
        """Without a `form`, one is derived from the amount when `derive` (a device's capacity: an integer that
        fits int64 is an int64Amount at scale 0)."""
        self.amount = amount
        integral = amount.denominator == 1 and INT_MIN <= amount <= INT_MAX
        self.form = form if form is not None or not derive or not integral else (int(amount), 0)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Quantity) and other.amount == self.amount

    def __hash__(self) -> int:
        return hash(("quantity", self.amount))


class Semver:
    """`kubernetes.Semver` (`pkg/cel/library/semverlib.go`, blang/semver): ordered by SemVer 2.0.0 precedence,
    equal when the precedence is equal (build metadata does not count)."""

    __slots__ = ("text", "key", "major", "minor", "patch")

    def __init__(self, text: str, key: tuple, parts: tuple[int, int, int]) -> None:
        self.text, self.key = text, key
        self.major, self.minor, self.patch = parts

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Semver) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)


class Opaque:
    """A Kubernetes value compared by its canonical text: `net.IP`, `net.CIDR`, `kubernetes.URL`."""

    __slots__ = ("text", "value")
    TYPE = "opaque"

    def __init__(self, text: str, value: Any) -> None:
        self.text, self.value = text, value

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.text == self.text  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.TYPE, self.text))


class IP(Opaque):
    TYPE = "net.IP"


class CIDR(Opaque):
    TYPE = "net.CIDR"


class URL(Opaque):
    TYPE = "kubernetes.URL"


_TYPE_NAMES = {bool: "bool", int: "int", UInt: "uint", float: "double", str: "string", bytes: "bytes",
               list: "list", tuple: "list", dict: "map", type(None): "null_type", CelType: "type",
               Optional: "optional_type", Quantity: "kubernetes.Quantity", Semver: "kubernetes.Semver",
               IP: "net.IP", CIDR: "net.CIDR", URL: "kubernetes.URL"}


def type_name(value: Any) -> str:
    found = _TYPE_NAMES.get(type(value))
    if found is None:
        found = "map" if isinstance(value, dict) else type(value).__name__
    return found


def no_overload(name: str, *args: Any) -> CelEvalError:
    return CelEvalError(f"no such overload: {name}({', '.join(type_name(a) for a in args)})")


def _is_number(value: Any) -> bool:
    kind = type(value)
    return kind is int or kind is float or kind is UInt


def equal(a: Any, b: Any) -> bool:
    """CEL `==` (heterogeneous: different types are simply unequal, numbers compare by value)."""
    ta, tb = type(a), type(b)
    if ta is tb and (ta is str or ta is int or ta is bool or ta is bytes):
        return a == b
    if _is_number(a) and _is_number(b):
        return _compare_numbers(a, b) == 0 if not (isinstance(a, float) and math.isnan(a) or
                                                    isinstance(b, float) and math.isnan(b)) else False
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        if len(a) != len(b):
            return False
        for key, value in a.items():
            found, other = map_find(b, key)
            if not found or not equal(value, other):
                return False
        return True
    if ta is not tb:
        return False
    return a == b


def _compare_numbers(a: Any, b: Any) -> int:
    if isinstance(a, float) or isinstance(b, float):
        x, y = float(a), float(b)
        if type(a) is not float:
            x = Fraction(a)  # type: ignore[assignment]
            y = Fraction(b) if not math.isinf(b) else b
        elif type(b) is not float:
            x = Fraction(a) if not math.isinf(a) else a
            y = Fraction(b)  # type: ignore[assignment]
    else:
        x, y = a, b
    return (x > y) - (x < y)


_ORDERED = (str, bytes, bool)


def compare(a: Any, b: Any, op: str) -> int:
    """-1, 0 or 1 for the ordering operators; an error for operands without a common ordering."""
    if _is_number(a) and _is_number(b):
        if (isinstance(a, float) and math.isnan(a)) or (isinstance(b, float) and math.isnan(b)):
            return 2  # unordered: every comparison is false
        return _compare_numbers(a, b)
    ta = type(a)
    if ta is type(b) and ta in _ORDERED:
        return (a > b) - (a < b)
    raise no_overload(op, a, b)


def map_find(container: dict, key: Any) -> tuple[bool, Any]:
    """A map lookup with CEL key semantics: bools and numbers are distinct types, `1`, `1u` and `1.0` the same key."""
    kind = type(key)
    if kind is str:
        if key in container:
            return True, container[key]
        default = getattr(container, "default", None)
        return (default is not None), default
    if kind is bool:
        for k, v in container.items():
            if type(k) is bool and k == key:
                return True, v
        return False, None
    if kind is float and not key.is_integer():
        return False, None
    if _is_number(key):
        for k, v in container.items():
            if _is_number(k) and k == key:
                return True, v
        return False, None
    if key is None or kind in (bytes, list, tuple, dict):
        raise CelEvalError(f"unsupported key type: {type_name(key)}")
    return False, None


def key_text(key: Any) -> str:
    if type(key) is UInt:
        return f"{int(key)}u"
    if type(key) is bool:
        return "true" if key else "false"
    return str(key)


def check_int(value: int) -> int:
    if value < INT_MIN or value > INT_MAX:
        raise CelEvalError("integer overflow")
    return value


def check_uint(value: int) -> UInt:
    if value < 0 or value > UINT_MAX:
        raise CelEvalError("unsigned integer overflow")
    return UInt(value)


def truncated_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def truncated_mod(a: int, b: int) -> int:
    return a - b * truncated_div(a, b)


def arithmetic(op: str, a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        if op == "+":
            return check_int(a + b)
        if op == "-":
            return check_int(a - b)
        if op == "*":
            return check_int(a * b)
        if b == 0:
            raise CelEvalError("division by zero" if op == "/" else "modulus by zero")
        return check_int(truncated_div(a, b)) if op == "/" else truncated_mod(a, b)
    if ta is UInt and tb is UInt:
        if op in "/%" and b == 0:
            raise CelEvalError("division by zero" if op == "/" else "modulus by zero")
        result = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
                  "/": lambda: a // b, "%": lambda: a % b}[op]()
        return check_uint(int(result))
    if ta is float and tb is float and op != "%":
        if op == "/":
            if b == 0:
                return math.copysign(math.inf, a) * math.copysign(1, b) if a != 0 and not math.isnan(a) else math.nan
            return a / b
        return {"+": a + b, "-": a - b, "*": a * b}[op]
    if op == "+" and ta is tb and ta in (str, bytes):
        return a + b
    if op == "+" and isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return [*a, *b]
    raise no_overload("_" + op + "_", a, b)


def negate(a: Any) -> Any:
    if type(a) is int:
        return check_int(-a)
    if type(a) is float:
        return -a
    raise no_overload("-_", a)


def contains(container: Any, element: Any) -> bool:
    """CEL `in`: list membership by `==`, map key presence (a map with a default still answers by its keys)."""
    if isinstance(container, (list, tuple)):
        return any(equal(element, item) for item in container)
    if isinstance(container, dict):
        if type(element) is str:
            return element in container
        try:
            return map_find(container, element)[0]
        except CelEvalError:
            return False
    raise no_overload("@in", element, container)


class DefaultMap(dict):
    """A map whose missing string keys read as `default` (upstream's `newStringInterfaceMapWithDefault` for
    `device.attributes` and `device.capacity`: an unknown domain is an empty map). `in`, `size()` and
    iteration see only the real keys."""

    default: Any = None

    def __missing__(self, key: Any) -> Any:
        return self.default
