"""The functions of the DRA CEL environment, implemented: one entry per function name in `IMPLEMENTATIONS`.

The environment is upstream's `k8s.io/apiserver/pkg/cel/environment/base.go` `MustBaseEnvSet` extended by
`k8s.io/dynamic-resource-allocation/cel/compile.go` (`cel.bind`, the `device` variable, `includes` with
DRAListTypeAttributes). The scheduler compiles selectors with the "stored expressions" environment, which holds
every library of the base set; kube-apiserver compiles new selectors with the "new expressions" environment at its
compatibility version (1.35 for 1.36, 1.36 for 1.37), and every library of the base set was introduced by 1.34, so
both releases see the same functions in both places:

* the CEL standard library (cel-go `common/stdlib`): `size`, conversions, `contains`, `startsWith`, `endsWith`,
  `matches`, `type`, `dyn`;
* cel-go `ext.Strings` version 2 (`ext/strings.go`): `charAt`, `indexOf`, `lastIndexOf`, `lowerAscii`,
  `upperAscii`, `replace`, `split`, `substring`, `trim`, `join`, `reverse`, `format`, `strings.quote`;
* cel-go `ext.Lists` version 3 (`ext/lists.go`): `slice`, `flatten`, `sort`, `sortBy`, `lists.range`, `reverse`,
  `distinct`; `ext.Sets` (`ext/sets.go`): `sets.contains`, `sets.equivalent`, `sets.intersects`;
* cel-go optional types: `optional.of`, `optional.none`, `optional.ofNonZeroValue`, `hasValue`, `value`,
  `orValue`, `or`;
* Kubernetes (`k8s.io/apiserver/pkg/cel/library`): lists (`isSorted`, `sum`, `min`, `max`, `indexOf`,
  `lastIndexOf`), regex (`find`, `findAll`), quantity, semver (version 1: `semver(s, normalize)`), IP, CIDR, URL.

The declared signatures (what the static checker types against) are `wasplan.cel.types.GLOBALS` / `MEMBERS`;
tests/cel/test_cel_library.py holds the two tables to the same names, so the checker and the runtime cannot
disagree about which functions exist. What is declared upstream but not modelled here is `UNMODELLED` (reported
as such, never as an undeclared reference). Each function takes the receiver (for a member call) and the
arguments as runtime values (`wasplan.cel.values`) and dispatches on their types, raising `CelEvalError` with
cel-go's words.
"""

from __future__ import annotations

import ipaddress
import math
import re
from fractions import Fraction
from typing import Any, Callable

from wasplan.api.quantity import QuantityError, _interpret_suffix, _scan, parse_quantity
from wasplan.api.semver import SEMVER
from wasplan.cel.values import (
    CIDR, INT_MAX, INT_MIN, IP, NONE, URL, CelEvalError, CelType, Optional, Quantity, Semver, UInt, arithmetic,
    compare, equal, no_overload, type_name)

# Declared by upstream's environment, accepted by `wasplan validate`, not evaluated by the planner: timestamps and
# durations (a device has none), the named formats of `format.named`, the internal `cel.@block`.
UNMODELLED = frozenset({
    "duration", "timestamp", "getFullYear", "getMonth", "getDayOfYear", "getDayOfMonth", "getDate",
    "getDayOfWeek", "getHours", "getMinutes", "getSeconds", "getMilliseconds", "format.named", "validate",
})


def _str(name: str, value: Any) -> str:
    if type(value) is not str:
        raise no_overload(name, value)
    return value


def _int(name: str, value: Any) -> int:
    if type(value) is not int:
        raise no_overload(name, value)
    return value


def _list(name: str, value: Any) -> list | tuple:
    if not isinstance(value, (list, tuple)):
        raise no_overload(name, value)
    return value


# --- standard library -------------------------------------------------------------------------------------------

def size(value: Any) -> int:
    if isinstance(value, (str, bytes, list, tuple, dict)):
        return len(value)
    raise no_overload("size", value)


def go_float(value: float) -> str:
    """Go's strconv.FormatFloat(f, 'g', -1, 64), which cel-go's string(double) uses: shortest digits, an
    exponent (at least two digits) below 1e-4 and from 1e21."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if value == 0:
        return "-0" if math.copysign(1, value) < 0 else "0"
    digits, exponent = _shortest(value)
    if exponent < -4 or exponent >= 21:
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        sign = "-" if value < 0 else ""
        return f"{sign}{mantissa}e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"
    return _plain(value)


def _shortest(value: float) -> tuple[str, int]:
    text = repr(abs(value))
    mantissa, _, exp = text.partition("e")
    whole, _, frac = mantissa.partition(".")
    frac = "" if frac == "0" else frac
    digits = (whole + frac).lstrip("0")
    shift = len(whole + frac) - len((whole + frac).lstrip("0"))
    exponent = (int(exp) if exp else 0) + len(whole) - 1 - shift
    return digits.rstrip("0") or "0", exponent


def _plain(value: float) -> str:
    text = repr(value)
    if "e" in text:
        digits, exponent = _shortest(value)
        sign = "-" if value < 0 else ""
        if exponent >= 0:
            return sign + digits + "0" * (exponent + 1 - len(digits)) if len(digits) <= exponent + 1 else \
                sign + digits[:exponent + 1] + "." + digits[exponent + 1:]
        return sign + "0." + "0" * (-exponent - 1) + digits
    return text[:-2] if text.endswith(".0") else text


def to_string(value: Any) -> str:
    kind = type(value)
    if kind is str:
        return value
    if kind is bool:
        return "true" if value else "false"
    if kind is int or kind is UInt:
        return str(int(value))
    if kind is float:
        return go_float(value)
    if kind is bytes:
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            raise CelEvalError("invalid UTF-8 in bytes, cannot convert to string") from None
    if kind is IP or kind is CIDR:
        return value.text
    raise no_overload("string", value)


_GO_INT = re.compile(r"[+-]?[0-9]+")
_GO_FLOAT = re.compile(r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)", re.I)


def to_int(value: Any) -> int:
    kind = type(value)
    if kind is int:
        return value
    if kind is UInt:
        if value > INT_MAX:
            raise CelEvalError("range error converting uint to int")
        return int(value)
    if kind is float:
        if math.isnan(value) or not INT_MIN <= value < 2.0**63 or value <= INT_MIN:
            raise CelEvalError("range error converting double to int")
        return int(value)
    if kind is str:
        if not _GO_INT.fullmatch(value) or not INT_MIN <= int(value) <= INT_MAX:
            raise CelEvalError(f"cannot convert string '{value}' to int")
        return int(value)
    raise no_overload("int", value)


def to_uint(value: Any) -> UInt:
    kind = type(value)
    if kind is UInt:
        return value
    if kind is int:
        if value < 0:
            raise CelEvalError("range error converting int to uint")
        return UInt(value)
    if kind is float:
        if math.isnan(value) or not 0 <= value < 2.0**64:
            raise CelEvalError("range error converting double to uint")
        return UInt(int(value))
    if kind is str:
        if not re.fullmatch(r"\+?[0-9]+", value) or int(value) > 2**64 - 1:
            raise CelEvalError(f"cannot convert string '{value}' to uint")
        return UInt(int(value))
    raise no_overload("uint", value)


def to_double(value: Any) -> float:
    kind = type(value)
    if kind is float:
        return value
    if kind is int or kind is UInt:
        return float(value)
    if kind is str:
        if not _GO_FLOAT.fullmatch(value):
            raise CelEvalError(f"cannot convert string '{value}' to double")
        return float(value)
    raise no_overload("double", value)


_BOOLS = {"1": True, "t": True, "T": True, "TRUE": True, "true": True, "True": True,
          "0": False, "f": False, "F": False, "FALSE": False, "false": False, "False": False}


def to_bool(value: Any) -> bool:
    if type(value) is bool:
        return value
    if type(value) is str:
        if value not in _BOOLS:
            raise CelEvalError(f"type conversion error from 'string' to 'bool'")
        return _BOOLS[value]
    raise no_overload("bool", value)


def to_bytes(value: Any) -> bytes:
    if type(value) is bytes:
        return value
    if type(value) is str:
        return value.encode("utf-8", "surrogatepass")
    raise no_overload("bytes", value)


def type_of(value: Any) -> CelType:
    return CelType(type_name(value))


def str_contains(value: Any, sub: Any) -> bool:
    return _str("contains", sub) in _str("contains", value)


def starts_with(value: Any, prefix: Any) -> bool:
    return _str("startsWith", value).startswith(_str("startsWith", prefix))


def ends_with(value: Any, suffix: Any) -> bool:
    return _str("endsWith", value).endswith(_str("endsWith", suffix))


# --- regular expressions (RE2 syntax on Python's engine) --------------------------------------------------------

_PERL_ONLY = re.compile(r"\(\?(?:=|!|<=|<!|P=|>)|\\[1-9]")
_POSIX = {"[:alpha:]": "a-zA-Z", "[:digit:]": "0-9", "[:alnum:]": "0-9A-Za-z", "[:upper:]": "A-Z",
          "[:lower:]": "a-z", "[:space:]": "\\t\\n\\v\\f\\r ", "[:xdigit:]": "0-9A-Fa-f",
          "[:punct:]": "!-/:-@\\[-`{-~", "[:word:]": "0-9A-Za-z_"}
_REGEX_CACHE: dict[str, re.Pattern] = {}


def regex(pattern: str) -> re.Pattern:
    """`pattern` (RE2 syntax, as Go's regexp compiles it) on Python's engine: `\\d`, `\\w`, `\\s`, `\\b` are ASCII
    as in RE2, `\\z` is the end of text, POSIX classes are expanded; Perl-only syntax RE2 rejects (lookaround,
    backreferences, atomic groups) is an error here too."""
    hit = _REGEX_CACHE.get(pattern)
    if hit is None:
        if _PERL_ONLY.search(pattern):
            raise CelEvalError(f"error parsing regexp: invalid or unsupported Perl syntax in {pattern!r}")
        text = pattern.replace("\\z", "\\Z")
        for name, chars in _POSIX.items():
            text = text.replace(name, chars)
        try:
            hit = re.compile(text, re.ASCII)
        except (re.error, OverflowError, RecursionError) as exc:
            raise CelEvalError(f"error parsing regexp: {exc}") from None
        _REGEX_CACHE[pattern] = hit
    return hit


def matches(value: Any, pattern: Any) -> bool:
    return regex(_str("matches", pattern)).search(_str("matches", value)) is not None


def find(value: Any, pattern: Any) -> str:
    m = regex(_str("find", pattern)).search(_str("find", value))
    return m.group(0) if m else ""


def find_all(value: Any, pattern: Any, limit: Any = -1) -> list[str]:
    _int("findAll", limit)
    if limit == 0:
        return []
    found = [m.group(0) for m in regex(_str("findAll", pattern)).finditer(_str("findAll", value))]
    return found if limit < 0 else found[:limit]


# --- ext.Strings version 2 --------------------------------------------------------------------------------------

def char_at(value: Any, index: Any) -> str:
    text, i = _str("charAt", value), _int("charAt", index)
    if i < 0 or i > len(text):
        raise CelEvalError(f"index out of range: {i}")
    return text[i:i + 1]


def index_of(value: Any, sub: Any, offset: Any = None) -> int:
    if isinstance(value, (list, tuple)) and offset is None:
        return next((i for i, item in enumerate(value) if equal(item, sub)), -1)
    text, part = _str("indexOf", value), _str("indexOf", sub)
    start = 0 if offset is None else _int("indexOf", offset)
    if part == "":
        return start
    if start < 0:
        raise CelEvalError(f"index out of range: {start}")
    return -1 if start >= len(text) else text.find(part, start)


def last_index_of(value: Any, sub: Any, offset: Any = None) -> int:
    if isinstance(value, (list, tuple)) and offset is None:
        return next((i for i in range(len(value) - 1, -1, -1) if equal(value[i], sub)), -1)
    text, part = _str("lastIndexOf", value), _str("lastIndexOf", sub)
    if offset is None:
        if part == "":
            return len(text)
        if len(text.encode()) < len(part.encode()):
            return -1
        start = len(text) - 1
    else:
        start = _int("lastIndexOf", offset)
        if part == "":
            return start
    if start < 0:
        raise CelEvalError(f"index out of range: {start}")
    if start >= len(text):
        return -1
    return text.rfind(part, 0, min(start, len(text) - len(part)) + len(part))


def _ascii(value: str, lower: bool) -> str:
    table = _LOWER if lower else _UPPER
    return value.translate(table)


_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def lower_ascii(value: Any) -> str:
    return _ascii(_str("lowerAscii", value), True)


def upper_ascii(value: Any) -> str:
    return _ascii(_str("upperAscii", value), False)


def replace(value: Any, old: Any, new: Any, count: Any = -1) -> str:
    text, a, b, n = _str("replace", value), _str("replace", old), _str("replace", new), _int("replace", count)
    return text.replace(a, b, n if n >= 0 else -1)


def split(value: Any, sep: Any, count: Any = -1) -> list[str]:
    """Go's strings.SplitN: 0 parts for n == 0, all for n < 0, an empty separator splits between characters."""
    text, by, n = _str("split", value), _str("split", sep), _int("split", count)
    if n == 0:
        return []
    if by == "":
        parts = list(text)
        if 0 < n < len(parts):
            parts = parts[:n - 1] + ["".join(parts[n - 1:])]
        return parts
    return text.split(by, n - 1 if n > 0 else -1)


def substring(value: Any, start: Any, end: Any = None) -> str:
    text, i = _str("substring", value), _int("substring", start)
    j = len(text) if end is None else _int("substring", end)
    if end is not None and i > j:
        raise CelEvalError(f"invalid substring range. start: {i}, end: {j}")
    for k in (i, j):
        if k < 0 or k > len(text):
            raise CelEvalError(f"index out of range: {k}")
    return text[i:j]


# Go's unicode.IsSpace (strings.TrimSpace), which differs from Python's str.isspace (\x1c-\x1f).
_GO_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
            "\u2028\u2029\u202f\u205f\u3000"


def trim(value: Any) -> str:
    return _str("trim", value).strip(_GO_SPACE)


def join(value: Any, sep: Any = "") -> str:
    items = _list("join", value)
    return _str("join", sep).join(_str("join", item) for item in items)


def reverse(value: Any) -> Any:
    if type(value) is str:
        return value[::-1]
    return list(reversed(_list("reverse", value)))


def quote(value: Any) -> str:
    text = _str("strings.quote", value)
    out = []
    for ch in text:
        out.append({"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t",
                    "\v": "\\v", "\\": "\\\\", '"': '\\"'}.get(ch, ch))
    return '"' + "".join(out) + '"'


def display(value: Any) -> str:
    """A value as `%s` and string() show it in `format` (cel-go ext/formatting.go)."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(display_inner(v) for v in value) + "]"
    if isinstance(value, dict):
        items = sorted(((display_inner(k), display_inner(v)) for k, v in value.items()))
        return "{" + ", ".join(f"{k}: {v}" for k, v in items) + "}"
    if value is None:
        return "null"
    if type(value) is CelType:
        return value.name
    return to_string(value)


def display_inner(value: Any) -> str:
    return quote(value) if type(value) is str else display(value)


_VERB = re.compile(r"%(?:\.(\d+))?([a-zA-Z%])")


def format_(value: Any, args: Any) -> str:
    """`"...".format([args])` (cel-go ext/formatting.go): %s %d %f %e %b %o %x %X with an optional precision."""
    text, items = _str("format", value), _list("format", args)
    out, used, pos = [], 0, 0
    for m in _VERB.finditer(text):
        out.append(text[pos:m.start()])
        pos = m.end()
        verb = m.group(2)
        if verb == "%":
            out.append("%")
            continue
        if used >= len(items):
            raise CelEvalError(f"index {used} out of range")
        out.append(_format_one(verb, m.group(1), items[used]))
        used += 1
    out.append(text[pos:])
    return "".join(out)


def _format_one(verb: str, precision: str | None, arg: Any) -> str:
    kind = type(arg)
    if verb == "s":
        return display(arg)
    if verb == "d":
        if kind in (int, UInt):
            return str(int(arg))
        if kind is float and (math.isnan(arg) or math.isinf(arg)):
            return go_float(arg).replace("+", "") if not math.isnan(arg) else "NaN"
        raise CelEvalError(f"error during formatting: decimal clause can only be used on integers, was given "
                           f"{type_name(arg)}")
    if verb in "fe":
        digits = 6 if precision is None else int(precision)
        if kind in (int, UInt, float):
            number = float(arg)
            if math.isnan(number) or math.isinf(number):
                return go_float(number).replace("+", "") if not math.isnan(number) else "NaN"
            return f"{number:.{digits}{verb}}"
        raise CelEvalError(f"error during formatting: fixed-point clause can only be used on doubles, was given "
                           f"{type_name(arg)}" if verb == "f" else "error during formatting: scientific clause can "
                           f"only be used on doubles, was given {type_name(arg)}")
    if verb in "xX":
        if kind in (int, UInt):
            out = format(int(arg), "x")
        elif kind is str:
            out = arg.encode().hex()
        elif kind is bytes:
            out = arg.hex()
        else:
            raise CelEvalError(f"error during formatting: only integers, byte buffers, and strings can be formatted "
                               f"as hex, was given {type_name(arg)}")
        return out.upper() if verb == "X" else out
    if verb in "bo":
        if kind in (int, UInt) or (kind is bool and verb == "b"):
            return format(int(arg), verb)
        raise CelEvalError(f"error during formatting: only integers{' and bools' if verb == 'b' else ''} can be "
                           f"formatted as {'binary' if verb == 'b' else 'octal'}, was given {type_name(arg)}")
    raise CelEvalError(f'could not parse formatting clause: unrecognized formatting clause "{verb}"')


# --- lists: Kubernetes `lists` library and ext.Lists version 3 --------------------------------------------------

def _comparable(name: str, items: list | tuple) -> None:
    for item in items:
        compare(item, items[0], name)


def is_sorted(value: Any) -> bool:
    items = _list("isSorted", value)
    return all(compare(items[i], items[i + 1], "isSorted") <= 0 for i in range(len(items) - 1))


def sum_(value: Any) -> Any:
    items = _list("sum", value)
    if not items:
        return 0
    total = items[0]
    for item in items[1:]:
        total = arithmetic("+", total, item)
    if type(total) not in (int, UInt, float):
        raise no_overload("sum", total)
    return total


def _extreme(name: str, value: Any, want: int) -> Any:
    items = _list(name, value)
    if not items:
        raise CelEvalError(f"{name}(list) called on empty list")
    best = items[0]
    for item in items[1:]:
        if compare(item, best, name) == want:
            best = item
    return best


def min_(value: Any) -> Any:
    return _extreme("min", value, -1)


def max_(value: Any) -> Any:
    return _extreme("max", value, 1)


def slice_(value: Any, start: Any, end: Any) -> list:
    items, i, j = _list("slice", value), _int("slice", start), _int("slice", end)
    if i < 0 or j < 0:
        raise CelEvalError(f"cannot slice({i}, {j}), negative indexes not supported")
    if i > j:
        raise CelEvalError(f"cannot slice({i}, {j}), start index must be less than or equal to end index")
    if j > len(items):
        raise CelEvalError(f"cannot slice({i}, {j}), list is length {len(items)}")
    return list(items[i:j])


def flatten(value: Any, depth: Any = 1) -> list:
    items, level = _list("flatten", value), _int("flatten", depth)
    if level < 0:
        raise CelEvalError("level must be non-negative")
    out: list = []
    for item in items:
        if isinstance(item, (list, tuple)) and level > 0:
            out.extend(flatten(item, level - 1))
        else:
            out.append(item)
    return out


def sort(value: Any) -> list:
    items = list(_list("sort", value))
    _comparable("sort", items)
    if len({type(i) for i in items}) > 1:
        raise CelEvalError("list elements must have the same type")
    return sorted(items)


def sort_by_keys(value: Any, keys: Any) -> list:
    items, order = _list("sortBy", value), _list("sortBy", keys)
    if len(items) != len(order):
        raise CelEvalError(f"@sortByAssociatedKeys() expected a list of the same size as the associated keys list, "
                           f"but got {len(items)} and {len(order)} elements respectively.")
    if len({type(k) for k in order}) > 1:
        raise CelEvalError("list elements must have the same type")
    _comparable("sortBy", order)
    ranked = sorted(range(len(items)), key=lambda i: order[i])
    return [items[i] for i in ranked]


def lists_range(value: Any) -> list[int]:
    n = _int("lists.range", value)
    return list(range(n)) if n > 0 else []


def distinct(value: Any) -> list:
    out: list = []
    for item in _list("distinct", value):
        if not any(equal(item, seen) for seen in out):
            out.append(item)
    return out


def includes(value: Any, item: Any) -> bool:
    if isinstance(value, (list, tuple)):
        if len(value) > 64 and not any(equal(v, item) for v in value[:64]):
            raise CelEvalError("'includes' function cannot be applied to lists longer than 64 values")
        return any(equal(v, item) for v in value)
    return equal(value, item)


# --- ext.Sets ---------------------------------------------------------------------------------------------------

def sets_contains(a: Any, b: Any) -> bool:
    left, right = _list("sets.contains", a), _list("sets.contains", b)
    return all(any(equal(x, y) for y in left) for x in right)


def sets_equivalent(a: Any, b: Any) -> bool:
    return sets_contains(a, b) and sets_contains(b, a)


def sets_intersects(a: Any, b: Any) -> bool:
    left, right = _list("sets.intersects", a), _list("sets.intersects", b)
    return any(equal(x, y) for x in left for y in right)


# --- optional types ---------------------------------------------------------------------------------------------

def optional_of(value: Any) -> Optional:
    return Optional(value, True)


def optional_none() -> Optional:
    return NONE


def _zero(value: Any) -> bool:
    if value is None or value is False or (type(value) in (int, UInt, float) and value == 0):
        return True
    return isinstance(value, (str, bytes, list, tuple, dict)) and len(value) == 0


def optional_of_non_zero(value: Any) -> Optional:
    return NONE if _zero(value) else Optional(value, True)


def _optional(name: str, value: Any) -> Optional:
    if type(value) is not Optional:
        raise no_overload(name, value)
    return value


def has_value(value: Any) -> bool:
    return _optional("hasValue", value).present


def value_(value: Any) -> Any:
    opt = _optional("value", value)
    if not opt.present:
        raise CelEvalError("optional.none() dereference")
    return opt.value


def or_value(value: Any, default: Any) -> Any:
    opt = _optional("orValue", value)
    return opt.value if opt.present else default


def or_(value: Any, other: Any) -> Optional:
    opt = _optional("or", value)
    return opt if opt.present else _optional("or", other)


def first(value: Any) -> Optional:
    items = _list("first", value)
    return Optional(items[0], True) if items else NONE


def last(value: Any) -> Optional:
    items = _list("last", value)
    return Optional(items[-1], True) if items else NONE


def unwrap(value: Any) -> list:
    return [_optional("optional.unwrap", item).value for item in _list("optional.unwrap", value)
            if _optional("optional.unwrap", item).present]


# --- Kubernetes quantity and semver -----------------------------------------------------------------------------

def quantity(text: Any) -> Quantity:
    try:
        amount = parse_quantity(_str("quantity", text)).amount
        return Quantity(amount, int64_form(text) if amount else (0, 0), derive=False)
    except QuantityError:
        raise CelEvalError("quantities must match the regular expression "
                           "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'") from None


def int64_form(text: str) -> tuple[int, int] | None:
    """apimachinery ParseQuantity's fast path (`quantity.go`): at most 18 digits, a scale of at least -9 and a
    value that fits int64 give an int64Amount `(value, scale)`; anything else is held as an inf.Dec (None)."""
    negative, whole, frac, suffix = _scan(text)
    base, exponent, _ = _interpret_suffix(suffix)
    num = whole.lstrip("0") or "0"
    if base == 10:
        precision, scale, mantissa = 18 - len(num) - len(frac), exponent, 1
    elif exponent >= 0 and not frac:
        precision, scale, mantissa = 15 - len(num) - int(exponent * 3 / 10) - 1, 0, 1 << exponent
    else:
        return None
    if precision < 0 or scale - len(frac) < -9:
        return None
    value = int(num + frac) * mantissa
    if value > INT_MAX:
        return None
    return (-value if negative else value), scale - len(frac)


def _form_add(a: Quantity, b: tuple[int, int] | None) -> tuple[int, int] | None:
    """int64Amount.Add: align to the smaller scale, None on overflow (the sum becomes an inf.Dec)."""
    if a.form is None or b is None:
        return None
    (x, sx), (y, sy) = a.form, b
    if y == 0:
        return a.form
    if x == 0:
        return b
    scale = min(sx, sy)
    total = x * 10 ** (sx - scale) + y * 10 ** (sy - scale)
    return (total, scale) if INT_MIN <= total <= INT_MAX and abs(x * 10 ** (sx - scale)) <= INT_MAX and \
        abs(y * 10 ** (sy - scale)) <= INT_MAX else None


def is_quantity(text: Any) -> bool:
    try:
        quantity(text)
    except CelEvalError:
        return False
    return True


def _q(name: str, value: Any) -> Fraction:
    if type(value) is Quantity:
        return value.amount
    if name in ("add", "sub") and type(value) is int:
        return Fraction(value)
    raise no_overload(name, value)


def semver_of(text: str) -> Semver | None:
    m = SEMVER.match(text)
    if m is None:
        return None
    pre = m.group(4)
    ids = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split(".")) if pre else ()
    parts = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
    return Semver(text, (*parts, 0 if pre else 1, ids), parts)


def _normalize(text: str) -> str:
    """`semverlib.go` normalizeVersion: strip a leading `v`, pad to three parts, drop leading zeros."""
    text = text[1:] if text.startswith("v") else text
    core, rest = re.match(r"^([0-9.]*)(.*)$", text).groups()  # type: ignore[union-attr]
    parts = core.split(".")
    if not 1 <= len(parts) <= 3 or not all(p.isdigit() for p in parts) or (rest and rest[0] not in "-+"):
        return text
    return ".".join([str(int(p)) for p in parts] + ["0"] * (3 - len(parts))) + rest


def semver(text: Any, normalize: Any = False) -> Semver:
    raw = _str("semver", text)
    if type(normalize) is not bool:
        raise no_overload("semver", text, normalize)
    found = semver_of(_normalize(raw) if normalize else raw)
    if found is None:
        raise CelEvalError(f"could not parse '{raw}' as a semantic version")
    return found


def is_semver(text: Any, normalize: Any = False) -> bool:
    try:
        semver(text, normalize)
    except CelEvalError:
        return False
    return True


def compare_to(a: Any, b: Any) -> int:
    if type(a) is Semver and type(b) is Semver:
        x, y = a.key, b.key
        return (x > y) - (x < y)
    p, q = _q("compareTo", a), _q("compareTo", b)
    return (p > q) - (p < q)


def is_greater_than(a: Any, b: Any) -> bool:
    return compare_to(a, b) > 0


def is_less_than(a: Any, b: Any) -> bool:
    return compare_to(a, b) < 0


def _semver(name: str, value: Any) -> Semver:
    if type(value) is not Semver:
        raise no_overload(name, value)
    return value


def _operand_form(value: Any) -> tuple[int, int] | None:
    return value.form if type(value) is Quantity else (value, 0)


def q_add(a: Any, b: Any) -> Quantity:
    amount = _q("add", a) + _q("add", b)
    return Quantity(amount, _form_add(a, _operand_form(b)), derive=False)


def q_sub(a: Any, b: Any) -> Quantity:
    amount = _q("sub", a) - _q("sub", b)
    other = _operand_form(b)
    negated = None if other is None or other[0] == INT_MIN else (-other[0], other[1])
    return Quantity(amount, _form_add(a, negated), derive=False)


def sign(a: Any) -> int:
    x = _q("sign", a)
    return (x > 0) - (x < 0)


def _as_int64(name: str, a: Any) -> int | None:
    """apimachinery Quantity.AsInt64 over the quantity's representation."""
    _q(name, a)
    if a.form is None or a.form[1] < 0:
        return None
    value = a.form[0] * 10 ** a.form[1]
    return value if INT_MIN <= value <= INT_MAX else None


def is_integer(a: Any) -> bool:
    return _as_int64("isInteger", a) is not None


def as_integer(a: Any) -> int:
    value = _as_int64("asInteger", a)
    if value is None:
        raise CelEvalError("cannot convert value to integer")
    return value


def as_approximate_float(a: Any) -> float:
    return float(_q("asApproximateFloat", a))


# --- Kubernetes IP, CIDR and URL --------------------------------------------------------------------------------

def _parse_ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    if "%" in text:
        raise CelEvalError(f"IP address {text!r} with zone value is not allowed".replace("'", '"'))
    try:
        addr = ipaddress.ip_address(text)
    except ValueError:
        raise CelEvalError(f'IP Address "{text}" parse error during conversion from string') from None
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        raise CelEvalError(f'IPv4-mapped IPv6 address "{text}" is not allowed')
    return addr


def ip(value: Any) -> IP:
    if type(value) is CIDR:
        addr = value.value.ip
        return IP(str(addr), addr)
    addr = _parse_ip(_str("ip", value))
    return IP(str(addr), addr)


def is_ip(value: Any) -> bool:
    try:
        _parse_ip(_str("isIP", value))
    except CelEvalError:
        return False
    return True


def ip_is_canonical(value: Any) -> bool:
    text = _str("ip.isCanonical", value)
    return str(_parse_ip(text)) == text


def _ip(name: str, value: Any) -> Any:
    if type(value) is not IP:
        raise no_overload(name, value)
    return value.value


def family(value: Any) -> int:
    return _ip("family", value).version


def is_unspecified(value: Any) -> bool:
    return _ip("isUnspecified", value).is_unspecified


def is_loopback(value: Any) -> bool:
    return _ip("isLoopback", value).is_loopback


def is_link_local_multicast(value: Any) -> bool:
    addr = _ip("isLinkLocalMulticast", value)
    if addr.version == 4:
        return addr in ipaddress.ip_network("224.0.0.0/24")
    return addr.is_multicast and (int(addr) >> 112) & 0xF == 2


def is_link_local_unicast(value: Any) -> bool:
    addr = _ip("isLinkLocalUnicast", value)
    net = "169.254.0.0/16" if addr.version == 4 else "fe80::/10"
    return addr in ipaddress.ip_network(net)


def is_global_unicast(value: Any) -> bool:
    """Go's netip.Addr.IsGlobalUnicast: not unspecified, loopback, multicast, link-local or (IPv4) broadcast."""
    addr = _ip("isGlobalUnicast", value)
    if addr.version == 4 and int(addr) == 0xFFFFFFFF:
        return False
    return not (addr.is_unspecified or addr.is_loopback or addr.is_multicast or
                is_link_local_unicast(value))


def _parse_cidr(text: str) -> Any:
    address, sep, bits = text.partition("/")
    if not sep or not bits.isdigit() or (len(bits) > 1 and bits[0] == "0") or "%" in address:
        raise CelEvalError(f'network address parse error during conversion from string: netip.ParsePrefix("{text}"): '
                           f"invalid prefix")
    addr = _parse_ip(address)
    if int(bits) > addr.max_prefixlen:
        raise CelEvalError(f'network address parse error during conversion from string: netip.ParsePrefix("{text}"): '
                           f"prefix length out of range")
    return ipaddress.ip_interface(f"{addr}/{bits}")


def cidr(value: Any) -> CIDR:
    iface = _parse_cidr(_str("cidr", value))
    return CIDR(f"{iface.ip}/{iface.network.prefixlen}", iface)


def is_cidr(value: Any) -> bool:
    try:
        _parse_cidr(_str("isCIDR", value))
    except CelEvalError:
        return False
    return True


def _cidr(name: str, value: Any) -> Any:
    if type(value) is not CIDR:
        raise no_overload(name, value)
    return value.value


def contains_ip(value: Any, other: Any) -> bool:
    iface = _cidr("containsIP", value)
    addr = _parse_ip(other) if type(other) is str else _ip("containsIP", other)
    return addr.version == iface.version and addr in iface.network


def contains_cidr(value: Any, other: Any) -> bool:
    iface = _cidr("containsCIDR", value)
    inner = _parse_cidr(other) if type(other) is str else _cidr("containsCIDR", other)
    return inner.version == iface.version and inner.network.overlaps(iface.network) and \
        iface.network.prefixlen <= inner.network.prefixlen


def prefix_length(value: Any) -> int:
    return _cidr("prefixLength", value).network.prefixlen


def masked(value: Any) -> CIDR:
    net = _cidr("masked", value).network
    return CIDR(str(net), ipaddress.ip_interface(str(net)))


_URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):(.*)$", re.S)


def _parse_url(text: str) -> dict[str, Any]:
    """Go's url.ParseRequestURI acceptance (an absolute URL or an absolute path, no fragment handling), then the
    parts url.Parse yields."""
    from urllib.parse import urlsplit
    bad = any(ord(c) < 0x21 or ord(c) == 0x7F for c in text)
    m = _URL.match(text)
    if bad or not (m or text.startswith("/")):
        raise CelEvalError(f"URL parse error during conversion from string: parse \"{text}\": invalid URI for request")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise CelEvalError(f"URL parse error during conversion from string: parse \"{text}\": invalid port") from None
    del port
    return {"scheme": parts.scheme, "host": parts.netloc.rpartition("@")[2], "path": parts.path,
            "query": parts.query}


def url(value: Any) -> URL:
    text = _str("url", value)
    return URL(text, _parse_url(text))


def is_url(value: Any) -> bool:
    try:
        _parse_url(_str("isURL", value))
    except CelEvalError:
        return False
    return True


def _url(name: str, value: Any) -> dict[str, Any]:
    if type(value) is not URL:
        raise no_overload(name, value)
    return value.value


def get_scheme(value: Any) -> str:
    return _url("getScheme", value)["scheme"]


def get_host(value: Any) -> str:
    return _url("getHost", value)["host"]


def get_hostname(value: Any) -> str:
    host = _url("getHostname", value)["host"]
    if host.startswith("["):
        return host[1:host.index("]")] if "]" in host else host[1:]
    return host.rpartition(":")[0] if ":" in host else host


def get_port(value: Any) -> str:
    host = _url("getPort", value)["host"]
    tail = host.rpartition("]")[2] if host.startswith("[") else host
    return tail.rpartition(":")[2] if ":" in tail else ""


def get_escaped_path(value: Any) -> str:
    from urllib.parse import quote as pct, unquote
    return pct(unquote(_url("getEscapedPath", value)["path"]), safe="/!$&'()*+,;=:@~")


def get_query(value: Any) -> dict[str, list[str]]:
    from urllib.parse import parse_qs
    return {k: v for k, v in parse_qs(_url("getQuery", value)["query"], keep_blank_values=True).items()}


# --- the table --------------------------------------------------------------------------------------------------

def _member(name: str, overloads: dict[type, Callable]) -> Callable:
    """One name, several receiver types (`compareTo` on quantities and semvers is one function here)."""
    def call(receiver: Any, *args: Any) -> Any:
        fn = overloads.get(type(receiver))
        if fn is None:
            raise no_overload(name, receiver, *args)
        return fn(receiver, *args)
    return call


def _semver_part(name: str) -> Callable:
    return lambda value: getattr(_semver(name, value), name)


IMPLEMENTATIONS: dict[str, Callable[..., Any]] = {
    "size": size, "int": to_int, "uint": to_uint, "double": to_double, "string": to_string, "bool": to_bool,
    "bytes": to_bytes, "dyn": lambda value: value, "type": type_of,
    "contains": str_contains, "startsWith": starts_with, "endsWith": ends_with, "matches": matches,
    "find": find, "findAll": find_all,
    "charAt": char_at, "indexOf": index_of, "lastIndexOf": last_index_of, "lowerAscii": lower_ascii,
    "upperAscii": upper_ascii, "replace": replace, "split": split, "substring": substring, "trim": trim,
    "join": join, "reverse": reverse, "format": format_, "strings.quote": quote,
    "isSorted": is_sorted, "sum": sum_, "min": min_, "max": max_, "slice": slice_, "flatten": flatten,
    "sort": sort, "@sortByAssociatedKeys": sort_by_keys, "lists.range": lists_range, "distinct": distinct,
    "includes": includes,
    "sets.contains": sets_contains, "sets.equivalent": sets_equivalent, "sets.intersects": sets_intersects,
    "optional.of": optional_of, "optional.none": optional_none, "optional.ofNonZeroValue": optional_of_non_zero,
    "hasValue": has_value, "value": value_, "orValue": or_value, "or": or_, "first": first, "last": last,
    "optional.unwrap": unwrap, "unwrapOpt": unwrap,
    "quantity": quantity, "isQuantity": is_quantity, "semver": semver, "isSemver": is_semver,
    "compareTo": compare_to, "isGreaterThan": is_greater_than, "isLessThan": is_less_than,
    "add": q_add, "sub": q_sub, "sign": sign, "isInteger": is_integer, "asInteger": as_integer,
    "asApproximateFloat": as_approximate_float,
    "major": _semver_part("major"), "minor": _semver_part("minor"), "patch": _semver_part("patch"),
    "ip": ip, "isIP": is_ip, "ip.isCanonical": ip_is_canonical, "family": family,
    "isUnspecified": is_unspecified, "isLoopback": is_loopback, "isLinkLocalMulticast": is_link_local_multicast,
    "isLinkLocalUnicast": is_link_local_unicast, "isGlobalUnicast": is_global_unicast,
    "cidr": cidr, "isCIDR": is_cidr, "containsIP": contains_ip, "containsCIDR": contains_cidr,
    "prefixLength": prefix_length, "masked": masked,
    "url": url, "isURL": is_url, "getScheme": get_scheme, "getHost": get_host, "getHostname": get_hostname,
    "getPort": get_port, "getEscapedPath": get_escaped_path, "getQuery": get_query,
}

