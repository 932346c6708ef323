"""Field readers shared by the DRA parsers: typed scalars, quantities, CEL selectors, taints and tolerations.

Each reader takes the raw value and a `Ctx` already narrowed to the field, reports what it cannot use with a
WAS64x code at that field, and returns a safe value, so one bad field costs one finding, not the object.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from wasplan.api import dra_rules
from wasplan.api.quantity import QuantityError, parse_quantity
from wasplan import cel  # the runtime and the checker load on the first selector (wasplan/cel/__init__.py)
from wasplan.cel.info import line_column
from wasplan.cluster.devices import TAINT_EFFECTS, DeviceTaint, DeviceToleration, OpaqueConfig
from wasplan.cluster.issues import Ctx


def as_map(raw: Any, ctx: Ctx, what: str) -> dict:
    if raw is None:
        return {}
    if isinstance(raw, dict):
        return raw
    ctx.report("WAS648", f"{what} must be a map", ())
    return {}


def as_items(raw: Any, ctx: Ctx, what: str) -> list:
    if raw is None:
        return []
    if isinstance(raw, list):
        return raw
    ctx.report("WAS648", f"{what} must be a list", ())
    return []


def text(raw: Any, ctx: Ctx, what: str, default: str = "") -> str:
    if raw is None:
        return default
    if isinstance(raw, str):
        return raw
    ctx.report("WAS648", f"{what} must be a string, got {raw!r}", ())
    return default


def flag(raw: Any, ctx: Ctx, what: str) -> bool | None:
    if raw is None or isinstance(raw, bool):
        return raw
    ctx.report("WAS648", f"{what} must be true or false, got {raw!r}", ())
    return None


def integer(raw: Any, ctx: Ctx, what: str, default: int, minimum: int = 0) -> int:
    if raw is None:
        return default
    if isinstance(raw, int) and not isinstance(raw, bool) and raw >= minimum:
        return raw
    ctx.report("WAS648", f"{what} must be an integer >= {minimum}, got {raw!r}", ())
    return default


def strings(raw: Any, ctx: Ctx, what: str) -> tuple[str, ...]:
    return tuple(text(v, ctx.at(i), f"{what}[{i}]") for i, v in enumerate(as_items(raw, ctx, what)))


def quantity(raw: Any, ctx: Ctx, what: str) -> Fraction | None:
    """A non-negative quantity, or None after a WAS643 finding."""
    try:
        amount = parse_quantity(raw).amount
    except QuantityError as exc:
        ctx.report("WAS643", f"{what}: invalid quantity {raw!r}: {exc}", (), hint="write e.g. 8, 500m or 40Gi")
        return None
    if amount < 0:
        ctx.report("WAS643", f"{what}: negative quantity {raw!r}", ())
        return None
    return amount


def selectors(raw: Any, ctx: Ctx) -> tuple[str, ...]:
    """`selectors[].cel.expression`, each checked as the API server checks it (`wasplan.cel.checker`, the check
    `wasplan validate` makes too) and then compiled for the runtime; a malformed one is reported with its position
    (WAS646); valid Kubernetes CEL calling a function wasplan does not evaluate is WAS651."""
    from wasplan.cel.checker import analyse  # loaded with the first selector, not by every plan

    out = []
    for i, item in enumerate(as_items(raw, ctx, "selectors")):
        ictx = ctx.at(i)
        missing = dra_rules.selector_cel(item)
        if missing is not None:
            ictx.report("WAS646", f"selector #{i}: {missing.message}", ("cel", "expression"), missing.hint)
            continue
        expression = item["cel"]["expression"]
        static, _ = analyse(expression)  # what kube-apiserver rejects, as `wasplan validate` reports it
        compiled = cel.compile(expression) if not static else None
        if static:
            line, column = line_column(expression, static[0].offset)
            ictx.report("WAS646", f"selector #{i}: CEL compile error at line {line}, column {column}: "
                        f"{static[0].message}", ("cel", "expression"), static[0].hint)
        elif isinstance(compiled, cel.CelError) and compiled.unmodelled:  # valid Kubernetes CEL wasplan does not evaluate
            ictx.report("WAS651", f"selector #{i}: {compiled.message} (line {compiled.line}, column "
                        f"{compiled.column}); the plan cannot tell which devices it selects", ("cel", "expression"),
                        "docs/cel.md lists what is not modelled")
        elif isinstance(compiled, cel.CelError):
            where = f" at line {compiled.line}, column {compiled.column}" if compiled.column else ""
            ictx.report("WAS646", f"selector #{i}: CEL compile error{where}: {compiled.message}", ("cel", "expression"))
        out.append(expression)
    return tuple(out)


def taint(raw: Any, ctx: Ctx) -> DeviceTaint | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("key"), str) or not raw["key"]:
        ctx.report("WAS648", "a device taint needs a key", ("key",))
        return None
    effect = raw.get("effect")
    if effect not in TAINT_EFFECTS:
        ctx.report("WAS648", f"device taint effect {effect!r} must be one of {', '.join(TAINT_EFFECTS)}", ("effect",))
        return None
    return DeviceTaint(raw["key"], text(raw.get("value"), ctx.at("value"), "value"), effect)


def taints(raw: Any, ctx: Ctx) -> tuple[DeviceTaint, ...]:
    items = (taint(t, ctx.at(i)) for i, t in enumerate(as_items(raw, ctx, "taints")))
    return tuple(t for t in items if t is not None)


def _toleration(raw: Any, ctx: Ctx) -> DeviceToleration | None:
    if not isinstance(raw, dict):
        ctx.report("WAS648", "a device toleration must be a map", ())
        return None
    operator = raw.get("operator") or "Equal"
    effect = raw.get("effect") or ""
    if operator not in ("Equal", "Exists"):
        ctx.report("WAS648", f"toleration operator {operator!r} must be Equal or Exists", ("operator",))
        return None
    if effect and effect not in TAINT_EFFECTS:
        ctx.report("WAS648", f"toleration effect {effect!r} must be one of {', '.join(TAINT_EFFECTS)}", ("effect",))
        return None
    seconds = raw.get("tolerationSeconds")
    return DeviceToleration(text(raw.get("key"), ctx.at("key"), "key"), operator,
                            text(raw.get("value"), ctx.at("value"), "value"), effect,
                            seconds if isinstance(seconds, int) and not isinstance(seconds, bool) else None)


def tolerations(raw: Any, ctx: Ctx) -> tuple[DeviceToleration, ...]:
    items = (_toleration(t, ctx.at(i)) for i, t in enumerate(as_items(raw, ctx, "tolerations")))
    return tuple(t for t in items if t is not None)


def opaque(raw: Any, ctx: Ctx) -> OpaqueConfig | None:
    """`DeviceConfiguration`: only `opaque {driver, parameters}` exists in resource.k8s.io/v1."""
    body = raw.get("opaque") if isinstance(raw, dict) else None
    if not isinstance(body, dict) or not isinstance(body.get("driver"), str):
        ctx.report("WAS648", "a device configuration needs opaque.driver", ("opaque", "driver"))
        return None
    return OpaqueConfig(body["driver"], body.get("parameters"))
