"""The one door from the plan's common path to the DRA records: which objects are DRA objects, their parsers,
the snapshot's claim bookkeeping, and whether records are DRA records, without loading any of it.

The DRA records (DeviceClass, ResourceSlice, ResourceClaim, ResourceClaimTemplate, DeviceTaintRule and their
parts) are the classes of `cluster/devices.py`. Only the modules that make or work on such records import it at
module level: the DRA parsers (`parse_dra.py`, `cluster_devices.py` for the Cluster kind's device pools), the
ResourceClaim controller (`claims.py`, `reservations.py`), the reference checks (`dra_refs.py`), the snapshot
writer's `dra_objects.py` and the allocator (`engine/dra`). Those load here, on first use: `parse` with the
first `resource.k8s.io` object, `node_pool_slices` / `network_pool_slice` with the Cluster kind's first device
pool, `check_claims` with the first DRA record or claim entry. Code that every plan runs and that only sorts DRA
records from the others (the simulator's split of its inputs, engine/profile/draworld.py) asks `records()`: a
DRA record is an instance of one of those classes, so while their module is not loaded no record is one. A plan
whose inputs hold no DRA object loads none of them (tests/cli/test_startup.py holds that).
"""

from __future__ import annotations

import sys
from types import ModuleType

from wasplan.cluster.model import Group, Pod

DEVICES = "wasplan.cluster.devices"
RESOURCE_GROUP = "resource.k8s.io"
DRA_KINDS = ("DeviceClass", "ResourceSlice", "ResourceClaim", "ResourceClaimTemplate", "DeviceTaintRule")


def records() -> ModuleType | None:
    """`wasplan.cluster.devices` once some record of it may exist in this process; None while none can."""
    return sys.modules.get(DEVICES)


def is_dra_kind(api_version: str, kind: str) -> bool:
    return kind in DRA_KINDS and api_version.startswith(RESOURCE_GROUP + "/")


def parse(obj: dict, ctx):
    """A `resource.k8s.io` object to its record, or None (parse_dra.py `parse_dra_record`)."""
    from wasplan.cluster.parse_dra import parse_dra_record

    return parse_dra_record(obj, ctx)


def node_pool_slices(pool: dict, nodes: list, ctx) -> list:
    """The Cluster kind's `nodePools[].devices` as ResourceSlices (cluster_devices.py); none without devices."""
    if not pool.get("devices"):
        return []
    from wasplan.cluster.cluster_devices import node_pool_slices as slices

    return slices(pool, nodes, ctx)


def network_pool_slice(entry: dict, ctx):
    """One `devicePools[]` entry of the Cluster kind as a ResourceSlice, or None (cluster_devices.py)."""
    from wasplan.cluster.cluster_devices import network_pool_slice as pool_slice

    return pool_slice(entry, ctx)


def check_claims(recs: list, diags: list) -> None:
    """The ResourceClaim controller's clean-up of stale reservations (reservations.py), then the references to
    claims, templates and classes that are not in the inputs (dra_refs.py); nothing to do, and nothing loaded,
    when no record is a DRA record and no pod or PodGroup names a claim."""
    if records() is None and not any(_names_claims(r) for r in recs):
        return
    from wasplan.cluster.dra_refs import check_references
    from wasplan.cluster.reservations import drop_stale_reservations

    drop_stale_reservations(recs, diags)
    diags += check_references(recs)


def _names_claims(record) -> bool:
    if isinstance(record, Pod):
        return bool(record.resource_claims)
    return isinstance(record, Group) and bool(getattr(record.obj, "resource_claims", ()))
