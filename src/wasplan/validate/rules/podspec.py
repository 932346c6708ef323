"""The API server's pod spec rules that decide a verdict and that the strict schema cannot express, for Pods and
for the pod templates of Jobs and other controllers.

Followed: k8s.io/kubernetes pkg/apis/core/validation/validation.go of 1.36/1.37 (validateContainers: names
are DNS labels, unique over init and app containers; validateResourceRequirements with
ValidateContainerResourceName and ValidateResourceQuantityValue: resource names, non-negative quantities,
whole numbers for extended resources, requests equal to limits where overcommit is not allowed, requests at
most limits otherwise; validateContainerPorts; validatePodResourceClaims and validateResourceClaimNames;
priorityClassName as a DNS subdomain; the rest of the lists in podspec_lists.py). Found missing by the API
server oracle's validate (issue 22); messages are our own words, field paths are the server's.
"""

from __future__ import annotations

from typing import Any, Iterator

from wasplan.api.quantity import QuantityError, parse_quantity
from wasplan.api.releases import GateSet
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.validate.rules.common import (CleanVerdicts, duplicate_keys, is_dns_label, is_dns_subdomain,
                                          is_qualified_name, make)
from wasplan.validate.rules.podspec_lists import check_pod_lists
from wasplan.validate.walk import items, mapping

_STANDARD_CONTAINER = {"cpu", "memory", "ephemeral-storage"}
_CONTAINER_LISTS = ("initContainers", "containers")


# pod specs the rules below found clean: they read the spec, its path and the gates, and the document only to
# place a finding
_CLEAN = CleanVerdicts()


def check_pod_spec(doc: Document, spec: dict, base: FieldPath, gates: GateSet) -> list[Diagnostic]:
    key = (gates.release.version, tuple(sorted(gates.values.items())), base, repr(spec))
    return _CLEAN.check(key, lambda: _check_pod_spec(doc, spec, base, gates))


def _check_pod_spec(doc: Document, spec: dict, base: FieldPath, gates: GateSet) -> list[Diagnostic]:
    out = _container_names(doc, spec, base)
    claim_names = {c.get("name") for c in items(spec.get("resourceClaims"))
                   if isinstance(c, dict) and isinstance(c.get("name"), str)}
    for path, container in _containers(spec, base):
        resources = mapping(container.get("resources"))
        out += _requirements(doc, resources, path + ("resources",))
        out += _container_claims(doc, resources, path + ("resources",), claim_names)
        out += _ports(doc, container, path)
    out += _pod_claims(doc, spec, base)
    out += check_pod_lists(doc, spec, base, gates)
    name = spec.get("priorityClassName")
    if isinstance(name, str) and name and not is_dns_subdomain(name):
        out.append(make(doc, "WAS107", f"priorityClassName {name!r} must be a DNS subdomain",
                        base + ("priorityClassName",)))
    return out


def _containers(spec: dict, base: FieldPath) -> Iterator[tuple[FieldPath, dict]]:
    for list_name in _CONTAINER_LISTS:
        for i, container in enumerate(items(spec.get(list_name))):
            if isinstance(container, dict):
                yield base + (list_name, i), container


def _container_names(doc: Document, spec: dict, base: FieldPath) -> list[Diagnostic]:
    out = []
    entries = list(_containers(spec, base))
    for path, container in entries:
        name = container.get("name")
        if isinstance(name, str) and name and not is_dns_label(name):
            out.append(make(doc, "WAS107", f"container name {name!r} must be a DNS label (at most 63 lowercase "
                                           "letters, digits and '-')", path + ("name",)))
    return out + duplicate_keys(doc, entries, "name", "container name")


def _is_extended(name: str) -> bool:
    """A domain-qualified resource outside kubernetes.io: counted in whole units and never overcommitted."""
    return "/" in name and "kubernetes.io/" not in name and not name.startswith("requests.")


def _overcommit(name: str) -> bool:
    return ("/" not in name or "kubernetes.io/" in name) and not name.startswith("hugepages-")


def _resource_name_problem(name: str) -> str | None:
    if not is_qualified_name(name):
        return "is not a valid resource name"
    if "/" not in name and name not in _STANDARD_CONTAINER and not name.startswith("hugepages-"):
        return "must be a standard container resource (cpu, memory, ephemeral-storage, hugepages-<size>) or fully qualified"
    return None


def _quantities(doc: Document, amounts: dict, path: FieldPath) -> tuple[list[Diagnostic], dict[str, Any]]:
    out, parsed = [], {}
    for name, raw in amounts.items():
        name = str(name)
        problem = _resource_name_problem(name)
        if problem:
            out.append(make(doc, "WAS107", f"resource {name!r} {problem}", path + (name,)))
            continue
        try:
            quantity = parse_quantity(raw)
        except QuantityError:
            continue  # quantities.py reports malformed values
        if quantity.amount < 0:
            out.append(make(doc, "WAS105", f"{name} must not be negative, got {raw}", path + (name,)))
        elif _is_extended(name) and quantity.amount.denominator != 1:
            out.append(make(doc, "WAS105", f"{name} is counted in whole units, got {raw}", path + (name,)))
        else:
            parsed[name] = quantity.amount
    return out, parsed


def _requirements(doc: Document, resources: dict, path: FieldPath) -> list[Diagnostic]:
    out, limits = _quantities(doc, mapping(resources.get("limits")), path + ("limits",))
    found, requests = _quantities(doc, mapping(resources.get("requests")), path + ("requests",))
    out += found
    for name, amount in requests.items():
        limit = limits.get(name)
        if limit is None:
            if not _overcommit(name) and name not in mapping(resources.get("limits")):
                out.append(make(doc, "WAS102", f"{name} is requested without a limit; it cannot be overcommitted, so "
                                               "its limit must be set (and equal the request)", path + ("limits",)))
        elif amount != limit and not _overcommit(name):
            out.append(make(doc, "WAS105", f"the {name} request must equal its limit", path + ("requests",)))
        elif amount > limit:
            out.append(make(doc, "WAS105", f"the {name} request must not exceed its limit", path + ("requests",)))
    named = {str(n) for n in mapping(resources.get("limits"))} | {str(n) for n in mapping(resources.get("requests"))}
    if any(str(n).startswith("hugepages-") for n in named) and not named & {"cpu", "memory"}:
        out.append(make(doc, "WAS102", "a container asking for hugepages must also ask for cpu or memory", path))
    return out


def _container_claims(doc: Document, resources: dict, path: FieldPath, pod_claims: set) -> list[Diagnostic]:
    entries = [(path + ("claims", i), c) for i, c in enumerate(items(resources.get("claims"))) if isinstance(c, dict)]
    out = []
    for entry_path, claim in entries:
        name = claim.get("name")
        if isinstance(name, str) and name not in pod_claims:
            out.append(make(doc, "WAS107", f"container claim {name!r} is not one of the pod's spec.resourceClaims",
                            entry_path))
    return out + _duplicate_claims(doc, entries)


def _duplicate_claims(doc: Document, entries: list[tuple[FieldPath, dict]]) -> list[Diagnostic]:
    """A container names a claim (and request) once; the server reports the repeated entry itself."""
    seen, out = set(), []
    for path, claim in entries:
        key = (claim.get("name"), claim.get("request"))
        if not all(part is None or isinstance(part, str) for part in key):
            continue  # a value of the wrong type: the schema reports it
        if key in seen:
            out.append(make(doc, "WAS202", f"claim {key[0]!r} is listed twice in this container", path))
        seen.add(key)
    return out


def _pod_claims(doc: Document, spec: dict, base: FieldPath) -> list[Diagnostic]:
    entries = [(base + ("resourceClaims", i), c) for i, c in enumerate(items(spec.get("resourceClaims")))
               if isinstance(c, dict)]
    out = []
    for path, claim in entries:
        name = claim.get("name")
        if isinstance(name, str) and name and not is_dns_label(name):
            out.append(make(doc, "WAS107", f"pod claim name {name!r} must be a DNS label", path + ("name",)))
        sources = [k for k in ("resourceClaimName", "resourceClaimTemplateName") if claim.get(k)]
        if len(sources) != 1:
            out.append(make(doc, "WAS108", "exactly one of resourceClaimName and resourceClaimTemplateName must be set",
                            path))
        for key in sources:
            value = claim[key]
            if isinstance(value, str) and not is_dns_subdomain(value):
                out.append(make(doc, "WAS107", f"{key} {value!r} must be a DNS subdomain", path + (key,)))
    return out + duplicate_keys(doc, entries, "name", "pod claim name")


def _ports(doc: Document, container: dict, path: FieldPath) -> list[Diagnostic]:
    out = []
    for i, port in enumerate(items(container.get("ports"))):
        port = mapping(port)
        for key, low in (("containerPort", 1), ("hostPort", 0)):
            value = port.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and not low <= value <= 65535:
                out.append(make(doc, "WAS105", f"{key} must be between {low} and 65535, got {value}",
                                path + ("ports", i, key)))
    return out
