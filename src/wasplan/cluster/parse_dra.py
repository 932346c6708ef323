"""DRA objects (`resource.k8s.io/v1`) from plain dicts to records: the entry point of the DRA parse layer.

`parse_dra_record(obj, ctx)` reads a DeviceClass, ResourceSlice, ResourceClaim, ResourceClaimTemplate or
DeviceTaintRule and
returns its record (`wasplan.cluster.devices`), or None for an object it had to leave out; like the other
`parse_*` modules it never raises on bad input and reports each problem as a positioned WAS64x finding.
`resource.k8s.io/v1beta2` has the same shape as v1 and is read too; the `v1beta1` kinds (requests without
`exactly`, slice devices under `basic`) are first rewritten to v1 as the API server converts them
(`wasplan.cluster.dra_v1beta1`), their findings still pointing into the v1beta1 document. Any other version
(`v1alpha3`, or a kind v1beta1 does not have) is reported (WAS650) and left out.
"""

from __future__ import annotations

from typing import Any

from wasplan.cluster import dra_fields as f
from wasplan.cluster import dra_v1beta1
from wasplan.cluster.dra_gate import RESOURCE_GROUP, is_dra_kind
from wasplan.cluster.devices import (
    DeviceClass, DeviceTaintRule, DraRecord, OwnerReference, ResourceClaim, ResourceClaimTemplate,
)
from wasplan.cluster.issues import Ctx
from wasplan.cluster.parse_claim import allocation, claim_spec, reserved_for
from wasplan.cluster.parse_slice import parse_resource_slice
from wasplan.cluster.selectors import string_map

READ_VERSIONS = (f"{RESOURCE_GROUP}/v1", f"{RESOURCE_GROUP}/v1beta2")

def _meta(obj: dict) -> dict:
    meta = obj.get("metadata")
    return meta if isinstance(meta, dict) else {}


def parse_device_class(obj: dict, ctx: Ctx) -> DeviceClass:
    meta, spec = _meta(obj), f.as_map(obj.get("spec"), ctx.at("spec"), "spec")
    sctx = ctx.at("spec")
    items = f.as_items(spec.get("config"), sctx.at("config"), "config")
    configs = (f.opaque(c, sctx.at("config", i)) for i, c in enumerate(items))
    created = meta.get("creationTimestamp")
    return DeviceClass(
        name=meta.get("name") or "", selectors=f.selectors(spec.get("selectors"), sctx.at("selectors")),
        config=tuple(c for c in configs if c is not None),
        extended_resource_name=f.text(spec.get("extendedResourceName"), sctx.at("extendedResourceName"),
                                      "extendedResourceName") or None,
        creation_timestamp=created if isinstance(created, str) else None, source=ctx.doc)


def _owners(raw: Any, ctx: Ctx) -> tuple[OwnerReference, ...]:
    out = []
    for i, item in enumerate(f.as_items(raw, ctx, "ownerReferences")):
        if isinstance(item, dict) and isinstance(item.get("kind"), str) and isinstance(item.get("name"), str):
            out.append(OwnerReference(str(item.get("apiVersion") or ""), item["kind"], item["name"],
                                      str(item.get("uid") or ""), item.get("controller") is True))
        else:
            ctx.at(i).report("WAS648", "an owner reference needs kind and name", ())
    return tuple(out)


def parse_resource_claim(obj: dict, ctx: Ctx) -> ResourceClaim:
    meta = _meta(obj)
    status = f.as_map(obj.get("status"), ctx.at("status"), "status")
    deleting = meta.get("deletionTimestamp")
    return ResourceClaim(
        namespace=meta.get("namespace") or "default", name=meta.get("name") or "",
        spec=claim_spec(obj.get("spec"), ctx.at("spec")),
        allocation=allocation(status.get("allocation"), ctx.at("status", "allocation")),
        reserved_for=reserved_for(status.get("reservedFor"), ctx.at("status", "reservedFor")),
        deletion_timestamp=deleting if isinstance(deleting, str) else None,
        owners=_owners(meta.get("ownerReferences"), ctx.at("metadata", "ownerReferences")),
        annotations=string_map(meta.get("annotations"), ctx, ("metadata", "annotations")),
        uid=str(meta.get("uid") or ""), source=ctx.doc)


def parse_resource_claim_template(obj: dict, ctx: Ctx) -> ResourceClaimTemplate:
    meta = _meta(obj)
    spec = f.as_map(obj.get("spec"), ctx.at("spec"), "spec")
    inner = f.as_map(spec.get("metadata"), ctx.at("spec", "metadata"), "spec.metadata")
    return ResourceClaimTemplate(
        namespace=meta.get("namespace") or "default", name=meta.get("name") or "",
        spec=claim_spec(spec.get("spec"), ctx.at("spec", "spec")),
        labels=string_map(inner.get("labels"), ctx, ("spec", "metadata", "labels")),
        annotations=string_map(inner.get("annotations"), ctx, ("spec", "metadata", "annotations")),
        source=ctx.doc)


def parse_device_taint_rule(obj: dict, ctx: Ctx) -> DeviceTaintRule | None:
    spec = f.as_map(obj.get("spec"), ctx.at("spec"), "spec")
    taint = f.taint(spec.get("taint"), ctx.at("spec", "taint"))
    if taint is None:
        return None
    raw = spec.get("deviceSelector")
    selector = f.as_map(raw, ctx.at("spec", "deviceSelector"), "deviceSelector")
    parts = {k: f.text(selector.get(k), ctx.at("spec", "deviceSelector", k), k) for k in ("driver", "pool", "device")}
    return DeviceTaintRule(_meta(obj).get("name") or "", taint, raw is not None, **parts, source=ctx.doc)


def parse_dra_record(obj: dict, ctx: Ctx) -> DraRecord | None:
    """One DRA object to its record; None for other kinds, unsupported versions (WAS650) and unusable slices."""
    api_version, kind = str(obj.get("apiVersion") or ""), obj.get("kind")
    if not is_dra_kind(api_version, str(kind)):
        return None
    if api_version == dra_v1beta1.V1BETA1 and kind in dra_v1beta1.CONVERTED_KINDS:
        obj, paths = dra_v1beta1.to_v1(obj)
        base = ctx.prefix
        ctx = Ctx(ctx.doc, ctx.diags, base, lambda path: base + paths(path[len(base):]))
    elif api_version not in READ_VERSIONS:
        ctx.report("WAS650", f"{kind} {api_version} is not read by the planner; write {READ_VERSIONS[0]}",
                   ("apiVersion",))
        return None
    if kind == "DeviceClass":
        return parse_device_class(obj, ctx)
    if kind == "ResourceSlice":
        return parse_resource_slice(obj, ctx)
    if kind == "ResourceClaim":
        return parse_resource_claim(obj, ctx)
    if kind == "DeviceTaintRule":
        return parse_device_taint_rule(obj, ctx)
    return parse_resource_claim_template(obj, ctx)
