"""Compile and evaluate DRA device selectors in the Kubernetes CEL environment.

Upstream: `k8s.io/dynamic-resource-allocation` `cel/compile.go` (v0.36.0; `cel/errors.go` on master for 1.37).
The variable is `device` with `driver`, `attributes` and `capacity` (maps keyed by domain, then by id; a name
without a domain belongs to the driver's domain; an unknown domain reads as an empty map) and, with
DRAConsumableCapacity, `allowMultipleAllocations`. Attribute values keep their type; versions are semvers,
capacities quantities (`wasplan.cel.values`). The result must be a bool. A missing key inside a domain is a
runtime error (`no such key: <id>`), never false.

The runtime is `common-expression-language` (Rust `cel-interpreter` behind a Python binding); see the package
docstring for the measurement that chose it and for what it does not cover. It has no static type checker,
so `compile` adds the checks upstream's compiler makes that matter for selectors: the expression parses,
references no variable but `device` (and comprehension variables), calls only known functions, and is at most
10 KiB. Each distinct expression is compiled once per process.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

# The runtime logs every failing Python function call through the `cel` logger (pyo3-log); the failure is
# reported as a CelRuntimeError instead, so the log line would only be noise on stderr.
logging.getLogger("cel").addHandler(logging.NullHandler())
logging.getLogger("cel").propagate = False

import cel as _runtime  # noqa: E402 - after the logger is silenced

from wasplan.cel.info import MAX_LENGTH as CEL_MAX_LENGTH
from wasplan.cel.values import FUNCTIONS, CelFunctionError, quantity_value, semver_value

_POSITION = re.compile(r"<input>:(\d+):(\d+):\s*(.*)")
# A domain key written as a literal: `attributes["gpu.example.com"]` / `capacity['...']`.
_DOMAIN_KEY = re.compile(r"\b(?:attributes|capacity)\s*\[\s*(?:\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)')\s*\]")
# A field read through literal keys: `attributes["d"].name`, `capacity['d']["name"]` (not a method call).
_ACCESS = re.compile(r"\b(attributes|capacity)\s*\[\s*(?:\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)')\s*\]\s*"
                     r"(?:\.\s*([A-Za-z_]\w*)\b(?!\s*\()|\[\s*(?:\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)')\s*\])")
_SECTION = re.compile(r"\b(?:attributes|capacity)\b")
_DEVICE = re.compile(r"\bdevice\b")
_DEVICE_FIELD = re.compile(r"\bdevice\s*\.\s*(?:driver|attributes|capacity|allowMultipleAllocations)\b")
_MISSING = ("missing",)
_COMPREHENSION = re.compile(r"\.\s*(?:all|exists|exists_one|map|filter)\s*\(\s*([A-Za-z_]\w*)\s*,")
_FUNCTION_ERROR = re.compile(
    r"Function '\w+' error: (?:Python function call failed: \w+: )?(.*?)(?:\. Check function .*)?$", re.S)
_BIND = re.compile(r"\bcel\s*\.\s*bind\s*\(")
# CEL standard functions and macros the runtime implements (operators are `_x_` / `@x` / `!_` / `-_`).
_STANDARD = frozenset({
    "size", "contains", "startsWith", "endsWith", "matches", "int", "uint", "double", "string", "bytes", "bool",
    "type", "dyn", "duration", "timestamp", "has", "max", "min", "getFullYear", "getMonth", "getDayOfYear",
    "getDayOfMonth", "getDate", "getDayOfWeek", "getHours", "getMinutes", "getSeconds", "getMilliseconds",
})
_RUNTIME_FUNCTIONS = dict(FUNCTIONS)


@dataclass(frozen=True, slots=True)
class CelError:
    """Why an expression does not compile; `line`/`column` are 1-based positions inside the expression."""

    message: str
    line: int | None = None
    column: int | None = None


class CelRuntimeError(Exception):
    """The expression failed while evaluating against one device (upstream aborts the whole Filter)."""


@dataclass(frozen=True, slots=True, eq=False)
class Compiled:
    expression: str
    program: Any
    literals: tuple[str, ...]  # domains the expression names literally: they must read as empty maps when absent
    functions: dict[str, Any]  # the Kubernetes library functions it calls (passing all costs ~15 us per call)
    reads: tuple[tuple[str, str, str], ...] | None  # (section, domain, name) it reads, when that is all it reads

    def projection(self, device: dict[str, Any]) -> tuple | None:
        """What this expression can see of `device` (a `device_value`): equal projections give equal results, so
        callers may cache by it. None when the expression reads the device in ways not listed in `reads`."""
        if self.reads is None:
            return None
        seen = tuple(_freeze(device[section].get(domain, {}).get(name, _MISSING))
                     for section, domain, name in self.reads)
        return (device["driver"], device.get("allowMultipleAllocations"), seen)

    def evaluate(self, device: dict[str, Any]) -> bool:
        """True or False for one device built by `device_value`; raises `CelRuntimeError`."""
        value = _with_domains(device, self.literals)
        try:
            result = self.program.execute({"device": value, **self.functions})
        except KeyError as exc:
            raise CelRuntimeError(f"no such key: {exc.args[0] if exc.args else ''}") from None
        except (RuntimeError, TypeError, ValueError, ZeroDivisionError, OverflowError, CelFunctionError) as exc:
            raise CelRuntimeError(_runtime_message(exc)) from None
        if not isinstance(result, bool):
            raise CelRuntimeError(f"CEL result of type {_type_name(result)} could not be converted to bool")
        return result


_COMPILED: dict[str, Compiled | CelError] = {}


def compile(expression: str) -> Compiled | CelError:  # noqa: A001 - the natural name for this module's job
    """The compiled selector, or a `CelError` with the position inside the expression. Memoised per text."""
    hit = _COMPILED.get(expression)
    if hit is None:
        hit = _compile(expression)
        _COMPILED[expression] = hit
    return hit


def _compile(expression: str) -> Compiled | CelError:
    size = len(expression.encode())
    if size > CEL_MAX_LENGTH:
        return CelError(f"expression is {size} bytes long, more than the limit of {CEL_MAX_LENGTH}")
    if not expression.strip():
        return CelError("expression is empty", 1, 1)
    if _BIND.search(expression):
        return _at(expression, _BIND.search(expression).start(),  # type: ignore[union-attr]
                   "cel.bind is not supported by the planner's CEL runtime")
    try:
        program = _runtime.compile(expression)
    except (ValueError, RuntimeError) as exc:
        return _syntax_error(str(exc))
    refs = program.references()
    local = set(_COMPREHENSION.findall(expression))
    for name in refs.get("variables", []):
        if name != "device" and name not in local:
            return _at(expression, _find(expression, name), f"undeclared reference to '{name}'")
    for name in refs.get("functions", []):
        if not _is_known_function(name):
            return _at(expression, _find(expression, name), f"undeclared reference to '{name}'")
    literals = tuple(sorted({a or b for a, b in _DOMAIN_KEY.findall(expression)}))
    functions = {name: _RUNTIME_FUNCTIONS[name] for name in refs.get("functions", []) if name in _RUNTIME_FUNCTIONS}
    return Compiled(expression, program, literals, functions, _reads(expression))


def _reads(expression: str) -> tuple[tuple[str, str, str], ...] | None:
    """The device fields read through literal keys, or None when `attributes` / `capacity` / `device` also appear
    otherwise (iterated, sized, indexed by a computed key, or inside a string): then only the whole device is a safe
    cache key."""
    found = _ACCESS.findall(expression)
    if len(found) != len(_SECTION.findall(expression)):
        return None
    if len(_DEVICE.findall(expression)) != len(_DEVICE_FIELD.findall(expression)):
        return None  # the device map itself is used (compared, iterated): every field may matter
    return tuple(sorted({(section, d1 or d2, n1 or n2 or n3) for section, d1, d2, n1, n2, n3 in found}))


def read_spans(expression: str) -> list[tuple[tuple[str, str, str], tuple[int, int], tuple[int, int]]]:
    """Each field read through literal keys (as `reads` lists them) with where its domain key and its name are
    written (start, end offsets of the text between the quotes, or of the identifier): what a suggestion rewrites."""
    out = []
    for m in _ACCESS.finditer(expression):
        d = 2 if m.group(2) is not None else 3
        n = next(g for g in (4, 5, 6) if m.group(g) is not None)
        out.append(((m.group(1), m.group(d), m.group(n)), m.span(d), m.span(n)))
    return out


def _freeze(value: Any) -> Any:
    """A hashable stand-in that keeps the type (True and 1 differ in CEL)."""
    if isinstance(value, dict):
        return ("map", tuple(sorted(value.items())))
    return (type(value).__name__, value)


def _is_known_function(name: str) -> bool:
    return name[0] in "_@!-" or name in _STANDARD or name in _RUNTIME_FUNCTIONS


def _find(expression: str, name: str) -> int:
    m = re.search(r"(?<![\w.\"'])" + re.escape(name) + r"\b", expression) or re.search(re.escape(name), expression)
    return m.start() if m else 0


def _at(expression: str, offset: int, message: str) -> CelError:
    line = expression.count("\n", 0, offset) + 1
    column = offset - (expression.rfind("\n", 0, offset) + 1) + 1
    return CelError(message, line, column)


def _syntax_error(text: str) -> CelError:
    m = _POSITION.search(text)
    if m is None:
        return CelError(text.split("\n", 1)[0])
    return CelError(m.group(3).split("\n", 1)[0], int(m.group(1)), int(m.group(2)))


def _runtime_message(exc: BaseException) -> str:
    text = str(exc)
    m = _FUNCTION_ERROR.match(text)
    return m.group(1).strip() if m else text.split(". Check that", 1)[0]


def _type_name(value: Any) -> str:
    return {str: "string", int: "int", float: "double", list: "list", dict: "map", bytes: "bytes"}.get(
        type(value), "null_type" if value is None else type(value).__name__)


def _with_domains(device: dict[str, Any], literals: tuple[str, ...]) -> dict[str, Any]:
    """Unknown domains read as empty maps (`newStringInterfaceMapWithDefault`): add the ones the expression names
    that the device lacks. The runtime cannot default a map lookup, so a domain computed at run time (not written
    as a literal `attributes["..."]`) that the device lacks is a `no such key` error instead of an empty map."""
    attrs, caps = device["attributes"], device["capacity"]
    missing = [d for d in literals if d not in attrs or d not in caps]
    if not missing:
        return device
    out = dict(device)
    out["attributes"] = {**{d: {} for d in missing}, **attrs}
    out["capacity"] = {**{d: {} for d in missing}, **caps}
    return out


def _split(name: str, driver: str) -> tuple[str, str]:
    domain, sep, ident = name.partition("/")
    return (domain, ident) if sep else (driver, name)


class Attribute(Protocol):
    """A device attribute as the cluster model holds it (cluster/devices.py): its kind and typed value."""

    kind: str
    value: int | bool | str


class Capacity(Protocol):
    """A device capacity as the cluster model holds it: its amount."""

    value: Fraction


def _attribute(attr: Attribute) -> Any:
    if attr.kind == "version":
        return semver_value(str(attr.value))
    return attr.value


def device_value(driver: str, attributes: dict[str, Attribute], capacity: dict[str, Capacity],
                 allow_multiple_allocations: bool | None, consumable_capacity: bool = True) -> dict[str, Any]:
    """The CEL `device` variable for one device (build once per device, evaluate against many expressions)."""
    attrs: dict[str, dict[str, Any]] = {}
    for name, attr in attributes.items():
        domain, ident = _split(name, driver)
        attrs.setdefault(domain, {})[ident] = _attribute(attr)
    caps: dict[str, dict[str, Any]] = {}
    for name, cap in capacity.items():
        domain, ident = _split(name, driver)
        caps.setdefault(domain, {})[ident] = quantity_value(cap.value)
    value: dict[str, Any] = {"driver": driver, "attributes": attrs, "capacity": caps}
    if consumable_capacity:
        value["allowMultipleAllocations"] = bool(allow_multiple_allocations)
    return value
