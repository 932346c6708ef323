"""The values devices really have, for an explanation: of the attribute a selector reads (closest to the
expression's literal first), of a requested capacity (largest first), of untolerated taints.

Which attribute a selector reads comes from the compiled expression (`wasplan.cel` `Compiled.reads`, the same
analysis the engine's selector cache keys by); attribute lookup is the allocator's
(`engine/dra/constraints.lookup_attribute`). The order is deterministic: `difflib.SequenceMatcher` ratio to the
literal, then the value.

A selector that reads a name no device publishes (`productname` for `productName`, or the domain `nvidia.com` for
`gpu.nvidia.com`) fails on every device: a missing key inside a domain is a CEL runtime error and an unknown
domain an empty map (k8s.io/dynamic-resource-allocation `cel/compile.go`). `unpublished` names such reads and the
closest name the devices do publish, by the one "did you mean" rule (`wasplan.suggest`); a domain that publishes
nothing is matched to the domains that publish the name, a qualified form of it (`gpu.nvidia.com` for
`nvidia.com`) first. `rewrite` writes the guess into the expression where the read is written
(`wasplan.cel.compiler.read_spans`, the same pattern as `Compiled.reads`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher

from wasplan.cel import CelError, compile as compile_cel
from wasplan.cel.compiler import read_spans
from wasplan.cluster.devices import Attribute, Device
from wasplan.cluster.dra_objects import quantity_text
from wasplan.engine.dra.constraints import lookup_attribute
from wasplan.suggest import did_you_mean


@dataclass(frozen=True, slots=True)
class ValueCount:
    value: str
    devices: int

    def to_dict(self) -> dict:
        return {"value": self.value, "devices": self.devices}


@dataclass(frozen=True, slots=True)
class Unpublished:
    """A name a selector reads through literal keys that none of the devices publishes, and the closest name they
    do publish ("" when none is close). Names are qualified: `domain/id`."""

    section: str  # attributes | capacity
    name: str
    guess: str

    def to_dict(self) -> dict:
        return {"section": self.section, "name": self.name, "guess": self.guess or None}

    def text(self) -> str:
        """`selector reads attribute "productname", which no device publishes; did you mean "productName"?`
        (the ids alone when the domains agree, else the qualified names)."""
        kind = "attribute" if self.section == "attributes" else "capacity"
        same = self.guess.partition("/")[0] == self.name.partition("/")[0]
        read, guess = (self.name.partition("/")[2], self.guess.partition("/")[2]) if same else (self.name, self.guess)
        return (f'selector reads {kind} "{read}", which no device publishes' +
                (f'; did you mean "{guess}"?' if self.guess else ""))


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


def _published(devices: list[tuple[tuple, Device]], section: str) -> dict[str, set[str]]:
    """The ids the devices publish per domain (a name without a domain is the driver's)."""
    out: dict[str, set[str]] = {}
    for did, device in devices:
        for name in device.attributes if section == "attributes" else device.capacity:
            domain, sep, ident = name.partition("/")
            out.setdefault(domain if sep else did[0], set()).add(ident if sep else name)
    return out


def _guess(domain: str, ident: str, have: dict[str, set[str]]) -> str:
    """The published `domain/id` closest to the read one: the id in its own domain; for a domain that publishes
    nothing, the domains that publish the id (or one close), a qualified form of the domain first."""
    if domain in have:
        hit = did_you_mean(ident, have[domain])
        return f"{domain}/{hit}" if hit else ""
    homes = sorted(d for d, ids in have.items() if ident in ids or did_you_mean(ident, ids))
    qualified = [d for d in homes if d.endswith("." + domain) or domain.endswith("." + d)]
    near = did_you_mean(domain, homes)
    home = qualified[0] if qualified else near if near else homes[0] if len(homes) == 1 else None
    if home is None:
        return ""
    return f"{home}/{ident if ident in have[home] else did_you_mean(ident, have[home])}"


def unpublished(expression: str, devices: list[tuple[tuple, Device]]) -> tuple[Unpublished, ...]:
    """The attribute and capacity names `expression` reads through literal keys that none of `devices` publishes,
    in the order of `Compiled.reads`, each with the closest published name."""
    compiled = compile_cel(expression)
    if isinstance(compiled, CelError) or not compiled.reads or not devices:
        return ()
    have = {section: _published(devices, section) for section in ("attributes", "capacity")}
    return tuple(Unpublished(section, f"{domain}/{ident}", _guess(domain, ident, have[section]))
                 for section, domain, ident in compiled.reads if ident not in have[section].get(domain, ()))


def rewrite(expression: str, missing: Unpublished) -> str | None:
    """The expression with each read of `missing.name` written as its guess (domain key and name), or None when
    there is no guess or the read is not written through literal keys."""
    if not missing.guess:
        return None
    (domain, _, ident), (new_domain, _, new_ident) = missing.name.partition("/"), missing.guess.partition("/")
    out, done = expression, False
    for (section, d, n), dspan, nspan in reversed(read_spans(expression)):
        if (section, d, n) != (missing.section, domain, ident):
            continue
        out, done = out[:nspan[0]] + new_ident + out[nspan[1]:], True
        out = out[:dspan[0]] + new_domain + out[dspan[1]:]
    return out if done else None
