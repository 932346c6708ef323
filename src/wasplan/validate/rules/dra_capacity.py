"""ResourceSlice capacity `requestPolicy` rules (WAS226): what consumable capacity (DRAConsumableCapacity) allows.

Followed: k/k `pkg/apis/resource/validation/validation.go` (master `009801d9`)
`validateSingleAllocatableDeviceCapacity`, `validateRequestPolicy`, `validateRequestPolicyValidValues`,
`validateRequestPolicyRange`, `validateRequestPolicyRangeStep`. A policy needs `allowMultipleAllocations: true`; `validValues` (sorted, each at
most the capacity, the default among them) or `validRange` (`min` required, `min <= max <= value`, the default
inside, `step` > 0, `min + step` at most the value, default and max whole steps from min). Quantities are compared
exactly (upstream compares integer or milli values; the verdicts agree for every quantity that is a whole number
of millis).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from wasplan.api.quantity import QuantityError, format_quantity, parse_quantity
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.validate.rules.common import make
from wasplan.validate.walk import items, mapping


def _amount(raw: Any) -> Fraction | None:
    try:
        return parse_quantity(raw).amount
    except QuantityError:
        return None  # the schema or the plan's reader reports malformed quantities


def _show(raw: Any) -> str:
    try:
        return format_quantity(parse_quantity(raw))
    except QuantityError:
        return str(raw)


def check_capacity(doc: Document, device: dict, path: FieldPath) -> list[Diagnostic]:
    out = []
    multiple = device.get("allowMultipleAllocations") is True
    for name, entry in mapping(device.get("capacity")).items():
        entry = mapping(entry)
        policy = entry.get("requestPolicy")
        if not isinstance(policy, dict):
            continue
        where = path + ("capacity", name, "requestPolicy")
        if not multiple:
            out.append(make(doc, "WAS226", f"capacity {name!r}: a requestPolicy needs allowMultipleAllocations: true "
                            "on the device", where, "set allowMultipleAllocations: true, or drop requestPolicy"))
            continue
        value = _amount(entry.get("value"))
        if value is not None:
            out += [make(doc, "WAS226", f"capacity {name!r}: {message}", where + rel)
                    for rel, message in policy_problems(policy, value, entry.get("value"))]
    return out


def policy_problems(policy: dict, value: Fraction, shown_value: Any) -> list[tuple[FieldPath, str]]:
    values, rng, default = items(policy.get("validValues")), policy.get("validRange"), policy.get("default")
    if values and rng is not None:
        return [((), "exactly one policy can be specified, not validValues and validRange at the same time")]
    if not values and rng is None:
        return []
    if default is None:
        return [(("default",), f"default is required when {'validValues' if values else 'validRange'} is defined")]
    chosen = _amount(default)
    if chosen is None:
        return []
    cap = _show(shown_value)
    if values:
        return _valid_values(values, chosen, value, cap)
    return _valid_range(mapping(rng), chosen, value, cap)


def _valid_values(values: list, default: Fraction, value: Fraction, cap: str) -> list[tuple[FieldPath, str]]:
    amounts = [_amount(v) for v in values]
    out: list[tuple[FieldPath, str]] = []
    for i, (a, b) in enumerate(zip(amounts, amounts[1:])):
        if a is not None and b is not None and a > b:
            out.append((("validValues", i + 1), "validValues must be sorted in ascending order"))
    for i, a in enumerate(amounts):
        if a is not None and a > value:
            out.append((("validValues", i), f"option {_show(values[i])} is larger than the capacity value {cap}"))
        if a is not None and a in amounts[:i]:
            out.append((("validValues", i), f"option {_show(values[i])} is listed twice"))
    if default not in amounts:
        out.append((("default",), "the default is not one of validValues"))
    return out


def _valid_range(rng: dict, default: Fraction, value: Fraction, cap: str) -> list[tuple[FieldPath, str]]:
    low, high, step = (_amount(rng.get(k)) if rng.get(k) is not None else None for k in ("min", "max", "step"))
    if rng.get("min") is None:
        return [(("validRange", "min"), "validRange.min is required")]
    if low is None:
        return []
    out: list[tuple[FieldPath, str]] = []
    if low > value:
        out.append((("validRange", "min"), f"min is larger than the capacity value {cap}"))
    if default < low:
        out.append((("default",), "the default is less than validRange.min"))
    if high is not None:
        if low > high:
            out.append((("validRange", "max"), "min is larger than max"))
        if high > value:
            out.append((("validRange", "max"), f"max is larger than the capacity value {cap}"))
        if default > high:
            out.append((("default",), "the default is more than validRange.max"))
    if step is None:
        return out
    if step <= 0:
        return out + [(("validRange", "step"), "step must be greater than zero")]
    if low + step > value:
        out.append((("validRange", "step"), f"one step above min is larger than the capacity value {cap}"))
    for where, what, amount in ((("default",), "the default", default), (("validRange", "max"), "max", high)):
        if amount is not None and (amount - low) % step:
            out.append((where, f"{what} is not a whole number of steps ({_show(rng['step'])}) from min"))
    return out
