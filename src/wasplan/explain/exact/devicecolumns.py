"""The DRA columns of the exact check's program (devices.py explains the dimension): per selectable device set
the free devices per node and the devices each pod's own claims ask for, per shared counter what the node's
pools have left and the least each device takes, and per pod shape its firstAvailable variants.

Every number comes from the DynamicResources engine's own tables: the per-node pre-check
(`engine/dra/precheck.py`: selectable rows per request through the CEL selector cache, free rows from the
in-use ledger) and the allocator's counter arithmetic (`engine/dra/take.py` `available_counters`). Nothing is
matched or counted a second time. What a column cannot say is recorded in `relaxed`, by name.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from dataclasses import dataclass
from itertools import product
from types import SimpleNamespace

import numpy as np

from wasplan.cluster.devices import EXACT_COUNT
from wasplan.engine.facade import Precheck, available_counters
from wasplan.explain.exact.shapes import Shape

MAX_VARIANTS = 16  # subrequest combinations per pod shape before firstAvailable is left to the replay
SHARED = "the devices of a claim several of the group's pods share"
ALL_MODE = "allocationMode: All"
CONSTRAINTS = "matchAttribute/distinctAttribute constraints"
CAPACITY = "consumable capacity requests"
NETWORK = "which nodes share a network-attached device"
OVERLAP = "requests whose device sets overlap"
EXTENDED = "extended resources backed by DRA"
VARIANTS = f"more than {MAX_VARIANTS} combinations of firstAvailable subrequests"
PER_DEVICE = "per-device node selection"


@dataclass(frozen=True)
class Columns:
    names: tuple[str, ...]
    kinds: tuple[str, ...]  # devices | counter
    free: np.ndarray  # nodes x columns
    demand: np.ndarray  # shapes x columns (after the firstAvailable expansion)
    relaxed: tuple[str, ...]  # what the columns leave to the replay, sorted
    together: tuple[tuple[int, ...], ...] = ()  # shapes whose pods share a node-local claim: one node for all
    totals: tuple[tuple[int, int], ...] = ()  # (column, free devices in the cluster) where nodes share devices


class _Table(Precheck):
    """The engine's pre-check read as a table: per request its selectable (node, device) rows, and per node the
    free ones (the pre-check keeps both for its own answer; nothing is recomputed here)."""

    def selectable(self, claim, spec) -> bytes | str:
        return self._mask_key(claim, spec)

    def free(self, key: bytes) -> np.ndarray:
        self._sync()
        return self._free_counts(key).copy()

    def selected(self, key: bytes) -> np.ndarray:
        return self._by_key[key]


def own_claims(plugin, pod, sharing: dict[str, int]) -> list[tuple[int, object]]:
    """(position among the pod's claims, claim) of the claims allocated for it alone (not allocated yet, used by
    no other pod of the group)."""
    return [(i, s.claim) for i, s in enumerate(plugin.claims_of(pod))
            if s.claim.allocation is None and sharing.get(s.claim.key, 0) <= 1]


def choices(claims: list[tuple[int, object]]) -> list[tuple[int, int, tuple]]:
    """(claim position, request index, subrequests) of every firstAvailable request of `claims`."""
    return [(ci, ri, r.first_available) for ci, c in claims
            for ri, r in enumerate(c.spec.requests) if r.first_available]


class Builder:
    """Columns for the split shapes: per shape the variants and each variant's demand per column."""

    def __init__(self, ev, plugin, sharing: dict[str, int]) -> None:
        self.ev, self.plugin, self.sharing = ev, plugin, sharing
        self.allocator = plugin.store.allocator
        self.table = _Table(self.allocator, ev.state.nodes)
        self.relaxed: set[str] = set(_cluster_relaxations(self.allocator))
        self.network = {(s.driver, s.pool, d.name) for s in self.allocator.index.shared for d in s.devices}
        self.columns: dict[tuple, int] = {}  # ("devices", mask key) | ("counter", driver, set, counter) -> index
        self.names: list[str] = []

    def build(self, shapes: list[Shape]) -> tuple[list[Shape], Columns]:
        out, demands = [], []
        for family, s in enumerate(shapes):
            for variant, need in self._variants(s.pod):
                out.append(dataclasses.replace(s, variant=variant, family=family))
                demands.append(need)
        masks = [k for k in self.columns if k[0] == "devices"]
        if any(np.any(self.table.selected(a[1]) & self.table.selected(b[1])) for i, a in enumerate(masks)
               for b in masks[i + 1:]):
            self.relaxed.add(OVERLAP)
        free, kinds = self._free()
        demand = np.zeros((len(out), len(self.names)), dtype=np.int64)
        for i, need in enumerate(demands):
            for col, amount in need.items():
                demand[i, col] = amount
        keep = demand.any(axis=0)
        names = tuple(n for n, k in zip(self.names, keep) if k)
        index = np.cumsum(keep) - 1
        totals = tuple((int(index[i]), total) for i, total in self._totals() if keep[i])
        return out, Columns(names, tuple(k for k, kk in zip(kinds, keep) if kk), free[:, keep], demand[:, keep],
                            tuple(sorted(self.relaxed)), self._together(out), totals)

    def _totals(self) -> list[tuple[int, int]]:
        """(column, free devices in the whole cluster) for device sets with network-attached devices: each node
        counts the devices it reaches, so a device several nodes reach would count once per node; the whole
        group cannot take more than the cluster's free devices of the set, each once."""
        out = []
        for key, i in self.columns.items():
            if key[0] != "devices":
                continue
            free = self.table.selected(key[1]) & ~self.table.in_use
            rows = np.flatnonzero(free).tolist()
            network = {self.table.ids[k] for k in rows if self.table.ids[k] in self.network}
            if network:
                out.append((i, len(network) + sum(1 for k in rows if self.table.ids[k] not in self.network)))
        return out

    def _together(self, shapes: list[Shape]) -> tuple[tuple[int, ...], ...]:
        """Per claim the group's pods share whose selectable devices are all node-local: the shapes of those
        pods. The first pod's allocation pins the claim to its node (`nodeSelector` metadata.name), so they
        all run on one node."""
        out: dict[str, set[int]] = {}
        for i, s in enumerate(shapes):
            for state in self.plugin.claims_of(s.pod):
                claim = state.claim
                if claim.allocation is None and self.sharing.get(claim.key, 0) > 1 and self._node_local(claim):
                    out.setdefault(claim.key, set()).add(i)
        return tuple(tuple(sorted(v)) for _, v in sorted(out.items()))

    def _node_local(self, claim) -> bool:
        network = {k for k, did in enumerate(self.table.ids) if did in self.network}
        for request in claim.spec.requests:
            for spec in (request.exactly,) if request.exactly is not None else request.first_available:
                key = self.table.selectable(claim, spec)
                if isinstance(key, str) or any(k in network for k in np.flatnonzero(self.table.selected(key))):
                    return False
        return True

    def _variants(self, pod) -> list[tuple[tuple, dict[int, int]]]:
        """(variant, demand per column) for each combination of the pod's own firstAvailable subrequests; the
        variant is ((claim index, request index, subrequest index), ...), () without such requests."""
        if any(s.claim.key in self.sharing and self.sharing[s.claim.key] > 1 for s in self.plugin.claims_of(pod)):
            self.relaxed.add(SHARED)
        if self.plugin.extended.get(pod.key):
            self.relaxed.add(EXTENDED)
        claims = own_claims(self.plugin, pod, self.sharing)
        if any(c.spec.constraints for _, c in claims):
            self.relaxed.add(CONSTRAINTS)
        picks = choices(claims)
        combos = list(product(*(range(len(subs)) for _, _, subs in picks)))
        if len(combos) > MAX_VARIANTS:
            self.relaxed.add(VARIANTS)
            return [((), self._demand(claims, {}))]
        out = []
        for combo in combos:
            chosen = {(ci, ri): j for (ci, ri, _), j in zip(picks, combo)}
            variant = tuple((ci, ri, j) for (ci, ri), j in chosen.items())
            out.append((variant, self._demand(claims, chosen)))
        return out

    def _demand(self, claims: list, chosen: dict[tuple[int, int], int]) -> dict[int, int]:
        need: dict[int, int] = {}
        for ci, claim in claims:
            for ri, request in enumerate(claim.spec.requests):
                if request.exactly is not None:
                    spec = request.exactly
                elif (ci, ri) in chosen:
                    spec = request.first_available[chosen[(ci, ri)]]
                else:
                    continue  # too many combinations: left to the replay
                for col, amount in self._spec_demand(claim, spec).items():
                    need[col] = need.get(col, 0) + amount
        return need

    def _spec_demand(self, claim, spec) -> dict[int, int]:
        if spec.allocation_mode != EXACT_COUNT:
            self.relaxed.add(ALL_MODE)
            return {}
        if spec.capacity is not None:
            self.relaxed.add(CAPACITY)
            return {}
        if spec.admin_access:
            return {}  # admin access takes devices in use too, and blocks none
        key = self.table.selectable(claim, spec)
        if isinstance(key, str):
            return {}  # a missing class or a failing selector: the allowed nodes already say so
        out = {self._column(("devices", key), _device_name(spec)): spec.count}
        for counter, least in self._least_counters(key).items():
            if least:
                out[self._column(("counter",) + counter, f"{counter[0]} counter {counter[1]}/{counter[2]}")] = \
                    spec.count * least
        return out

    def _column(self, key: tuple, name: str) -> int:
        if key not in self.columns:
            self.columns[key] = len(self.names)
            self.names.append(name)
        return self.columns[key]

    def _least_counters(self, key: bytes) -> dict[tuple[str, str, str], int]:
        """Per counter, the least any selectable device consumes (0 when one consumes none): a lower bound on
        what each device of the request takes from it."""
        per_device: list[dict[tuple[str, str, str], Fraction]] = []
        for k in np.flatnonzero(self.table.selected(key)).tolist():
            uses: dict[tuple[str, str, str], Fraction] = {}
            for use in self.table.devices[k].consumes_counters:
                for counter, amount in use.counters:
                    name = (self.table.ids[k][0], use.name, counter)
                    uses[name] = uses.get(name, Fraction(0)) + amount
            per_device.append(uses)
        names = sorted({name for uses in per_device for name in uses})
        return {name: math.floor(min(uses.get(name, Fraction(0)) for uses in per_device)) for name in names}

    def _free(self) -> tuple[np.ndarray, list[str]]:
        n = len(self.ev.state.nodes)
        free = np.zeros((n, len(self.names)), dtype=np.int64)
        kinds = [""] * len(self.names)
        counters = [(k, i) for k, i in self.columns.items() if k[0] == "counter"]
        for key, i in self.columns.items():
            kinds[i] = key[0]
            if key[0] == "devices":
                free[:, i] = self.table.free(key[1])
        if counters:
            for row, node in enumerate(self.ev.state.nodes):
                left = self._node_counters(node)
                for key, i in counters:
                    free[row, i] = left.get(key[1:], 0)
        return free, kinds

    def _node_counters(self, node) -> dict[tuple[str, str, str], int]:
        """What the node's pools' shared counters still have (the allocator's own `available_counters`, summed
        over the node's pools of one driver: a relaxation when a node reaches several)."""
        search = SimpleNamespace(owner=self.allocator, features=self.allocator.features)
        out: dict[tuple[str, str, str], int] = {}
        for pool in self.allocator.index.pools(node):
            if not pool.usable or not pool.counter_sets:
                continue
            for name, counters in available_counters(search, SimpleNamespace(pool=pool)).items():
                for counter, value in counters.items():
                    key = (pool.driver, name, counter)
                    out[key] = out.get(key, 0) + math.ceil(value)
        return out


def _device_name(spec) -> str:
    if not spec.selectors:
        return f"{spec.device_class_name} devices"
    return f"{spec.device_class_name} devices with {' && '.join(spec.selectors)}"


def _cluster_relaxations(allocator) -> list[str]:
    out = []
    if any(s.devices and not s.node.node_name for s in allocator.index.all):
        out.append(NETWORK)
    if any(s.per_device_node_selection for s in allocator.index.all):
        out.append(PER_DEVICE)
    return out
