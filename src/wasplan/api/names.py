"""Kubernetes object and label name formats (k8s.io/apimachinery `pkg/util/validation` IsDNS1123Label and
IsDNS1123Subdomain), used by the server-side rules of every kind; values of another type are simply not names.
Also the decimal integers some string fields hold (`pkg/api/validate/content` IsDecimalInteger, then
strconv.ParseInt base 10, 64 bits), which validation and the scheduler read alike."""

from __future__ import annotations

import re
from typing import Any

_DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")


def is_dns_label(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= 63 and bool(_DNS_LABEL.match(value))


def is_dns_subdomain(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 253 and all(is_dns_label(p) for p in value.split("."))


_INT64 = range(-2**63, 2**63)


def decimal_int64(text: str) -> int | None:
    """The value of `text` when it is '0' or an optional '-', a digit 1-9 and more digits, within int64; else None
    (no '+', no leading zero, no spaces)."""
    digits = text[1:] if text.startswith("-") else text
    if text != "0" and not (digits[:1] in tuple("123456789") and digits.isascii() and digits.isdigit()):
        return None
    value = int(text)
    return value if value in _INT64 else None
