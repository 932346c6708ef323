"""The values devices really have, for an explanation: of the attribute a selector reads (closest to the
expression's literal first), of a requested capacity (largest first), of untolerated taints.

Which attribute a selector reads comes from the compiled expression (`wasplan.cel` `Compiled.reads`, the same
analysis the engine's selector cache keys by); attribute lookup is the allocator's
(`engine/dra/constraints.lookup_attribute`). The order is deterministic: `difflib.SequenceMatcher` ratio to the
literal, then the value.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher

from wasplan.cel import CelError, compile as compile_cel
from wasplan.cluster.devices import Attribute, Device
from wasplan.cluster.dra_objects import quantity_text
from wasplan.engine.dra.constraints import lookup_attribute


@dataclass(frozen=True, slots=True)
class ValueCount:
    value: str
    devices: int

    def to_dict(self) -> dict:
        return {"value": self.value, "devices": self.devices}


MAX_VALUES = 5
LITERAL = re.compile(r"\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'")  # a CEL string literal, either quote


def _text(attr: Attribute) -> str:
    return ("true" if attr.value else "false") if attr.kind == "bool" else str(attr.value)


def _literals(expression: str, domains: set[str]) -> list[str]:
    return [a or b for a, b in LITERAL.findall(expression) if (a or b) not in domains]


def _similar(literal: str, value: str) -> float:
    return SequenceMatcher(None, literal.lower(), value.lower()).ratio()


def attribute_values(devices: list[tuple[tuple, Device]], name: str) -> Counter:
    return Counter(_text(a) for did, d in devices if (a := lookup_attribute(d, did[0], name)) is not None)


def _capacity_of(did: tuple, device: Device, name: str):
    """A capacity by its qualified name, or by the bare name when the domain is the driver's (as attributes)."""
    hit = device.capacity.get(name)
    domain, sep, ident = name.partition("/")
    if hit is None and sep and domain == did[0]:
        hit = device.capacity.get(ident)
    return hit.value if hit is not None else None


def capacity_values(devices: list[tuple[tuple, Device]], name: str) -> tuple[ValueCount, ...]:
    """The capacity `name` the devices publish, largest first (devices without it as "none")."""
    have = Counter(_capacity_of(did, d, name) for did, d in devices)
    order = sorted(have.items(), key=lambda kv: (kv[0] is None, -(kv[0] or 0)))
    return tuple(ValueCount("none" if v is None else quantity_text(v), n) for v, n in order[:MAX_VALUES])


def taint_values(devices: list[tuple[tuple, Device]]) -> tuple[ValueCount, ...]:
    have = Counter(f"{t.key}={t.value}:{t.effect}" if t.value else f"{t.key}:{t.effect}"
                   for _, d in devices for t in d.taints if t.effect != "None")
    return tuple(ValueCount(v, n) for v, n in sorted(have.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_VALUES])


def selector_values(expression: str, devices: list[tuple[tuple, Device]]) -> tuple[str, str, tuple[ValueCount, ...]]:
    """(attribute, literal, values): the attribute the selector reads (through the compiled expression's reads)
    whose values the devices have, the expression's literal they come closest to, and the values, closest first
    (SequenceMatcher ratio, then the value); without a literal, the most common values first."""
    compiled = compile_cel(expression)
    reads = () if isinstance(compiled, CelError) or compiled.reads is None else compiled.reads
    attrs = [f"{domain}/{name}" for section, domain, name in reads if section == "attributes"]
    literals = _literals(expression, {domain for _, domain, _ in reads})
    best = None
    for attr in attrs:
        counts = attribute_values(devices, attr)
        if not counts:
            continue
        for lit in literals or [""]:
            score = max(_similar(lit, v) for v in counts) if lit else 0.0
            if best is None or score > best[0]:
                best = (score, attr, lit, counts)
    if best is None:
        return _capacity_read(reads, literals, devices)
    _, attr, lit, counts = best
    order = sorted(counts.items(), key=(lambda kv: (-_similar(lit, kv[0]), kv[0])) if lit else
                   (lambda kv: (-kv[1], kv[0])))
    return attr, lit, tuple(ValueCount(v, n) for v, n in order[:MAX_VALUES])


def _capacity_read(reads: tuple, literals: list[str], devices: list[tuple[tuple, Device]]) -> tuple:
    """A selector that reads a capacity (`device.capacity["d"].memory.compareTo(quantity("100Gi")) >= 0`): the
    capacity the devices publish, largest first, beside the expression's first literal."""
    for section, domain, name in reads:
        values = capacity_values(devices, f"{domain}/{name}") if section == "capacity" else ()
        if any(v.value != "none" for v in values):
            return f"{domain}/{name}", literals[0] if literals else "", tuple(v for v in values if v.value != "none")
    return "", "", ()
