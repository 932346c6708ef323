"""`resource.k8s.io/v1beta1` DRA objects rewritten into the v1 shape the parse layer reads, as the API server does.

The release still serves v1beta1 DeviceClass, ResourceClaim, ResourceClaimTemplate and ResourceSlice
(`wasplan.api.served`), and the API server converts each to its internal (v1-shaped) form before the scheduler
sees it. The rules followed are those of k8s.io/kubernetes `pkg/apis/resource/v1beta1/conversion.go` (v1.37.2)
over the `k8s.io/api` `resource/v1beta1/types.go` shapes:

- a claim's `DeviceRequest` carries the exact request's fields itself; when any of them is set
  (`hasAnyMainRequestFieldsSet`: a non-empty deviceClassName, a non-zero count, an allocationMode, or any of
  selectors, adminAccess, tolerations, capacity, derivedAttributes) they move into `exactly`; `name` and
  `firstAvailable` stay on the request (subrequests have the same shape in both versions);
- a slice's `Device` wraps everything but its name in `basic`; the fields move up unchanged (capacities are
  `{value}` maps in both versions);
- a slice's `spec.nodeName` "" and `spec.allNodes` false are "unset" (v1 makes both pointers).

DeviceClass specs and claim statuses have the same shape in both versions and pass through. `to_v1` returns the
rewritten object and a function taking a v1 field path back to where the field sits in the v1beta1 document, so
findings keep pointing at the user's lines (`Ctx.paths`).
"""

from __future__ import annotations

from typing import Any, Callable

from wasplan.diagnostics import FieldPath

V1BETA1 = "resource.k8s.io/v1beta1"
CONVERTED_KINDS = ("DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice")
_EXACT_FIELDS = ("deviceClassName", "selectors", "allocationMode", "count", "adminAccess", "tolerations",
                 "capacity", "derivedAttributes")
_UNSET = (None, "", 0, False)


def _main_field_set(request: dict) -> bool:
    """`hasAnyMainRequestFieldsSet`: strings and count count when non-zero, the rest when present at all."""
    return any(request.get(k) not in _UNSET if k in ("deviceClassName", "allocationMode", "count")
               else request.get(k) is not None for k in _EXACT_FIELDS)


def _request(raw: Any) -> Any:
    if not isinstance(raw, dict) or not _main_field_set(raw):
        return raw
    out = {k: v for k, v in raw.items() if k not in _EXACT_FIELDS}
    out["exactly"] = {k: raw[k] for k in _EXACT_FIELDS if k in raw}
    return out


def _claim_spec(spec: Any) -> Any:
    devices = spec.get("devices") if isinstance(spec, dict) else None
    if not isinstance(devices, dict) or not isinstance(devices.get("requests"), list):
        return spec
    return {**spec, "devices": {**devices, "requests": [_request(r) for r in devices["requests"]]}}


def _device(raw: Any) -> Any:
    if not isinstance(raw, dict) or not isinstance(raw.get("basic"), dict):
        return raw
    return {**{k: v for k, v in raw.items() if k != "basic"}, **raw["basic"]}


def _slice_spec(spec: Any) -> Any:
    if not isinstance(spec, dict):
        return spec
    out = {k: v for k, v in spec.items() if not (k in ("nodeName", "allNodes") and v in ("", False))}
    if isinstance(spec.get("devices"), list):
        out["devices"] = [_device(d) for d in spec["devices"]]
    return out


def _claim_path(path: FieldPath) -> FieldPath:
    """(..., "requests", i, "exactly", rest...) -> (..., "requests", i, rest...)."""
    for i in range(len(path) - 2):
        if path[i] == "requests" and isinstance(path[i + 1], int) and path[i + 2] == "exactly":
            return path[:i + 2] + path[i + 3:]
    return path


def _slice_path(path: FieldPath) -> FieldPath:
    """("spec", "devices", i, field, ...) -> ("spec", "devices", i, "basic", field, ...) for all but `name`."""
    if len(path) > 3 and path[:2] == ("spec", "devices") and isinstance(path[2], int) and path[3] != "name":
        return path[:3] + ("basic",) + path[3:]
    return path


_PATHS = {"ResourceClaim": _claim_path, "ResourceClaimTemplate": _claim_path, "ResourceSlice": _slice_path}


def to_v1(obj: dict) -> tuple[dict, Callable[[FieldPath], FieldPath]]:
    """A v1beta1 DRA object in the v1 shape, and the map from v1 field paths back to the document's."""
    kind, spec = obj.get("kind"), obj.get("spec")
    if kind == "ResourceClaim":
        obj = {**obj, "spec": _claim_spec(spec)}
    elif kind == "ResourceClaimTemplate" and isinstance(spec, dict):
        obj = {**obj, "spec": {**spec, "spec": _claim_spec(spec.get("spec"))}}
    elif kind == "ResourceSlice":
        obj = {**obj, "spec": _slice_spec(spec)}
    return obj, _PATHS.get(str(kind), _same)


def document_path(doc: Any, path: FieldPath) -> FieldPath:
    """Where the v1 field `path` of a DRA record sits in its source document `doc` (a v1beta1 one has no
    `exactly` and keeps devices under `basic`); unchanged for any other version or without a document."""
    if getattr(doc, "api_version", None) != V1BETA1:
        return path
    return _PATHS.get(str(getattr(doc, "kind", "")), _same)(path)


def _same(path: FieldPath) -> FieldPath:
    return path
