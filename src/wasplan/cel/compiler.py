"""Compile and evaluate DRA device selectors in the Kubernetes CEL environment.

Upstream: `k8s.io/dynamic-resource-allocation` `cel/compile.go` (v0.36.3; `cel/errors.go` on master for 1.37).
The variable is `device` with `driver`, `attributes` and `capacity` (maps keyed by domain, then by id; a name
without a domain belongs to the driver's domain; an unknown domain reads as an empty map) and, with
DRAConsumableCapacity, `allowMultipleAllocations`. Attribute values keep their type; versions are semvers,
capacities quantities (`wasplan.cel.values`). The result must be a bool. A missing key inside a domain is a
runtime error (`no such key: <id>`), never false.

One environment: `compile` parses with `wasplan.cel.syntax`, type-checks with `wasplan.cel.checker` (the checks
`wasplan validate` reports: undeclared references, overloads, the result type) and turns the same AST into
closures (`wasplan.cel.evaluator`) that call the functions of `wasplan.cel.library`. A function upstream declares
that wasplan does not evaluate (`library.UNMODELLED`: timestamps, durations, named formats) is a `CelError` with
`unmodelled` set, which callers report as "not modelled by wasplan", never as an undeclared reference. The
runtime cost limit (1,000,000) is not tracked per evaluation: `wasplan validate` rejects expressions whose
estimated worst case exceeds it, which bounds every selector the API server accepted. Each distinct expression
is compiled once per process.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Protocol

from wasplan.cel.checker import analyse
from wasplan.cel.evaluator import Builder
from wasplan.cel.info import MAX_LENGTH as CEL_MAX_LENGTH, line_column
from wasplan.cel.library import UNMODELLED, semver_of
from wasplan.cel.syntax import CelSyntaxError, Node, namespaced, parse
from wasplan.cel.values import CelEvalError, DefaultMap, Quantity, type_name

# A field read through literal keys: `attributes["d"].name`, `capacity['d']["name"]` (not a method call).
_ACCESS = re.compile(r"\b(attributes|capacity)\s*\[\s*(?:\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)')\s*\]\s*"
                     r"(?:\.\s*([A-Za-z_]\w*)\b(?!\s*\()|\[\s*(?:\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)')\s*\])")
_SECTION = re.compile(r"\b(?:attributes|capacity)\b")
_DEVICE = re.compile(r"\bdevice\b")
_DEVICE_FIELD = re.compile(r"\bdevice\s*\.\s*(?:driver|attributes|capacity|allowMultipleAllocations)\b")
_MISSING = ("missing",)


@dataclass(frozen=True, slots=True)
class CelError:
    """Why an expression does not compile; `line`/`column` are 1-based positions inside the expression.
    `unmodelled` marks valid Kubernetes CEL that calls a function wasplan does not evaluate."""

    message: str
    line: int | None = None
    column: int | None = None
    unmodelled: bool = False


class CelRuntimeError(Exception):
    """The expression failed while evaluating against one device (upstream aborts the whole Filter)."""


@dataclass(frozen=True, slots=True, eq=False)
class Compiled:
    expression: str
    run: Callable[[dict], Any]
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
        try:
            result = self.run({"device": device})
        except CelEvalError as exc:
            raise CelRuntimeError(str(exc)) from None
        except (ArithmeticError, ValueError, TypeError, RecursionError) as exc:  # a value Python could not handle
            raise CelRuntimeError(f"{type(exc).__name__}: {exc}") from None
        if type(result) is not bool:
            raise CelRuntimeError(f"CEL result of type {type_name(result)} could not be converted to bool")
        return result

    def value(self, device: dict[str, Any]) -> Any:
        """The expression's value (any type) for one device; raises `CelRuntimeError` (the oracle comparison)."""
        try:
            return self.run({"device": device})
        except CelEvalError as exc:
            raise CelRuntimeError(str(exc)) from None


_COMPILED: dict[tuple[str, bool], Compiled | CelError] = {}


def compile(expression: str, list_attributes: bool = False) -> Compiled | CelError:  # noqa: A001
    """The compiled selector, or a `CelError` with the position inside the expression. Memoised per text.
    `list_attributes` is the environment with DRAListTypeAttributes: attributes typed dyn, `includes` declared."""
    key = (expression, list_attributes)
    hit = _COMPILED.get(key)
    if hit is None:
        hit = _compile(expression, list_attributes)
        _COMPILED[key] = hit
    return hit


def _compile(expression: str, list_attributes: bool) -> Compiled | CelError:
    size = len(expression.encode())
    if size > CEL_MAX_LENGTH:
        return CelError(f"expression is {size} bytes long, more than the limit of {CEL_MAX_LENGTH}")
    if not expression.strip():
        return CelError("expression is empty", 1, 1)
    findings, _ = analyse(expression, True, list_attributes)
    problem = next((f for f in findings if f.kind != "cost"), None)
    if problem is not None:
        return CelError(problem.message, *line_column(expression, problem.offset))
    try:
        ast = parse(expression)
    except CelSyntaxError as exc:  # analyse reported it already; kept for the type checker
        return CelError(exc.message, *line_column(expression, exc.offset))
    unmodelled = _unmodelled(ast)
    if unmodelled is not None:
        name, offset = unmodelled
        return CelError(f"CEL function '{name}' is not modelled by wasplan", *line_column(expression, offset),
                        unmodelled=True)
    return Compiled(expression, Builder().build(ast), _reads(expression))


def _unmodelled(node: Node) -> tuple[str, int] | None:
    """The first call (in source order) of a function upstream declares and wasplan does not evaluate."""
    found: list[tuple[int, str]] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.kind == "call":
            name = namespaced(current, frozenset()) or current.name
            if name in UNMODELLED or current.name in UNMODELLED:
                found.append((current.offset, name if name in UNMODELLED else current.name))
        stack.extend(current.args)
        if current.target is not None:
            stack.append(current.target)
    if not found:
        return None
    offset, name = min(found)
    return name, offset


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
        return semver_of(str(attr.value))
    return attr.value


def device_value(driver: str, attributes: dict[str, Attribute], capacity: dict[str, Capacity],
                 allow_multiple_allocations: bool | None, consumable_capacity: bool = True) -> dict[str, Any]:
    """The CEL `device` variable for one device (build once per device, evaluate against many expressions)."""
    attrs: dict[str, dict[str, Any]] = DefaultMap()
    for name, attr in attributes.items():
        domain, ident = _split(name, driver)
        attrs.setdefault(domain, {})[ident] = _attribute(attr)
    caps: dict[str, dict[str, Any]] = DefaultMap()
    for name, cap in capacity.items():
        domain, ident = _split(name, driver)
        caps.setdefault(domain, {})[ident] = Quantity(cap.value)
    attrs.default = caps.default = {}  # type: ignore[attr-defined]
    value: dict[str, Any] = {"driver": driver, "attributes": attrs, "capacity": caps}
    if consumable_capacity:
        value["allowMultipleAllocations"] = bool(allow_multiple_allocations)
    return value
