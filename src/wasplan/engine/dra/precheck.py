"""A vectorised per-node feasibility check for the common DRA shape, exact where it says so.

The search (`search.py`) runs per node; with 5,000 nodes and 10,000 pods that is too slow in Python. Most clusters
and claims are simple: no slice selects nodes per device or shares counters, no device consumes counters or allows
multiple allocations, and every request (or `firstAvailable` subrequest) is `ExactCount` without constraints,
capacity requests or admin access. Then a node can satisfy the claims exactly when, for each group of requests with
the same selectable devices, the devices it reaches (node-local, and network-attached ones whose slice selects it)
include at least as many free selectable ones as the group asks for, provided the groups' device sets are disjoint
(the search is exhaustive, so it finds an assignment whenever the counts allow one; overlapping sets would need a
matching argument this check does not make). Devices are rows per (node, reachable device), built from the same
per-node pools the search uses, so a network-attached device appears once for every node that reaches it.

For `firstAvailable` it tries the subrequest combinations in the search's order (`shapes.py`) and keeps, per node,
the first that fits: the subrequest indices the search would pick, and so Score's raw value, for every node at
once.

`Precheck.check(claims)` returns a `PrecheckResult` with `exact` (its answer equals the search's on every node),
`feasible` (bool per node index), `invalid` (nodes where the search would report invalid pools instead of "cannot
allocate"), `subrequests` and `score`. When `exact` is false the engine must run the search per node. Selectability
is the search's own (`SelectorCache`, class then request selectors, taints, binding conditions); a CEL runtime
error on any device makes the answer inexact, because the search meets the error only on nodes whose walk reaches
that device. Devices in use come from the ledger's change log and update the per-node free counts in place, so a check costs a
few vector comparisons over the nodes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from wasplan.cluster.devices import FIRST_AVAILABLE_MAX, Device, ResourceClaim, RequestSpec
from wasplan.engine.dra.allocator import Allocator
from wasplan.engine.dra.errors import AllocationError
from wasplan.engine.dra.pools import NodeLike
from wasplan.engine.dra.shapes import ClaimShape, claim_shape
from wasplan.engine.dra.taints import taint_blocks


@dataclass(frozen=True, slots=True)
class PrecheckResult:
    exact: bool
    reason: str  # why not exact ("" when exact)
    feasible: np.ndarray | None = None  # bool per node index
    invalid: np.ndarray | None = None  # bool per node index: an invalid pool on the node (search message differs)
    # per firstAvailable request: (claim index, request name, subrequest index per node, -1 where infeasible)
    subrequests: tuple[tuple[int, str, np.ndarray], ...] = ()
    score: np.ndarray | None = None  # DynamicResources Score before normalisation, per node (0 where infeasible)


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
        self._masks: dict[tuple, bytes | str] = {}
        self._by_key: dict[bytes, np.ndarray] = {}
        self._free: dict[bytes, np.ndarray] = {}

    def _sync(self) -> None:
        """Apply the ledger's new changes to the in-use rows and to every free-count vector already built."""
        ledger = self.allocator.ledger
        for did, _ in ledger.changes[self._cursor:]:
            now = ledger.in_use(did)
            for k in self.rows.get(did, ()):
                if self.in_use[k] == now:
                    continue
                self.in_use[k] = now
                for key, counts in self._free.items():
                    if self._by_key[key][k]:
                        counts[self.node_of[k]] += -1 if now else 1
        self._cursor = len(ledger.changes)

    def _free_counts(self, key: bytes) -> np.ndarray:
        """Free selectable rows per node for one mask, kept up to date by `_sync` once built."""
        counts = self._free.get(key)
        if counts is None:
            counts = np.bincount(self.node_of[self._by_key[key] & ~self.in_use], minlength=self.n)
            self._free[key] = counts
        return counts

    def _mask_key(self, claim: ResourceClaim, spec: RequestSpec) -> bytes | str:
        """The request's selectable rows as a hashable key (the mask itself is in `_by_key`), or why not exact."""
        key = (spec.device_class_name, spec.selectors, spec.tolerations)
        hit = self._masks.get(key)
        if hit is None:
            mask = self._compute_mask(claim, spec)
            hit = mask if isinstance(mask, str) else mask.tobytes()
            if not isinstance(mask, str):
                self._by_key[hit] = mask
            self._masks[key] = hit
        return hit

    def _compute_mask(self, claim: ResourceClaim, spec: RequestSpec) -> np.ndarray | str:
        a = self.allocator
        cls = a.classes.get(spec.device_class_name)
        if cls is None:
            return f"device class {spec.device_class_name} does not exist"
        out = np.zeros(len(self.devices), dtype=bool)
        verdicts: dict[int, bool] = {}  # per device record: shared records (Cluster kind) repeat on every node
        for k, (device, did) in enumerate(zip(self.devices, self.ids)):
            verdict = verdicts.get(id(device))
            if verdict is None:
                try:  # selectors first and on every device: an error anywhere makes the answer inexact
                    verdict = self._selectable(claim, cls, spec, device, did)
                except AllocationError:
                    return "a selector fails on some device"
                verdicts[id(device)] = verdict
            out[k] = verdict
        return out

    def _selectable(self, claim: ResourceClaim, cls, spec: RequestSpec, device: Device, did: tuple) -> bool:
        a = self.allocator
        selected = (a.cel.matches(f"class {cls.name}", cls.selectors, did, device)
                    and a.cel.matches(f"claim {claim.key}", spec.selectors, did, device))
        if device.binding_conditions and not a.features.binding_conditions:
            return False
        return selected and not (a.features.device_taints and taint_blocks(device, spec.tolerations))

    def _group_of(self, claims: Sequence[ResourceClaim], shape: ClaimShape) -> dict[int, bytes] | str:
        """Mask key per request (by `id` of its spec); masks must be pairwise equal or disjoint."""
        specs = [(ci, spec) for ci, spec in shape.fixed]
        specs += [(ci, sub) for ci, _, subs in shape.choices for sub in subs]
        keys: dict[int, bytes] = {}
        for ci, spec in specs:
            key = self._mask_key(claims[ci], spec)
            if isinstance(key, str):
                return key
            keys[id(spec)] = key
        distinct = [self._by_key[k] for k in dict.fromkeys(keys.values())]
        for i in range(len(distinct)):
            for j in range(i + 1, len(distinct)):
                if np.any(distinct[i] & distinct[j]):
                    return "requests with overlapping but different device sets"
        return keys

    def check(self, claims: Sequence[ResourceClaim]) -> PrecheckResult:
        shape = self.cluster_reason or claim_shape(claims)
        keys = shape if isinstance(shape, str) else self._group_of(claims, shape)
        if isinstance(keys, str):
            return PrecheckResult(False, keys)
        assert isinstance(shape, ClaimShape)
        self._sync()
        counts = {k: self._free_counts(k) for k in dict.fromkeys(keys.values())}
        chosen = np.full(self.n, -1, dtype=np.int64)
        for c, combination in enumerate(shape.combinations):
            need: dict[bytes, int] = {}
            for _, spec in shape.fixed:
                need[keys[id(spec)]] = need.get(keys[id(spec)], 0) + spec.count
            for (_, _, subs), j in zip(shape.choices, combination):
                need[keys[id(subs[j])]] = need.get(keys[id(subs[j])], 0) + subs[j].count
            fits = np.ones(self.n, dtype=bool)
            for k, amount in need.items():
                fits &= counts[k] >= amount
            chosen[fits & (chosen < 0)] = c
        return self._result(shape, chosen)

    def _result(self, shape: ClaimShape, chosen: np.ndarray) -> PrecheckResult:
        feasible = chosen >= 0
        table = np.asarray(shape.combinations, dtype=np.int64).reshape(len(shape.combinations), len(shape.choices))
        picked = table[np.where(feasible, chosen, 0)]
        subrequests = tuple((ci, name, np.where(feasible, picked[:, r], -1))
                            for r, (ci, name, _) in enumerate(shape.choices))
        score = np.where(feasible, (FIRST_AVAILABLE_MAX - picked).sum(axis=1), 0)
        return PrecheckResult(True, "", feasible, self.invalid & ~feasible, subrequests, score)
