"""DRA records back to `resource.k8s.io/v1` objects, for the cluster after the plan (`--emit-snapshot`).

An object read from a document is written as it was read, with a ResourceClaim's `status` replaced by what the
plan left (`allocation`, `reservedFor`) so that a second plan on the emitted snapshot continues from there.
Records without a document of their own (ResourceSlices of the Cluster kind's device pools, claims the
ResourceClaim controller generated) are written from the record, with the fields the planner reads.
Field names follow `k8s.io/api` `resource/v1/types.go` (v0.36.0).
"""

from __future__ import annotations

import copy
import uuid
from fractions import Fraction

from wasplan.api.quantity import DECIMAL_SI, Quantity, format_quantity
from wasplan.cluster.devices import (
    Allocation, Consumer, Device, DeviceClass, DeviceResult, NodeSelection, ResourceClaim, ResourceClaimTemplate,
    ResourceSlice,
)

API = "resource.k8s.io/v1"


def _quantity(value: Fraction) -> str:
    return format_quantity(Quantity(value, DECIMAL_SI))


def _raw(record, kind: str) -> dict | None:
    obj = getattr(getattr(record, "source", None), "obj", None)
    return copy.deepcopy(obj) if isinstance(obj, dict) and obj.get("kind") == kind else None


def _terms(terms) -> dict:
    out = []
    for t in terms:
        term: dict = {}
        for key, reqs in (("matchExpressions", t.match_expressions), ("matchFields", t.match_fields)):
            if reqs:
                term[key] = [{"key": r.key, "operator": r.operator, **({"values": list(r.values)} if r.values else {})}
                             for r in reqs]
        out.append(term)
    return {"nodeSelectorTerms": out}


def _selection(sel: NodeSelection) -> dict:
    if sel.node_name is not None:
        return {"nodeName": sel.node_name}
    if sel.all_nodes:
        return {"allNodes": True}
    return {"nodeSelector": _terms(sel.node_selector)} if sel.node_selector is not None else {}


def _attribute(a) -> dict:
    return {a.kind: a.value}


def _device(d: Device) -> dict:
    out: dict = {"name": d.name}
    if d.attributes:
        out["attributes"] = {k: _attribute(v) for k, v in d.attributes.items()}
    if d.capacity:
        out["capacity"] = {k: {"value": _quantity(c.value)} for k, c in d.capacity.items()}
    if d.taints:
        out["taints"] = [{"key": t.key, **({"value": t.value} if t.value else {}), "effect": t.effect}
                         for t in d.taints]
    if d.allow_multiple_allocations:
        out["allowMultipleAllocations"] = True
    return out


def slice_object(s: ResourceSlice) -> dict:
    raw = _raw(s, "ResourceSlice")
    if raw is not None:
        return raw
    spec: dict = {"driver": s.driver, "pool": {"name": s.pool, "generation": s.generation,
                                               "resourceSliceCount": s.slice_count}}
    spec.update(_selection(s.node))
    spec["devices"] = [_device(d) for d in s.devices]
    return {"apiVersion": API, "kind": "ResourceSlice", "metadata": {"name": s.name}, "spec": spec}


def class_object(c: DeviceClass) -> dict:
    raw = _raw(c, "DeviceClass")
    if raw is not None:
        return raw
    spec: dict = {"selectors": [{"cel": {"expression": e}} for e in c.selectors]}
    if c.extended_resource_name:
        spec["extendedResourceName"] = c.extended_resource_name
    return {"apiVersion": API, "kind": "DeviceClass", "metadata": {"name": c.name}, "spec": spec}


def template_object(t: ResourceClaimTemplate) -> dict:
    return _raw(t, "ResourceClaimTemplate") or {
        "apiVersion": API, "kind": "ResourceClaimTemplate", "metadata": {"name": t.name, "namespace": t.namespace},
        "spec": {"spec": _claim_spec_of(t)}}


def _claim_spec_of(record) -> dict:
    """The spec of a claim or template read from a document (a generated claim copies its template's)."""
    raw = getattr(getattr(record, "source", None), "obj", None)
    if isinstance(raw, dict) and raw.get("kind") == "ResourceClaimTemplate":
        return copy.deepcopy((raw.get("spec") or {}).get("spec") or {})
    if isinstance(raw, dict) and raw.get("kind") == "ResourceClaim":
        return copy.deepcopy(raw.get("spec") or {})
    return {"devices": {"requests": [_request(r) for r in record.spec.requests]}}


def _request(r) -> dict:
    def spec(s) -> dict:
        out: dict = {"deviceClassName": s.device_class_name}
        if s.selectors:
            out["selectors"] = [{"cel": {"expression": e}} for e in s.selectors]
        out["allocationMode"] = s.allocation_mode
        if s.allocation_mode == "ExactCount":
            out["count"] = s.count
        return out
    if r.exactly is not None:
        return {"name": r.name, "exactly": spec(r.exactly)}
    return {"name": r.name, "firstAvailable": [{"name": s.name, **spec(s)} for s in r.first_available]}


def _result(r: DeviceResult) -> dict:
    out: dict = {"request": r.request, "driver": r.driver, "pool": r.pool, "device": r.device}
    if r.admin_access:
        out["adminAccess"] = True
    if r.share_id is not None:
        out["shareID"] = r.share_id
    if r.consumed_capacity:
        out["consumedCapacity"] = {k: _quantity(v) for k, v in r.consumed_capacity}
    return out


def allocation_object(a: Allocation) -> dict:
    out: dict = {"devices": {"results": [_result(r) for r in a.results]}}
    if a.config:
        out["devices"]["config"] = [{"source": c.source, "requests": list(c.requests),
                                     "opaque": {"driver": c.opaque.driver, "parameters": c.opaque.parameters}}
                                    for c in a.config]
    if a.node_selector is not None:
        out["nodeSelector"] = _terms(a.node_selector)
    return out


def stable_uid(namespace: str, kind: str, name: str) -> str:
    """A stable stand-in for an object's uid (the plan has no API server to assign one): same object, same uid."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"wasplan.io/owner/{namespace}/{kind}/{name}"))


def _consumer(namespace: str, c: Consumer) -> dict:
    uid = c.uid or stable_uid(namespace, "PodGroup" if c.resource == "podgroups" else "Pod", c.name)
    return {**({"apiGroup": c.api_group} if c.api_group else {}), "resource": c.resource, "name": c.name, "uid": uid}


def claim_object(claim: ResourceClaim, template: ResourceClaimTemplate | None = None) -> dict:
    """The claim with the status the plan left; `template` supplies the spec of a generated claim."""
    out = _raw(claim, "ResourceClaim")
    if out is None:
        meta: dict = {"name": claim.name, "namespace": claim.namespace}
        if claim.annotations:
            meta["annotations"] = dict(claim.annotations)
        if claim.owners:
            meta["ownerReferences"] = [{"apiVersion": o.api_version, "kind": o.kind, "name": o.name,
                                        "uid": o.uid or stable_uid(claim.namespace, o.kind, o.name),
                                        "controller": o.controller} for o in claim.owners]
        spec = _claim_spec_of(template if template is not None else claim)
        out = {"apiVersion": API, "kind": "ResourceClaim", "metadata": meta, "spec": spec}
    status: dict = {}
    if claim.allocation is not None:
        status["allocation"] = allocation_object(claim.allocation)
    if claim.reserved_for:
        status["reservedFor"] = [_consumer(claim.namespace, c) for c in claim.reserved_for]
    out.pop("status", None)
    if status:
        out["status"] = status
    return out
