"""Server-side rules of DeviceClass, ResourceClaim and ResourceClaimTemplate (`resource.k8s.io` v1, v1beta2, and
v1beta1, whose requests carry the `exactly` fields themselves; the API server converts them before validating).

What kube-apiserver rejects on create that the strict schema cannot express (k/k
`pkg/apis/resource/validation/validation.go`, master `009801d9`: `validateDeviceClaim`,
`validateDeviceRequest`, `validateDeviceSubRequest`, `validateExactDeviceRequest`, `validateDeviceConstraint`,
`validateDeviceClaimConfiguration`, `validateDeviceClass`; limits from `k8s.io/api` `resource/v1/types.go`):
WAS220 requests, WAS221 constraints and config references, WAS222 list limits, WAS225 tolerations, and every
selector's CEL through `dra_cel` (WAS230-WAS235). The rules the plan's reader applies too live in
`wasplan.api.dra_rules`. Tolerates wrong types: the schema has reported those.
"""

from __future__ import annotations

from typing import Any

from wasplan.api import dra_rules
from wasplan.api.releases import GateSet
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.validate.rules.common import is_dns_label, is_dns_subdomain, is_qualified_name, make
from wasplan.validate.rules.dra_cel import check_selectors
from wasplan.validate.rules.quantities import check_quantities
from wasplan.validate.walk import items, mapping

REQUESTS_MAX = 32  # DeviceRequestsMaxSize
SUBREQUESTS_MAX = dra_rules.SUBREQUESTS_MAX
SELECTORS_MAX = 32  # DeviceSelectorsMaxSize
CONSTRAINTS_MAX = 32  # DeviceConstraintsMaxSize
CONFIG_MAX = 32  # DeviceConfigMaxSize
TOLERATIONS_MAX = 16  # DeviceTolerationsMaxLength


def check_class(doc: Document, gates: GateSet) -> list[Diagnostic]:
    spec = mapping(doc.obj.get("spec"))
    out = too_many(doc, spec.get("selectors"), ("spec", "selectors"), SELECTORS_MAX, "selectors")
    out += too_many(doc, spec.get("config"), ("spec", "config"), CONFIG_MAX, "config entries")
    out += config_drivers(doc, spec.get("config"), ("spec", "config"))
    return out + check_selectors(doc, spec.get("selectors"), ("spec", "selectors"), gates)


def config_drivers(doc: Document, config: Any, path: FieldPath) -> list[Diagnostic]:
    """Each opaque configuration names its driver by a valid driver name (`validateOpaqueConfiguration`)."""
    out = []
    for i, entry in enumerate(items(config)):
        driver = mapping(mapping(entry).get("opaque")).get("driver")
        why = dra_rules.driver_name(driver) if isinstance(driver, str) and driver else None
        if why:
            out.append(make(doc, "WAS221", f"config opaque.driver: {why}", path + (i, "opaque", "driver")))
    return out


def check_claim(doc: Document, gates: GateSet) -> list[Diagnostic]:
    return claim_spec(doc, mapping(doc.obj.get("spec")), ("spec",), gates)


def check_template(doc: Document, gates: GateSet) -> list[Diagnostic]:
    return claim_spec(doc, mapping(mapping(doc.obj.get("spec")).get("spec")), ("spec", "spec"), gates)


def too_many(doc: Document, raw: Any, path: FieldPath, limit: int, what: str) -> list[Diagnostic]:
    over = dra_rules.too_many(items(raw), limit, what)
    return [] if over is None else [make(doc, "WAS222", over.message, path)]


def claim_spec(doc: Document, spec: dict, base: FieldPath, gates: GateSet) -> list[Diagnostic]:
    devices = mapping(spec.get("devices"))
    path = base + ("devices",)
    requests = devices.get("requests")
    out = too_many(doc, requests, path + ("requests",), REQUESTS_MAX, "requests")
    out += too_many(doc, devices.get("constraints"), path + ("constraints",), CONSTRAINTS_MAX, "constraints")
    out += too_many(doc, devices.get("config"), path + ("config",), CONFIG_MAX, "config entries")
    if out:
        return out  # upstream stops at a list over its limit (DoS protection); so do we
    out += _unique_names(doc, items(requests), path + ("requests",), "request")
    for i, request in enumerate(items(requests)):
        out += _request(doc, mapping(request), path + ("requests", i), gates)
    known = dra_rules.request_names(requests)
    for i, raw in enumerate(items(devices.get("constraints"))):
        out += [make(doc, "WAS221", p.message, path + ("constraints", i) + p.path)
                for p in dra_rules.constraint(mapping(raw), known)]
    out += config_drivers(doc, devices.get("config"), path + ("config",))
    for i, raw in enumerate(items(devices.get("config"))):
        for j, name in enumerate(items(mapping(raw).get("requests"))):
            problem = dra_rules.request_reference(name, known)
            if problem is not None:
                out.append(make(doc, "WAS221", f"config requests: {problem.message}",
                                path + ("config", i, "requests", j)))
    return out


def _request(doc: Document, request: dict, path: FieldPath, gates: GateSet) -> list[Diagnostic]:
    name = request.get("name")
    out = _name(doc, name, path + ("name",), "request")
    if doc.version == "v1beta1" and request.get("firstAvailable") is None:
        return out + _exact(doc, request, path, name, gates)  # v1beta1: the exact request's fields sit on the request
    union = dra_rules.request_union(request, name)
    if union is not None:
        return out + [make(doc, "WAS220", union.message, path,
                           "write the device class and selectors under `exactly`, or a list of alternatives under "
                           "`firstAvailable`")]
    if request.get("exactly") is not None:
        return out + _exact(doc, mapping(request.get("exactly")), path + ("exactly",), name, gates)
    subs = items(request.get("firstAvailable"))
    path_subs = path + ("firstAvailable",)
    if len(subs) > SUBREQUESTS_MAX:
        return out + too_many(doc, subs, path_subs, SUBREQUESTS_MAX, "firstAvailable subrequests")
    out += _unique_names(doc, subs, path_subs, "subrequest")
    for i, sub in enumerate(subs):
        sub = mapping(sub)
        out += _name(doc, sub.get("name"), path_subs + (i, "name"), "subrequest")
        out += _exact(doc, sub, path_subs + (i,), f"{name}/{sub.get('name')}", gates)
    return out


def _exact(doc: Document, spec: dict, path: FieldPath, name: Any, gates: GateSet) -> list[Diagnostic]:
    out = [make(doc, "WAS220", p.message, path + p.path, _count_hint(p.path)) for p in dra_rules.allocation(spec, name)]
    cls = spec.get("deviceClassName")
    if isinstance(cls, str) and cls and not is_dns_subdomain(cls):
        out.append(make(doc, "WAS220", f"deviceClassName {cls!r} is not a valid DeviceClass name (DNS subdomain: "
                        "lowercase letters, digits, '-' and '.')", path + ("deviceClassName",)))
    out += too_many(doc, spec.get("selectors"), path + ("selectors",), SELECTORS_MAX, "selectors")
    out += too_many(doc, spec.get("tolerations"), path + ("tolerations",), TOLERATIONS_MAX, "tolerations")
    for i, toleration in enumerate(items(spec.get("tolerations"))):
        out += toleration_rules(doc, mapping(toleration), path + ("tolerations", i))
    requests = mapping(mapping(spec.get("capacity")).get("requests"))
    out += check_quantities(doc, ((path + ("capacity", "requests", k), str(k), v) for k, v in requests.items()))
    return out + check_selectors(doc, spec.get("selectors"), path + ("selectors",), gates)


def _count_hint(path: FieldPath) -> str | None:
    return "remove count: allocationMode All takes every matching device" if path == ("count",) else None


def toleration_rules(doc: Document, toleration: dict, path: FieldPath) -> list[Diagnostic]:
    """`validateDeviceToleration`: Exists takes no value; a key is a label key."""
    out = []
    if toleration.get("operator") == "Exists" and toleration.get("value") not in (None, ""):
        out.append(make(doc, "WAS225", "a toleration with operator Exists must not set a value", path + ("value",),
                        "drop the value, or use operator: Equal"))
    key = toleration.get("key")
    if isinstance(key, str) and key and not is_qualified_name(key):
        out.append(make(doc, "WAS225", f"toleration key {key!r} is not a valid label key ([prefix/]name, name "
                        "at most 63 characters)", path + ("key",)))
    return out


def _name(doc: Document, name: Any, path: FieldPath, what: str) -> list[Diagnostic]:
    if isinstance(name, str) and name and not is_dns_label(name):
        return [make(doc, "WAS220", f"{what} name {name!r} is not a DNS label (lowercase letters, digits and '-', "
                     "at most 63 characters, starting and ending with a letter or digit)", path)]
    return []


def _unique_names(doc: Document, entries: list, path: FieldPath, what: str) -> list[Diagnostic]:
    names = [mapping(entry).get("name") for entry in entries]
    return [make(doc, "WAS220", f"{what} name {name!r} is used twice (also at {what} #{first})", path + (i, "name"))
            for i, name, first in dra_rules.duplicates(names)]
