"""Builders mirroring upstream's allocator test helpers (`structured/internal/allocatortesting/allocator_testing.go`,
k8s.io/dynamic-resource-allocation v0.36.0, commit c44687d1): objects are written as the API dicts a manifest would
hold and go through the real parser, so every case also exercises `parse_dra`."""

from __future__ import annotations

from wasplan.cluster.devices import DeviceResult
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Node
from wasplan.cluster.parse_dra import parse_dra_record
from wasplan.engine.dra import Allocator, Features, InUseLedger

V1 = "resource.k8s.io/v1"
NODE1, NODE2, REGION1, REGION2 = "node-1", "node-2", "region-1", "region-2"
CLASS_A, CLASS_B, DRIVER_A, DRIVER_B = "class-a", "class-b", "driver-a", "driver-b"
POOL1, POOL2, POOL3, POOL4 = "pool-1", "pool-2", "pool-3", "pool-4"


def parsed(obj: dict, strict: bool = True):
    ctx = Ctx(None)
    record = parse_dra_record(obj, ctx)
    assert not strict or not ctx.diags, [d.message for d in ctx.diags]
    return record


def node(name: str, region: str) -> Node:
    return Node(name, {"region": region, "planet": "earth"}, {})


def device_class(name: str, driver: str, **spec) -> dict:
    return {"apiVersion": V1, "kind": "DeviceClass", "metadata": {"name": name},
            "spec": {"selectors": [{"cel": {"expression": f'device.driver == "{driver}"'}}], **spec}}


def label_selector(key: str, value: str) -> dict:
    return {"nodeSelectorTerms": [{"matchExpressions": [{"key": key, "operator": "In", "values": [value]}]}]}


def local_selector(name: str) -> dict:
    return {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": [name]}]}]}


def device(name: str, capacity: dict | None = None, attributes: dict | None = None, **extra) -> dict:
    out: dict = {"name": name, **extra}
    if capacity:
        out["capacity"] = {k: {"value": v} for k, v in capacity.items()}
    if attributes:
        out["attributes"] = attributes
    return out


def resource_slice(name: str, where, pool: str, driver: str, *devices: dict, generation: int = 1, count: int = 1,
                   **spec) -> dict:
    """`where` as upstream's nodeSelection: a node name, "all", "per-device" or a node selector dict."""
    body: dict = {"driver": driver, "pool": {"name": pool, "generation": generation, "resourceSliceCount": count},
                  **spec}
    if isinstance(where, dict):
        body["nodeSelector"] = where
    elif where == "all":
        body["allNodes"] = True
    elif where == "per-device":
        body["perDeviceNodeSelection"] = True
    elif where is not None:
        body["nodeName"] = where
    if devices:
        body["devices"] = list(devices)
    return {"apiVersion": V1, "kind": "ResourceSlice", "metadata": {"name": name}, "spec": body}


def exact(name: str, cls: str, count: int | None = 1, *selectors: str, **extra) -> dict:
    body: dict = {"deviceClassName": cls, **extra}
    if count is not None:
        body["count"] = count
    if selectors:
        body["selectors"] = [{"cel": {"expression": s}} for s in selectors]
    return {"name": name, "exactly": body}


def first_available(name: str, *subs: dict) -> dict:
    return {"name": name, "firstAvailable": list(subs)}


def sub(name: str, cls: str, count: int = 1, **extra) -> dict:
    return {"name": name, "deviceClassName": cls, "count": count, **extra}


def claim(name: str, *requests: dict, constraints: list | None = None, namespace: str = "default") -> dict:
    devices: dict = {"requests": list(requests)}
    if constraints:
        devices["constraints"] = constraints
    return {"apiVersion": V1, "kind": "ResourceClaim", "metadata": {"name": name, "namespace": namespace},
            "spec": {"devices": devices}}


def allocate(claims: list[dict], classes: list[dict], slices: list[dict], on: Node, allocated=(),
             features: Features = Features(), strict: bool = True, allocated_capacity=()):
    """`allocated`: device IDs in use; `allocated_capacity`: (device ID, {capacity: Fraction}) already consumed on
    shareable devices (upstream's allocatedDevices / allocatedCapacityDevices)."""
    ledger = InUseLedger()
    ledger.add(DeviceResult("x", *d) for d in allocated)
    ledger.add(DeviceResult("x", *d, share_id="s", consumed_capacity=tuple(c.items())) for d, c in allocated_capacity)
    allocator = Allocator([parsed(s) for s in slices], [parsed(c) for c in classes], ledger, features)
    return allocator.allocate(on, [parsed(c, strict) for c in claims])


def picks(result) -> list[list[tuple[str, str, str, str]]]:
    """Per claim, (request, driver, pool, device) in result order."""
    return [[(r.request, r.driver, r.pool, r.device) for r in a.results] for a in result.allocations]


def selector_of(result, i: int = 0):
    return result.allocations[i].node_selector
