"""Kubernetes object and label name formats (k8s.io/apimachinery `pkg/api/validate/content/dns.go`
IsDNS1123Label and IsDNS1123Subdomain), used by the server-side rules of every kind; values of another type are
simply not names.

A label is at most 63 characters; a subdomain is at most 253 characters of labels joined by dots, and upstream
bounds only the whole: a dot-separated part of a subdomain may be longer than 63 characters (a kubeadm static pod
`kube-controller-manager-<64-character node name>` is a valid Pod name). Go's `$` matches only at the end of the
text, so the patterns are matched whole (`fullmatch`): a trailing newline is not a name.
Also the decimal integers some string fields hold (`pkg/api/validate/content` IsDecimalInteger, then
strconv.ParseInt base 10, 64 bits), which validation and the scheduler read alike."""

from __future__ import annotations

import re
from typing import Any

DNS_LABEL_MAX, DNS_SUBDOMAIN_MAX = 63, 253  # DNS1123LabelMaxLength, DNS1123SubdomainMaxLength
_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS_LABEL = re.compile(_LABEL)
_DNS_SUBDOMAIN = re.compile(rf"{_LABEL}(\.{_LABEL})*")


def is_dns_label(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= DNS_LABEL_MAX and bool(_DNS_LABEL.fullmatch(value))


def is_dns_subdomain(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= DNS_SUBDOMAIN_MAX and bool(_DNS_SUBDOMAIN.fullmatch(value))



_LABEL_KEY_NAME = re.compile(r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]")


def is_qualified_name(value: Any) -> bool:
    """A label key (`content.IsLabelKey`, also condition types and toleration keys): `[prefix/]name` with at most
    one slash, a non-empty DNS-subdomain prefix and a name of at most 63 alphanumerics, '-', '_' and '.' that
    starts and ends alphanumeric."""
    if not isinstance(value, str) or value.count("/") > 1:
        return False
    prefix, slash, name = value.rpartition("/")
    if slash and not is_dns_subdomain(prefix):
        return False
    return len(name) <= DNS_LABEL_MAX and bool(_LABEL_KEY_NAME.fullmatch(name))


def is_label_value(value: Any) -> bool:
    """`content.IsLabelValue`: empty, or at most 63 characters shaped like a label key's name."""
    return isinstance(value, str) and (value == "" or len(value) <= DNS_LABEL_MAX
                                       and bool(_LABEL_KEY_NAME.fullmatch(value)))


_INT64 = range(-2**63, 2**63)


def decimal_int64(text: str) -> int | None:
    """The value of `text` when it is '0' or an optional '-', a digit 1-9 and more digits, within int64; else None
    (no '+', no leading zero, no spaces)."""
    digits = text[1:] if text.startswith("-") else text
    if text != "0" and not (digits[:1] in tuple("123456789") and digits.isascii() and digits.isdigit()):
        return None
    value = int(text)
    return value if value in _INT64 else None
