"""Which resource pools a node can use: slices indexed by node once, pools gathered per node and cached.

Follows `structured/internal/incubating/pools_incubating.go` and `NewAllocator` (k8s.io/dynamic-resource-allocation
v0.36.0, commit c44687d1):

* candidate slices for node N: those with `nodeName == N`, plus every slice without a node name or (1.36) with
  `sharedCounters` (upstream's `slicesShared`);
* a candidate is relevant if its `nodeName` is N, it has `allNodes`, its node selector matches N, or (per-device
  node selection) any device's selection matches N; 1.36 takes slices with `sharedCounters` as relevant always,
  1.37 (`counters_follow_node_selection`) by the same rule and gathers the pool's counter sets from all its slices;
* a pool is (driver, pool name); only slices of the highest generation seen are kept; a pool is complete if the
  slice count equals `resourceSliceCount`, otherwise all slices in the cluster are checked: a newer generation
  anywhere makes the pool obsolete (ignored), a matching count completes it, else it is incomplete;
* a complete pool is invalid with a duplicate device name, a duplicate counter-set name, or a device consuming a
  counter set or counter the pool does not have;
* pools are sorted by (driver, pool name), pools whose devices have binding conditions last; a pool's slices by
  name. Without DRAPartitionableDevices, slices with per-device node selection or shared counters are skipped.

Node matching uses only the node's name and labels (`wasplan.engine.pluginapi.selectors.terms_match_node`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from wasplan.cluster.devices import NodeSelection, ResourceSlice
from wasplan.engine.dra.features import Features
from wasplan.engine.pluginapi.selectors import terms_match_node


class NodeLike(Protocol):
    name: str
    labels: dict[str, str]


def node_matches(node: NodeLike, selection: NodeSelection) -> bool:
    """`NodeMatches`: the node name, every node, or the selector's terms (ORed); nothing set matches nothing."""
    if selection.node_name is not None:
        return node.name == selection.node_name
    if selection.all_nodes:
        return True
    if selection.node_selector is not None:
        return terms_match_node(selection.node_selector, node.labels, node.name)
    return False


@dataclass(slots=True, eq=False)
class Pool:
    driver: str
    name: str
    incomplete: bool = False
    invalid: bool = False
    invalid_reason: str = ""
    slices: list[ResourceSlice] = field(default_factory=list)  # device slices targeting the node, by name
    other_slices: list[ResourceSlice] = field(default_factory=list)  # device slices of the pool elsewhere
    counter_sets: dict[str, dict[str, Fraction]] = field(default_factory=dict)

    @property
    def pool_id(self) -> str:
        return f"{self.driver}/{self.name}"

    @property
    def usable(self) -> bool:
        return not (self.incomplete or self.invalid)


def _relevant(slice_: ResourceSlice, node: NodeLike, features: Features) -> bool:
    if slice_.shared_counters and not features.counters_follow_node_selection:
        return True
    if slice_.node.is_set:
        return node_matches(node, slice_.node)
    if slice_.per_device_node_selection:
        return any(node_matches(node, d.node) for d in slice_.devices)
    return False


def _duplicate_devices(slices: list[ResourceSlice]) -> str | None:
    seen: set[str] = set()
    for s in slices:
        for d in s.devices:
            if d.name in seen:
                return f"duplicate device name {d.name}"
            seen.add(d.name)
    return None


def _counter_sets(slices: list[ResourceSlice]) -> tuple[dict[str, dict[str, Fraction]], str | None]:
    sets: dict[str, dict[str, Fraction]] = {}
    for s in slices:
        for cs in s.shared_counters:
            if cs.name in sets:
                return sets, f"duplicate counter set name {cs.name}"
            sets[cs.name] = dict(cs.counters)
    return sets, None


def _consumption_error(sets: dict[str, dict[str, Fraction]], slices: list[ResourceSlice]) -> str | None:
    for s in slices:
        for d in s.devices:
            for use in d.consumes_counters:
                if use.name not in sets:
                    return f"counter set {use.name} not found"
                for counter, _ in use.counters:
                    if counter not in sets[use.name]:
                        return f"counter {counter} not found in counter set {use.name}"
    return None


def _build(driver: str, name: str, slices: list[ResourceSlice], features: Features,
           all_for_pool: list[ResourceSlice] | None) -> Pool:
    slices = sorted(slices, key=lambda s: s.name)
    if not features.partitionable_devices:
        error = _duplicate_devices(slices)
        return Pool(driver, name, invalid=error is not None, invalid_reason=error or "", slices=slices)
    targeting = {id(s) for s in slices}
    elsewhere = [s for s in (all_for_pool or []) if id(s) not in targeting]
    device_slices = [s for s in slices if not s.shared_counters]
    counter_slices = [s for s in slices if s.shared_counters]
    if features.counters_follow_node_selection:  # 1.37: counter sets may live in slices targeting other nodes
        counter_slices += [s for s in elsewhere if s.shared_counters]
    others = [s for s in elsewhere if not s.shared_counters]
    sets, set_error = _counter_sets(counter_slices)
    consumers = device_slices if features.counters_follow_node_selection else slices
    error = (_duplicate_devices(device_slices) or set_error or _consumption_error(sets, consumers)
             or _consumption_error(sets, others))
    if error:
        return Pool(driver, name, invalid=True, invalid_reason=error)
    return Pool(driver, name, slices=device_slices, other_slices=others, counter_sets=sets)


def _has_binding_conditions(pool: Pool) -> bool:
    return any(d.binding_conditions for s in pool.slices for d in s.devices)


class SliceIndex:
    """All slices of the cluster, indexed by node once; `pools(node)` gathers and caches a node's pools."""

    def __init__(self, slices: list[ResourceSlice], features: Features) -> None:
        self.features = features
        self.all = list(slices)
        self.on_node: dict[str, list[ResourceSlice]] = {}
        self.shared: list[ResourceSlice] = []
        self.by_pool: dict[tuple[str, str], list[ResourceSlice]] = {}
        for s in self.all:
            if s.node.node_name is None or (s.shared_counters and not features.counters_follow_node_selection):
                self.shared.append(s)
            else:
                self.on_node.setdefault(s.node.node_name, []).append(s)
            self.by_pool.setdefault((s.driver, s.pool), []).append(s)
        self._cache: dict[str, list[Pool]] = {}

    def pools(self, node: NodeLike) -> list[Pool]:
        hit = self._cache.get(node.name)
        if hit is None:
            hit = self._gather(node)
            self._cache[node.name] = hit
        return hit

    def _gather(self, node: NodeLike) -> list[Pool]:
        grouped: dict[tuple[str, str], list[ResourceSlice]] = {}
        for s in self.on_node.get(node.name, []) + self.shared:
            if not self.features.partitionable_devices and (s.per_device_node_selection or s.shared_counters):
                continue
            if not _relevant(s, node, self.features):
                continue
            current = grouped.get((s.driver, s.pool))
            if current is None or s.generation > current[0].generation:
                grouped[(s.driver, s.pool)] = [s]
            elif s.generation == current[0].generation:
                current.append(s)
        pools = [self._pool(key, slices) for key, slices in grouped.items()]
        pools = [p for p in pools if p is not None]
        pools.sort(key=lambda p: (_has_binding_conditions(p), p.driver, p.name))
        return pools

    def _pool(self, key: tuple[str, str], slices: list[ResourceSlice]) -> Pool | None:
        generation, wanted = slices[0].generation, slices[0].slice_count
        if len(slices) == wanted:
            return _build(key[0], key[1], slices, self.features, None)
        everywhere = self.by_pool[key]
        if any(s.generation > generation for s in everywhere):
            return None  # obsolete: a newer generation is being published
        same = [s for s in everywhere if s.generation == generation]
        if len(same) != wanted:
            return Pool(key[0], key[1], incomplete=True)
        return _build(key[0], key[1], slices, self.features, same)
