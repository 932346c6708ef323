"""Kubernetes resource quantities (`500m`, `1.5Gi`, `1e3`), parsed exactly.

The scheduler compares cpu in millicores and everything else in whole base units, rounding up, so a plan that
parsed `0.1m` or `1.5Gi` with floats would disagree with kube-scheduler at the edges. Values are held as
`Fraction`s; the rules follow `k8s.io/apimachinery/pkg/api/resource` (quantity.go `ParseQuantity`, suffix.go,
amount.go/math.go for rounding):

* grammar `<sign>?<digits>[.<digits>]<suffix>` with suffix one of the decimal SI suffixes `n u m "" k M G T P E`,
  the binary ones `Ki Mi Gi Ti Pi Ei`, or a decimal exponent `e<int>` / `E<int>`;
* a parsed amount is rounded up (away from zero) to a multiple of 10^-9; binary amounts are capped at 2^63-1;
* `value()` and `milli_value()` round up (away from zero) to whole units / millis.

Deliberate strictness: upstream's scanner reads a string with no digit at all (`-`, `.`, `Ki`) as zero; the
documented grammar requires a digit and so does this parser, because such a value is always a typo.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

DECIMAL_SI, BINARY_SI, DECIMAL_EXPONENT = "DecimalSI", "BinarySI", "DecimalExponent"

_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_BINARY = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_DECIMAL_BY_EXP = {v: k for k, v in _DECIMAL.items()}
_BINARY_BY_EXP = {v // 10: k for k, v in _BINARY.items()}
_SUFFIX_CHARS = frozenset("eEinumkKMGTP")
_DIGITS = frozenset("0123456789")
_NANO = Fraction(1, 10**9)
_MAX_BINARY = Fraction(2**63 - 1)
_INT32 = 2**31


class QuantityError(ValueError):
    """The text is not a Kubernetes quantity; the message says why, in words a manifest author understands."""


@dataclass(frozen=True, slots=True)
class Quantity:
    """A resource quantity: its exact amount and the format it is written in."""

    amount: Fraction
    format: str = DECIMAL_SI

    def value(self) -> int:
        """Whole base units rounded up: how NodeResourcesFit reads memory, storage, pods and extended resources."""
        return _round_away(self.amount)

    def milli_value(self) -> int:
        """Thousandths rounded up: how NodeResourcesFit reads cpu."""
        return _round_away(self.amount * 1000)

    def __str__(self) -> str:
        return format_quantity(self)


def _round_away(x: Fraction) -> int:
    return math.ceil(x) if x >= 0 else -math.ceil(-x)


def _scan(text: str) -> tuple[bool, str, str, str]:
    """Split into (negative, integer digits, fraction digits, suffix); raise on anything outside the grammar."""
    pos, end = 0, len(text)
    negative = False
    if pos < end and text[pos] in "+-":
        negative = text[pos] == "-"
        pos += 1
    start = pos
    while pos < end and text[pos] in _DIGITS:
        pos += 1
    whole = text[start:pos]
    frac = ""
    if pos < end and text[pos] == ".":
        pos += 1
        fstart = pos
        while pos < end and text[pos] in _DIGITS:
            pos += 1
        frac = text[fstart:pos]
    if not whole and not frac:
        raise QuantityError("a quantity must start with a number")
    suffix = text[pos:]
    _check_suffix_shape(suffix)
    return negative, whole, frac, suffix


def _check_suffix_shape(suffix: str) -> None:
    """Suffix letters, then optionally a signed integer, and nothing else (`1e3k`, `1.5.5`, `10 Gi` fail here)."""
    i, end = 0, len(suffix)
    while i < end and suffix[i] in _SUFFIX_CHARS:
        i += 1
    if i < end and suffix[i] in "+-":
        i += 1
    while i < end and suffix[i] in _DIGITS:
        i += 1
    if i != end:
        raise QuantityError(f"unexpected {suffix[i]!r} in the suffix {suffix!r}")


def _interpret_suffix(suffix: str) -> tuple[int, int, str]:
    """(base, exponent, format) of a suffix, as suffix.go's lookup tables and exponent rule do."""
    if suffix in _DECIMAL:
        return 10, _DECIMAL[suffix], DECIMAL_SI
    if suffix in _BINARY:
        return 2, _BINARY[suffix], BINARY_SI
    if len(suffix) > 1 and suffix[0] in "eE":
        digits = suffix[1:]
        body = digits[1:] if digits[:1] in ("+", "-") else digits
        if body and all(c in _DIGITS for c in body):
            exponent = int(digits)
            if -_INT32 <= exponent < _INT32:
                return 10, exponent, DECIMAL_EXPONENT
            raise QuantityError(f"the exponent in {suffix!r} is out of range")
    raise QuantityError(f"unknown suffix {suffix!r}; use one of n u m k M G T P E, Ki Mi Gi Ti Pi Ei, or e<exponent>")


@lru_cache(maxsize=65536)
def _parse_text(text: str) -> Quantity:
    if not text:
        raise QuantityError("empty quantity")
    negative, whole, frac, suffix = _scan(text)
    base, exponent, fmt = _interpret_suffix(suffix)
    if base == 10 and abs(exponent) > 4096:
        # exact arithmetic on 10**huge would stall; the amount is 0 (tiny, then rounded up to 1n) or absurd
        raise QuantityError(f"the exponent in {suffix!r} is out of range")
    amount = Fraction(int(whole or "0") * 10 ** len(frac) + int(frac or "0"), 10 ** len(frac))
    amount *= Fraction(base) ** exponent
    if amount:
        amount = math.ceil(amount / _NANO) * _NANO  # round up to nano, as ParseQuantity does
    if fmt == BINARY_SI:
        amount = min(amount, _MAX_BINARY)
        if 0 < amount < 1:
            fmt = DECIMAL_SI
    return Quantity(-amount if negative else amount, fmt)


def parse_quantity(raw: object) -> Quantity:
    """Parse a quantity as it appears in a manifest: a string, or a bare YAML/JSON number (`cpu: 2`, `cpu: 0.5`)."""
    if isinstance(raw, bool) or raw is None:
        raise QuantityError(f"expected a quantity such as 500m or 1Gi, got {raw!r}")
    if isinstance(raw, int):
        return _parse_text(str(raw))
    if isinstance(raw, float):
        if not math.isfinite(raw):
            raise QuantityError(f"{raw!r} is not a quantity")
        return _parse_text(repr(raw))
    if not isinstance(raw, str):
        raise QuantityError(f"expected a quantity such as 500m or 1Gi, got a {type(raw).__name__}")
    return _parse_text(raw)


def _canonical_decimal(amount: Fraction) -> tuple[int, int]:
    """(mantissa, exponent) with the exponent a multiple of 3 and as large as possible without losing digits."""
    exponent = 0
    mantissa = amount
    while mantissa.denominator != 1:
        mantissa *= 10
        exponent -= 1
    m = int(mantissa)
    while m and m % 10 == 0:
        m //= 10
        exponent += 1
    while exponent % 3:
        m *= 10
        exponent -= 1
    return m, exponent


def format_quantity(q: Quantity) -> str:
    """The canonical spelling kubectl prints: `1.5` -> `1500m`, `1.5Gi` -> `1536Mi`, `2e3` -> `2e3`."""
    if q.amount == 0:
        return "0"
    fmt = q.format
    if fmt == BINARY_SI and (abs(q.amount) < 1024 or q.amount.denominator != 1):
        fmt = DECIMAL_SI  # small or fractional binary amounts are shown in decimal, never rounded
    if fmt == BINARY_SI:
        m, power = int(q.amount), 0
        while m % 1024 == 0 and power < 6:
            m //= 1024
            power += 1
        return f"{m}{_BINARY_BY_EXP.get(power, '')}"
    m, exponent = _canonical_decimal(q.amount)
    if fmt == DECIMAL_EXPONENT:
        return f"{m}e{exponent}" if exponent else str(m)
    if exponent > 18:  # beyond `E`: keep the largest suffix and a longer mantissa
        m, exponent = m * 10 ** (exponent - 18), 18
    return f"{m}{_DECIMAL_BY_EXP[exponent]}"


def format_milli_cpu(millis: int) -> str:
    """A millicore count as a canonical quantity (`1500` -> `1500m`, `2000` -> `2`), for plan output."""
    return format_quantity(Quantity(Fraction(millis, 1000), DECIMAL_SI))


def format_amount(value: int, binary: bool = False) -> str:
    """A base-unit count as a canonical quantity; `binary` picks Ki/Mi/Gi spelling (memory), else decimal SI."""
    return format_quantity(Quantity(Fraction(value), BINARY_SI if binary else DECIMAL_SI))
