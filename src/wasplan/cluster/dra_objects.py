"""DRA records back to `resource.k8s.io/v1` objects, for `--emit-snapshot`: the inverse of `parse_dra`.

`dra_object(record)` gives the API object a `kubectl get -o yaml` would show for a DeviceClass, ResourceSlice,
ResourceClaim (with `status.allocation` and `status.reservedFor`, so a second plan continues the story) or
ResourceClaimTemplate. Parsing the result gives an equal record (tests check the round trip). Quantities are
written canonically (`80Gi`, `500m`); maps keep their input order; empty optional fields are left out.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from wasplan.api.quantity import BINARY_SI, DECIMAL_SI, Quantity, format_quantity
from wasplan.cluster.devices import (
    EXACT_COUNT, Allocation, Attribute, Capacity, ClaimSpec, Constraint, CounterSet, Device, DeviceClass, DeviceTaint,
    DeviceTaintRule, DeviceToleration, DraRecord, NodeSelection, OpaqueConfig, OwnerReference, RequestSpec, ResourceClaim,
    ResourceClaimTemplate, ResourceSlice,
)
from wasplan.cluster.api_objects import node_term_object
from wasplan.cluster.model import NodeSelectorTerm

API_VERSION = "resource.k8s.io/v1"


def quantity_text(amount: Fraction) -> str:
    binary = amount.denominator == 1 and amount >= 1024 and amount % 1024 == 0
    return format_quantity(Quantity(amount, BINARY_SI if binary else DECIMAL_SI))


def node_selector_object(terms: tuple[NodeSelectorTerm, ...]) -> dict:
    return {"nodeSelectorTerms": [node_term_object(t) for t in terms]}


def _selection(where: NodeSelection) -> dict:
    if where.node_name is not None:
        return {"nodeName": where.node_name}
    if where.node_selector is not None:
        return {"nodeSelector": node_selector_object(where.node_selector)}
    return {"allNodes": True} if where.all_nodes else {}


def _attribute(a: Attribute) -> dict:
    return {a.kind: a.value}


def _capacity(c: Capacity) -> dict:
    out: dict = {"value": quantity_text(c.value)}
    p = c.policy
    if p is None:
        return out
    policy: dict = {}
    if p.default is not None:
        policy["default"] = quantity_text(p.default)
    if p.valid_values:
        policy["validValues"] = [quantity_text(v) for v in p.valid_values]
    bounds = {k: quantity_text(v) for k, v in (("min", p.range_min), ("max", p.range_max), ("step", p.range_step))
              if v is not None}
    if bounds:
        policy["validRange"] = bounds
    out["requestPolicy"] = policy
    return out


def _counters(cs: CounterSet, name_key: str) -> dict:
    return {name_key: cs.name, "counters": {k: {"value": quantity_text(v)} for k, v in cs.counters}}


def _taint(t: DeviceTaint) -> dict:
    return {"key": t.key, **({"value": t.value} if t.value else {}), "effect": t.effect}


def _device(d: Device, per_device: bool) -> dict:
    out: dict = {"name": d.name}
    optional = {
        "attributes": {k: _attribute(v) for k, v in d.attributes.items()},
        "capacity": {k: _capacity(v) for k, v in d.capacity.items()},
        "consumesCounters": [_counters(c, "counterSet") for c in d.consumes_counters],
        "taints": [_taint(t) for t in d.taints],
        "bindingConditions": list(d.binding_conditions),
        "bindingFailureConditions": list(d.binding_failure_conditions),
    }
    out.update({k: v for k, v in optional.items() if v})
    if d.binds_to_node:
        out["bindsToNode"] = True
    if d.allow_multiple_allocations is not None:
        out["allowMultipleAllocations"] = d.allow_multiple_allocations
    if per_device:
        out.update(_selection(d.node))
    return out


def resource_slice_object(s: ResourceSlice) -> dict:
    spec: dict = {"driver": s.driver, "pool": {"name": s.pool, "generation": s.generation,
                                               "resourceSliceCount": s.slice_count}}
    spec.update({"perDeviceNodeSelection": True} if s.per_device_node_selection else _selection(s.node))
    if s.devices:
        spec["devices"] = [_device(d, s.per_device_node_selection) for d in s.devices]
    if s.shared_counters:
        spec["sharedCounters"] = [_counters(c, "name") for c in s.shared_counters]
    return {"apiVersion": API_VERSION, "kind": "ResourceSlice", "metadata": {"name": s.name}, "spec": spec}


def _opaque(o: OpaqueConfig) -> dict:
    return {"opaque": {"driver": o.driver, **({"parameters": o.parameters} if o.parameters is not None else {})}}


def device_class_object(c: DeviceClass) -> dict:
    spec: dict = {}
    if c.selectors:
        spec["selectors"] = [{"cel": {"expression": e}} for e in c.selectors]
    if c.config:
        spec["config"] = [_opaque(o) for o in c.config]
    if c.extended_resource_name:
        spec["extendedResourceName"] = c.extended_resource_name
    meta: dict = {"name": c.name}
    if c.creation_timestamp:
        meta["creationTimestamp"] = c.creation_timestamp
    return {"apiVersion": API_VERSION, "kind": "DeviceClass", "metadata": meta, "spec": spec}


def _toleration(t: DeviceToleration) -> dict:
    out: dict = {"operator": t.operator}
    out.update({k: v for k, v in (("key", t.key), ("value", t.value), ("effect", t.effect)) if v})
    if t.toleration_seconds is not None:
        out["tolerationSeconds"] = t.toleration_seconds
    return out


def _request_spec(r: RequestSpec, sub: bool) -> dict:
    out: dict = {"name": r.name} if sub else {}
    out["deviceClassName"] = r.device_class_name
    if r.selectors:
        out["selectors"] = [{"cel": {"expression": e}} for e in r.selectors]
    out["allocationMode"] = r.allocation_mode
    if r.allocation_mode == EXACT_COUNT:
        out["count"] = r.count
    if r.admin_access is not None:
        out["adminAccess"] = r.admin_access
    if r.tolerations:
        out["tolerations"] = [_toleration(t) for t in r.tolerations]
    if r.capacity is not None:
        out["capacity"] = {"requests": {k: quantity_text(v) for k, v in r.capacity}}
    return out


def _constraint(c: Constraint) -> dict:
    out: dict = {"requests": list(c.requests)} if c.requests else {}
    if c.match_attribute:
        out["matchAttribute"] = c.match_attribute
    else:
        out["distinctAttribute"] = c.distinct_attribute
    return out


def claim_spec_object(spec: ClaimSpec) -> dict:
    requests = []
    for r in spec.requests:
        if r.exactly is not None:
            requests.append({"name": r.name, "exactly": _request_spec(r.exactly, sub=False)})
        else:
            requests.append({"name": r.name, "firstAvailable": [_request_spec(s, sub=True) for s in r.first_available]})
    devices: dict = {"requests": requests}
    if spec.constraints:
        devices["constraints"] = [_constraint(c) for c in spec.constraints]
    if spec.config:
        devices["config"] = [{**({"requests": list(c.requests)} if c.requests else {}), **_opaque(c.opaque)}
                             for c in spec.config]
    return {"devices": devices}


def allocation_object(a: Allocation) -> dict:
    results = []
    for r in a.results:
        out: dict = {"request": r.request, "driver": r.driver, "pool": r.pool, "device": r.device}
        if r.admin_access is not None:
            out["adminAccess"] = r.admin_access
        if r.tolerations:
            out["tolerations"] = [_toleration(t) for t in r.tolerations]
        if r.binding_conditions:
            out["bindingConditions"] = list(r.binding_conditions)
        if r.binding_failure_conditions:
            out["bindingFailureConditions"] = list(r.binding_failure_conditions)
        if r.share_id is not None:
            out["shareID"] = r.share_id
        if r.consumed_capacity:
            out["consumedCapacity"] = {k: quantity_text(v) for k, v in r.consumed_capacity}
        results.append(out)
    devices: dict = {"results": results}
    if a.config:
        devices["config"] = [{"source": c.source, **({"requests": list(c.requests)} if c.requests else {}),
                              **_opaque(c.opaque)} for c in a.config]
    out_alloc: dict = {"devices": devices}
    if a.node_selector is not None:
        out_alloc["nodeSelector"] = node_selector_object(a.node_selector)
    return out_alloc


def _owner(o: OwnerReference) -> dict:
    out: dict = {"apiVersion": o.api_version, "kind": o.kind, "name": o.name}
    if o.uid:
        out["uid"] = o.uid
    if o.controller:
        out["controller"] = True
    return out


def resource_claim_object(c: ResourceClaim) -> dict:
    meta: dict = {"name": c.name, "namespace": c.namespace}
    if c.uid:
        meta["uid"] = c.uid
    if c.annotations:
        meta["annotations"] = dict(c.annotations)
    if c.owners:
        meta["ownerReferences"] = [_owner(o) for o in c.owners]
    if c.deletion_timestamp:
        meta["deletionTimestamp"] = c.deletion_timestamp
    obj: dict[str, Any] = {"apiVersion": API_VERSION, "kind": "ResourceClaim", "metadata": meta,
                           "spec": claim_spec_object(c.spec)}
    status: dict = {}
    if c.allocation is not None:
        status["allocation"] = allocation_object(c.allocation)
    if c.reserved_for:
        status["reservedFor"] = [{**({"apiGroup": r.api_group} if r.api_group else {}), "resource": r.resource,
                                  "name": r.name, **({"uid": r.uid} if r.uid else {})} for r in c.reserved_for]
    if status:
        obj["status"] = status
    return obj


def resource_claim_template_object(t: ResourceClaimTemplate) -> dict:
    inner: dict = {}
    if t.labels:
        inner["labels"] = dict(t.labels)
    if t.annotations:
        inner["annotations"] = dict(t.annotations)
    spec: dict = ({"metadata": inner} if inner else {}) | {"spec": claim_spec_object(t.spec)}
    return {"apiVersion": API_VERSION, "kind": "ResourceClaimTemplate",
            "metadata": {"name": t.name, "namespace": t.namespace}, "spec": spec}


def device_taint_rule_object(r: DeviceTaintRule) -> dict:
    spec: dict = {"taint": _taint(r.taint)}
    if r.selects:
        spec["deviceSelector"] = {k: v for k, v in (("driver", r.driver), ("pool", r.pool), ("device", r.device)) if v}
    return {"apiVersion": API_VERSION, "kind": "DeviceTaintRule", "metadata": {"name": r.name}, "spec": spec}


def dra_object(record: DraRecord) -> dict:
    """The API object for any DRA record."""
    if isinstance(record, DeviceTaintRule):
        return device_taint_rule_object(record)
    if isinstance(record, ResourceSlice):
        return resource_slice_object(record)
    if isinstance(record, ResourceClaim):
        return resource_claim_object(record)
    if isinstance(record, ResourceClaimTemplate):
        return resource_claim_template_object(record)
    return device_class_object(record)
