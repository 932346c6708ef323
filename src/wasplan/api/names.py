"""Kubernetes object and label name formats (k8s.io/apimachinery `pkg/util/validation` IsDNS1123Label and
IsDNS1123Subdomain), used by the server-side rules of every kind; values of another type are simply not names."""

from __future__ import annotations

import re
from typing import Any

_DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")


def is_dns_label(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= 63 and bool(_DNS_LABEL.match(value))


def is_dns_subdomain(value: Any) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 253 and all(is_dns_label(p) for p in value.split("."))
