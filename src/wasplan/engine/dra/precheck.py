"""A vectorised per-node feasibility check for the common DRA shape, exact where it says so.

The search (`search.py`) runs per node; with 5,000 nodes and 10,000 pods that is too slow in Python. Most clusters
and claims are simple: no slice selects nodes per device or shares counters, no device consumes counters or allows
multiple allocations, and every request is `ExactCount` without `firstAvailable`, constraints, capacity requests
or admin access. Then a node can satisfy the claims exactly when, for each group of requests with the same
selectable devices, the devices it reaches (node-local, and network-attached ones whose slice selects it) include
at least as many free selectable ones as the group asks for, provided the groups' device sets are disjoint (the
search is exhaustive, so it finds an assignment whenever the counts allow one; overlapping sets would need a
matching argument this check does not make). Devices are rows per (node, reachable device), built from the same
per-node pools the search uses, so a network-attached device appears once for every node that reaches it.

`Precheck.check(claims)` returns a `PrecheckResult` with `exact` (its answer equals the search's on every node),
`feasible` (bool per node index) and `invalid` (nodes where the search would report invalid pools instead of
"cannot allocate"). When `exact` is false the engine must run the search per node. Selectability is the search's
own (`SelectorCache`, class then request selectors, taints, binding conditions); a CEL runtime error on any device
makes the answer inexact, because the search meets the error only on nodes whose walk reaches that device.
Devices in use come from the ledger's change log, so each check costs one numpy pass over the devices.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from wasplan.cluster.devices import ALLOCATION_RESULTS_MAX, EXACT_COUNT, Device, ResourceClaim, RequestSpec
from wasplan.engine.dra.allocator import Allocator
from wasplan.engine.dra.errors import AllocationError
from wasplan.engine.dra.pools import NodeLike
from wasplan.engine.dra.taints import taint_blocks


@dataclass(frozen=True, slots=True)
class PrecheckResult:
    exact: bool
    reason: str  # why not exact ("" when exact)
    feasible: np.ndarray | None = None  # bool per node index
    invalid: np.ndarray | None = None  # bool per node index: an invalid pool on the node (search message differs)


def _cluster_reason(allocator: Allocator) -> str:
    for s in allocator.index.all:
        if s.per_device_node_selection or s.shared_counters:
            return f"ResourceSlice {s.name} selects nodes per device or shares counters"
        for d in s.devices:
            if d.consumes_counters or d.allow_multiple_allocations:
                return f"device {s.driver}/{s.pool}/{d.name} is partitionable or shareable"
    return ""


class Precheck:
    def __init__(self, allocator: Allocator, nodes: Sequence[NodeLike]) -> None:
        self.allocator = allocator
        self.n = len(nodes)
        self.cluster_reason = _cluster_reason(allocator)
        self.invalid = np.zeros(self.n, dtype=bool)
        node_of, devices, ids = [], [], []
        everywhere = bool(allocator.index.shared)  # network-attached slices: every node may reach devices
        for i, node in enumerate(nodes):
            if not everywhere and node.name not in allocator.index.on_node:
                continue
            for pool in allocator.index.pools(node):
                self.invalid[i] |= pool.invalid
                if not pool.usable:
                    continue
                for s in pool.slices:
                    for d in s.devices:
                        node_of.append(i)
                        devices.append(d)
                        ids.append((s.driver, s.pool, d.name))
        self.node_of = np.asarray(node_of, dtype=np.int64)
        self.devices: list[Device] = devices  # one row per (node, reachable device): shared devices repeat
        self.ids = ids
        self.rows: dict[tuple, list[int]] = {}
        for k, did in enumerate(ids):
            self.rows.setdefault(did, []).append(k)
        self.in_use = np.zeros(len(devices), dtype=bool)
        self._cursor = 0
        self._masks: dict[tuple, np.ndarray | str] = {}

    def _sync(self) -> None:
        ledger = self.allocator.ledger
        for did, _ in ledger.changes[self._cursor:]:
            self.in_use[self.rows.get(did, [])] = ledger.in_use(did)
        self._cursor = len(ledger.changes)

    def _mask(self, claim: ResourceClaim, spec: RequestSpec) -> np.ndarray | str:
        key = (spec.device_class_name, spec.selectors, spec.tolerations)
        hit = self._masks.get(key)
        if hit is None:
            hit = self._compute_mask(claim, spec)
            self._masks[key] = hit
        return hit

    def _compute_mask(self, claim: ResourceClaim, spec: RequestSpec) -> np.ndarray | str:
        a = self.allocator
        cls = a.classes.get(spec.device_class_name)
        if cls is None:
            return f"device class {spec.device_class_name} does not exist"
        out = np.zeros(len(self.devices), dtype=bool)
        for k, (device, did) in enumerate(zip(self.devices, self.ids)):
            try:  # selectors first and on every device: an error anywhere makes the answer inexact
                selected = (a.cel.matches(f"class {cls.name}", cls.selectors, did, device)
                            and a.cel.matches(f"claim {claim.key}", spec.selectors, did, device))
            except AllocationError:
                return "a selector fails on some device"
            if device.binding_conditions and not a.features.binding_conditions:
                continue
            out[k] = selected and not (a.features.device_taints and taint_blocks(device, spec.tolerations))
        return out

    def _claims_reason(self, claims: Sequence[ResourceClaim]) -> str:
        for claim in claims:
            if claim.spec.constraints:
                return f"claim {claim.key} has constraints"
            total = 0
            for request in claim.spec.requests:
                spec = request.exactly
                if spec is None or spec.allocation_mode != EXACT_COUNT or spec.capacity is not None or spec.admin_access:
                    return f"claim {claim.key}, request {request.name} is not a plain ExactCount request"
                total += spec.count
            if total > ALLOCATION_RESULTS_MAX:
                return f"claim {claim.key} asks for more than {ALLOCATION_RESULTS_MAX} devices"
        return ""

    def _groups(self, claims: Sequence[ResourceClaim]) -> list[tuple[np.ndarray, int]] | str:
        groups: dict[bytes, list] = {}
        for claim in claims:
            for request in claim.spec.requests:
                assert request.exactly is not None
                mask = self._mask(claim, request.exactly)
                if isinstance(mask, str):
                    return mask
                entry = groups.setdefault(mask.tobytes(), [mask, 0])
                entry[1] += request.exactly.count
        masks = list(groups.values())
        for i in range(len(masks)):
            for j in range(i + 1, len(masks)):
                if np.any(masks[i][0] & masks[j][0]):
                    return "requests with overlapping but different device sets"
        return [(m, c) for m, c in masks]

    def check(self, claims: Sequence[ResourceClaim]) -> PrecheckResult:
        reason = self.cluster_reason or self._claims_reason(claims)
        groups = reason or self._groups(claims)
        if isinstance(groups, str):
            return PrecheckResult(False, groups)
        self._sync()
        free = ~self.in_use
        feasible = np.ones(self.n, dtype=bool)
        for mask, count in groups:
            feasible &= np.bincount(self.node_of[mask & free], minlength=self.n) >= count
        return PrecheckResult(True, "", feasible, self.invalid & ~feasible)
