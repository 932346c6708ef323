"""Server-side rules of ResourceSlice (`resource.k8s.io` v1, v1beta2): pool, node selection, devices, attributes.

Followed: k/k `pkg/apis/resource/validation/validation.go` (master `009801d9`) `validateResourceSliceSpec`,
`validateResourcePool`, `validateDevice`, `validateCounterSet`, `validateQualifiedName`; limits from
`k8s.io/api` `resource/v1/types.go`: at most 128 devices per slice, 64 when a device uses taints, counters or
list attributes; 32 attributes and capacities per device; 8 shared counter sets; 2 counter consumptions and 16
taints per device. WAS223 slice shape, WAS224 attributes and capacities, WAS222 limits, WAS225 taints; capacity
request policies are `dra_capacity`'s (WAS226).
"""

from __future__ import annotations

from typing import Any, Iterator

from wasplan.api import dra_rules
from wasplan.api.releases import GateSet
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.validate.rules.common import is_dns_label, is_qualified_name, make
from wasplan.validate.rules.dra import too_many
from wasplan.validate.rules.dra_capacity import check_capacity
from wasplan.validate.rules.quantities import check_quantities
from wasplan.validate.walk import items, mapping

DEVICES_MAX, DEVICES_MAX_ADVANCED = 128, 64  # ResourceSliceMaxDevices, ...WithAdvancedFeatures
ATTRIBUTES_AND_CAPACITIES_MAX = 32  # ResourceSliceMaxAttributesAndCapacitiesPerDevice
COUNTER_SETS_MAX, CONSUMPTIONS_MAX, TAINTS_MAX = 8, 2, 16
_NODE_KEYS = ("nodeName", "nodeSelector", "allNodes", "perDeviceNodeSelection")
_DEVICE_NODE_KEYS = ("nodeName", "nodeSelector", "allNodes")
_ATTRIBUTE_KINDS = dra_rules.SCALAR_ATTRIBUTES + dra_rules.LIST_ATTRIBUTES
_LISTS = frozenset(dra_rules.LIST_ATTRIBUTES)


def check_slice(doc: Document, gates: GateSet) -> list[Diagnostic]:
    spec = mapping(doc.obj.get("spec"))
    base: FieldPath = ("spec",)
    out = [make(doc, "WAS223", p.message.replace("; it was left out", ""), base + p.path) for p in dra_rules.pool(spec)]
    out += _names(doc, spec, base)
    devices, counters = items(spec.get("devices")), items(spec.get("sharedCounters"))
    if devices and counters:
        out.append(make(doc, "WAS223", "a ResourceSlice has devices or sharedCounters, not both",
                        base + ("sharedCounters",),
                        "publish the counter sets in a slice of their own in the same pool"))
    # every slice, one of counter sets too, says which nodes it is for (validateResourceSliceSpec)
    _, problem = dra_rules.node_selection(spec, _NODE_KEYS, "ResourceSlice spec")
    if problem is not None:
        out.append(make(doc, "WAS223", problem.message, base))
    out += _counter_set_names(doc, counters, base + ("sharedCounters",))
    out += _empty_counters(doc, spec, base)
    advanced = len(devices) > DEVICES_MAX_ADVANCED and any(
        mapping(d).get("taints") or mapping(d).get("consumesCounters") or _has_list(mapping(d)) for d in devices)
    limit = DEVICES_MAX_ADVANCED if advanced else DEVICES_MAX
    over = too_many(doc, devices, base + ("devices",), limit, "devices" + (" using taints, counters or list "
                                                                             "attributes" if advanced else ""))
    out += over + too_many(doc, counters, base + ("sharedCounters",), COUNTER_SETS_MAX, "shared counter sets")
    if over:
        return out
    names = [mapping(d).get("name") for d in devices]
    out += [make(doc, "WAS223", f"device name {name!r} is used twice in this slice (also at devices[{first}])",
                 base + ("devices", i, "name")) for i, name, first in dra_rules.duplicates(names)]
    per_device = spec.get("perDeviceNodeSelection") is True
    for i, device in enumerate(devices):
        out += _device(doc, mapping(device), base + ("devices", i), per_device)
    return out + check_quantities(doc, _quantities(spec, base))


def _quantities(spec: dict, base: FieldPath) -> Iterator[tuple[FieldPath, str, Any]]:
    """Every quantity of a slice: capacities and their request policies, shared and consumed counters."""
    for i, counter_set in enumerate(items(spec.get("sharedCounters"))):
        yield from _counters(mapping(counter_set), base + ("sharedCounters", i))
    for i, device in enumerate(items(spec.get("devices"))):
        path = base + ("devices", i)
        for name, entry in mapping(mapping(device).get("capacity")).items():
            entry, at = mapping(entry), path + ("capacity", name)
            policy = mapping(entry.get("requestPolicy"))
            rng = mapping(policy.get("validRange"))
            yield at + ("value",), str(name), entry.get("value")
            yield at + ("requestPolicy", "default"), f"{name} default", policy.get("default")
            for j, value in enumerate(items(policy.get("validValues"))):
                yield at + ("requestPolicy", "validValues", j), f"{name} validValues", value
            for key in ("min", "max", "step"):
                yield at + ("requestPolicy", "validRange", key), f"{name} validRange.{key}", rng.get(key)
        for j, consumed in enumerate(items(mapping(device).get("consumesCounters"))):
            yield from _counters(mapping(consumed), path + ("consumesCounters", j))


def _counters(counter_set: dict, path: FieldPath) -> Iterator[tuple[FieldPath, str, Any]]:
    for name, counter in mapping(counter_set.get("counters")).items():
        yield path + ("counters", name, "value"), str(name), mapping(counter).get("value")


def _names(doc: Document, spec: dict, base: FieldPath) -> list[Diagnostic]:
    driver, pool = spec.get("driver"), mapping(spec.get("pool")).get("name")
    out = []
    if isinstance(driver, str) and driver and dra_rules.driver_name(driver):
        out.append(make(doc, "WAS223", dra_rules.driver_name(driver) or "", base + ("driver",)))
    if isinstance(pool, str) and pool and dra_rules.pool_name(pool):
        out.append(make(doc, "WAS223", dra_rules.pool_name(pool) or "", base + ("pool", "name")))
    return out


def _empty_counters(doc: Document, spec: dict, base: FieldPath) -> list[Diagnostic]:
    """A shared counter set and a device's counter consumption each name at least one counter (validateCounterSet,
    validateDeviceCounterConsumption: `counters` Required); an empty map passes the schema, not the server."""
    paths = [base + ("sharedCounters", i) for i, c in enumerate(items(spec.get("sharedCounters")))
             if mapping(c).get("counters") == {}]
    for i, device in enumerate(items(spec.get("devices"))):
        paths += [base + ("devices", i, "consumesCounters", j)
                  for j, c in enumerate(items(mapping(device).get("consumesCounters"))) if mapping(c).get("counters") == {}]
    return [make(doc, "WAS223", "counters must name at least one counter", p + ("counters",)) for p in paths]


def _counter_set_names(doc: Document, counters: list, base: FieldPath) -> list[Diagnostic]:
    """Each counter set has a DNS-label name of its own (validateCounterSet, the list-map key of sharedCounters)."""
    out, seen = [], set()
    for i, counter_set in enumerate(counters):
        name = mapping(counter_set).get("name")
        if not isinstance(name, str) or not name:
            continue
        if not is_dns_label(name):
            out.append(make(doc, "WAS223", f"counter set name {name!r} is not a DNS label (lowercase letters, digits "
                                           "and '-', at most 63 characters)", base + (i, "name")))
        if name in seen:
            out.append(make(doc, "WAS223", f"counter set name {name!r} is used twice in this slice", base + (i,)))
        seen.add(name)
    return out


def _has_list(device: dict) -> bool:
    return any(isinstance(a, dict) and not _LISTS.isdisjoint(a) for a in mapping(device.get("attributes")).values())


def _device(doc: Document, device: dict, path: FieldPath, per_device: bool) -> list[Diagnostic]:
    out = []
    name = device.get("name")
    if isinstance(name, str) and name and not is_dns_label(name):
        out.append(make(doc, "WAS223", f"device name {name!r} is not a DNS label", path + ("name",)))
    attributes, capacity = mapping(device.get("attributes")), mapping(device.get("capacity"))
    total = len(attributes) + len(capacity)
    if total > ATTRIBUTES_AND_CAPACITIES_MAX:
        out.append(make(doc, "WAS222", f"device {name!r} has {total} attributes and capacities, more than the limit "
                        f"of {ATTRIBUTES_AND_CAPACITIES_MAX}", path))
    for key, value in attributes.items():
        out += _qualified(doc, str(key), path + ("attributes", key), "attribute")
        problem = dra_rules.attribute(str(key), value, _ATTRIBUTE_KINDS)
        if problem is not None:
            out.append(make(doc, "WAS224", problem.message, path + ("attributes", key) + problem.path))
    for key in capacity:
        out += _qualified(doc, str(key), path + ("capacity", key), "capacity")
    out += check_capacity(doc, device, path)
    out += _node_selection(doc, device, path, per_device)
    out += too_many(doc, device.get("consumesCounters"), path + ("consumesCounters",), CONSUMPTIONS_MAX,
                    "counter consumptions")
    out += too_many(doc, device.get("taints"), path + ("taints",), TAINTS_MAX, "taints")
    for i, taint in enumerate(items(device.get("taints"))):
        key = mapping(taint).get("key")
        if isinstance(key, str) and key and not is_qualified_name(key):
            out.append(make(doc, "WAS225", f"taint key {key!r} is not a valid label key", path + ("taints", i, "key")))
    return out


def _qualified(doc: Document, key: str, path: FieldPath, what: str) -> list[Diagnostic]:
    why = dra_rules.qualified_name(key)
    if why is None:
        return []
    return [make(doc, "WAS224", f"{what} name {key!r}: {why}", path,
                 "write an identifier (`memory`), or a domain and an identifier (`gpu.example.com/memory`)")]


def _node_selection(doc: Document, device: dict, path: FieldPath, per_device: bool) -> list[Diagnostic]:
    set_here = [k for k in _DEVICE_NODE_KEYS if device.get(k) not in (None, False)]
    if per_device:
        _, problem = dra_rules.node_selection(device, _DEVICE_NODE_KEYS, f"device {device.get('name')!r}")
        return [] if problem is None else [make(doc, "WAS223", problem.message + " (the slice sets "
                                                "perDeviceNodeSelection)", path)]
    if set_here:
        return [make(doc, "WAS223", f"device {device.get('name')!r} sets {' and '.join(set_here)}, which only "
                     "devices of a slice with perDeviceNodeSelection: true may set", path + (set_here[0],))]
    return []
