"""The cluster as the scheduler's cache sees it, as numpy arrays, with an undo journal.

One row per node (sorted by name, so the first index of a tie is the node whose name sorts first), one column
per resource. `requested` holds the summed effective requests of the pods on each node (the `pods` column
counts pods), `non_zero` the same with upstream's defaults for cpu/memory (used by the resource scorers).
Every reserve/remove is journalled so trial placements (gang all-or-nothing, topology candidates, preemption)
roll back with `rollback(mark)` instead of copying the cluster (`shift` moves many pods' requests at once, as
one journal entry), and every touched row is appended to
`changes` so per-shape caches can refresh only the rows that moved. Stateful plugins (`stateful`) get their
Reserve with each reservation and their Unreserve when the journal rolls it back. `version` changes with every
change to the node arrays (reserve, remove, shift, rollback, a new node): a verdict memoised at one version
holds for as long as the version is the same (framework.py's "no node fits" memo).

`pods_on[row]` keeps the node's pods in the order of upstream's NodeInfo.Pods (pkg/scheduler/framework/types.go
AddPod appends; RemovePod, through removeFromSlice, moves the last pod into the removed one's slot), which
1.36's victim order reads (preemption/driver.py); a removal's journal entry keeps the slot, so a rollback puts
every pod back where it was, as upstream's dry runs on a clone of the NodeInfo leave the cache's order alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from wasplan.cluster.model import CPU, EPHEMERAL, MEMORY, PODS, Node, Pod
from wasplan.engine.pluginapi.labels import NodeLabels
from wasplan.engine.cache.podindex import PodIndex

MAX_SHAPES = 65536  # distinct (requests, non-zero requests) pairs whose vectors are shared (ClusterState.vectors)

DEFAULT_MAX_PODS = 110  # kubelet's default maxPods, used when a node record does not state `pods`
BASE_RESOURCES = (CPU, MEMORY, EPHEMERAL, PODS)
WAIVED = 2**62  # allocatable standing for "not checked here"


class StatefulPlugin(Protocol):
    """Reserve/Unreserve of a plugin that keeps state across pods (registry.py). `reserve` returns what
    `unreserve` needs to undo exactly that reservation (None when it changed nothing)."""

    def reserve(self, pod: Pod, node: int) -> object: ...

    def unreserve(self, pod: Pod, node: int, token: object) -> None: ...

    def pod_deleted(self, pod: Pod) -> None: ...


@dataclass(slots=True)
class Placed:
    pod: Pod
    node: int


class ClusterState:
    """Nodes, the pods bound or assumed on them, and the arrays derived from both."""

    def __init__(self, nodes: list[Node], resources: set[str], affects_others: Callable[[Pod], bool]):
        """`affects_others`: whether a placed pod's own fields can reject other pods (the plugin registry's
        `affects_others`); the placed pods for which it holds are kept in `affecting_pods`."""
        extended = sorted(r for r in resources if r not in BASE_RESOURCES)
        self.resources: tuple[str, ...] = BASE_RESOURCES + tuple(extended)
        self.col = {r: i for i, r in enumerate(self.resources)}
        self.placed: dict[str, Placed] = {}
        self._vectors: dict[str, tuple] = {}
        self._by_shape: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}  # (requests, non-zero) -> the vectors
        self.affects_others = affects_others
        self.affecting_pods: set[str] = set()  # placed pods whose own fields can reject others (anti-affinity)
        self.journal: list[tuple[str, Pod, int, tuple]] = []
        self.waived: frozenset[str] = frozenset()  # resources NodeResourcesFit leaves to DRA on nodes without them
        # Reserve/Unreserve of stateful plugins (registry.py), called with every reservation and its undo
        self.stateful: list[StatefulPlugin] = []
        self.plugins: dict[str, StatefulPlugin] = {}  # the same plugins by name, for their Filter adapters
        self.changes: list[int] = []
        self.epoch = 0
        self.version = 0  # bumped by every change to nodes, allocatable or requests (never reused)
        self.arrived: list[Node] = list(nodes)  # the nodes in input order (ImageLocality's image sizes)
        self._set_nodes(sorted(nodes, key=lambda n: n.name))

    # ---- nodes -------------------------------------------------------------------------------------------------
    def _set_nodes(self, nodes: list[Node]) -> None:
        self.nodes = nodes
        self.node_names: tuple[str, ...] = tuple(n.name for n in nodes)  # shared by every Diagnosis
        self.index = {n.name: i for i, n in enumerate(nodes)}
        self.labels = NodeLabels(nodes)
        n, r = len(nodes), len(self.resources)
        self.alloc = np.zeros((n, r), dtype=np.int64)
        for i, node in enumerate(nodes):
            for name, amount in node.allocatable.items():
                if name in self.col:
                    self.alloc[i, self.col[name]] = amount
            if PODS not in node.allocatable:
                self.alloc[i, self.col[PODS]] = DEFAULT_MAX_PODS
        self._apply_waivers()
        self.requested = np.zeros((n, r), dtype=np.int64)
        self.non_zero = np.zeros((n, r), dtype=np.int64)
        self.pods_on: list[dict[str, Pod]] = [{} for _ in nodes]
        self.pod_index = PodIndex(len(nodes))
        self.epoch += 1
        self.version += 1
        self.changes = []

    def waive(self, names) -> None:
        """Extended resources a DeviceClass backs (DRAExtendedResource): on a node that does not publish one,
        NodeResourcesFit does not check it (DynamicResources allocates devices instead), modelled as unbounded
        allocatable there. Nodes that publish it keep their own amount (the device plugin path)."""
        self.waived = frozenset(n for n in names if n in self.col)
        self._apply_waivers()

    def _apply_waivers(self) -> None:
        for name in self.waived:
            column = self.alloc[:, self.col[name]]
            column[column == 0] = WAIVED
        self.version += 1

    def add_node(self, node: Node) -> None:
        """Adding a node re-sorts the rows; all caches keyed by `epoch` start over."""
        keep = [(p.pod, self.nodes[p.node].name) for p in self.placed.values()]
        self.placed = {}
        self.arrived.append(node)
        self._set_nodes(sorted([*self.nodes, node], key=lambda n: n.name))
        for pod, name in keep:
            self._add(pod, self.index[name])
        self.changes = []

    # ---- pod vectors -------------------------------------------------------------------------------------------
    def vectors(self, pod: Pod) -> tuple[np.ndarray, np.ndarray]:
        """(effective requests with the pod slot, non-zero requests), cached per pod and resource layout."""
        found = self._vectors.get(pod.key)
        if found is None or found[0] is not pod or found[1] != len(self.resources):
            found = (pod, len(self.resources), *self._shape_vectors(pod))
            self._vectors[pod.key] = found
        return found[2], found[3]

    def _shape_vectors(self, pod: Pod) -> tuple[np.ndarray, np.ndarray]:
        """The vectors of every pod asking the same (a gang's members, a Deployment's replicas) are one read-only
        pair, built once: a 10,000-pod plan of 1,000 identical gangs builds one pair instead of 10,000."""
        shape = (tuple(pod.requests.items()), tuple(pod.non_zero_requests.items()))
        found = self._by_shape.get(shape)
        if found is None:
            req, nz = self.request_vector(pod), self.non_zero_vector(pod)
            req.flags.writeable = nz.flags.writeable = False  # shared: a caller adds them, never into them
            found = (req, nz)
            if len(self._by_shape) < MAX_SHAPES:
                self._by_shape[shape] = found
        return found

    def adopt_vectors(self, other: "ClusterState") -> None:
        """Reuse another state's per-pod vectors when both have the same resource layout: a re-run on mostly
        the same pod records (explain's verification) skips recomputing them. Entries are checked by pod
        identity on use, so records that differ are recomputed."""
        if other.resources == self.resources:
            self._vectors = dict(other._vectors)

    def request_vector(self, pod: Pod) -> np.ndarray:
        vec = np.zeros(len(self.resources), dtype=np.int64)
        for name, amount in pod.requests.items():
            if name in self.col and name != PODS:
                vec[self.col[name]] = amount
        vec[self.col[PODS]] = 1
        return vec

    def non_zero_vector(self, pod: Pod) -> np.ndarray:
        vec = self.request_vector(pod)
        for name in (CPU, MEMORY):
            vec[self.col[name]] = pod.non_zero_requests.get(name, pod.requests.get(name, 0))
        return vec

    # ---- reserve / remove with undo ----------------------------------------------------------------------------
    def _add(self, pod: Pod, node: int) -> None:
        req, nz = self.vectors(pod)
        self.requested[node] += req
        self.non_zero[node] += nz
        self.pods_on[node][pod.key] = pod
        self.placed[pod.key] = Placed(pod, node)
        self.pod_index.update(pod, node, 1)
        if self.affects_others(pod):
            self.affecting_pods.add(pod.key)
        self.changes.append(node)
        self.version += 1

    def _drop(self, pod: Pod) -> tuple[int, int]:
        """Take the pod off its node: (the row, the slot it had in the node's order)."""
        node = self.placed.pop(pod.key).node
        req, nz = self.vectors(pod)
        self.requested[node] -= req
        self.non_zero[node] -= nz
        slot = _swap_remove(self.pods_on[node], pod.key)
        self.pod_index.update(pod, node, -1)
        self.affecting_pods.discard(pod.key)
        self.changes.append(node)
        self.version += 1
        return node, slot

    def place_bound(self, pods: list[Pod], rows: list[int]) -> None:
        """Pods already running on `rows` (the snapshot's bound pods), added as committed: what reserve then
        commit does for each, with the request vectors summed per node and added in one operation. Callers
        use reserve() instead when stateful plugins are registered (they see every reservation)."""
        if not pods:
            return
        at = np.array(rows, dtype=np.int64)
        vectors = [self.vectors(p) for p in pods]
        np.add.at(self.requested, at, np.array([v[0] for v in vectors]))
        np.add.at(self.non_zero, at, np.array([v[1] for v in vectors]))
        placed, pods_on, index = self.placed, self.pods_on, self.pod_index
        for pod, node in zip(pods, rows):
            key = pod.key
            pods_on[node][key] = pod
            placed[key] = Placed(pod, node)
            index.update(pod, node, 1)
            if self.affects_others(pod):
                self.affecting_pods.add(key)
        self.changes.extend(rows)
        self.version += 1
        self.journal.clear()

    def reserve(self, pod: Pod, node: int) -> None:
        """Assume `pod` on row `node` (counted for every later decision), run the stateful plugins' Reserve and
        journal both."""
        self._add(pod, node)
        tokens = tuple(plugin.reserve(pod, node) for plugin in self.stateful) if self.stateful else ()
        self.journal.append(("reserve", pod, node, tokens))

    def register(self, name: str, plugin: StatefulPlugin) -> None:
        self.plugins[name] = plugin
        self.stateful.append(plugin)

    def deleted(self, pod: Pod) -> None:
        """A pod removed for good (an evicted victim, after the journal was committed): stateful plugins let go
        of what it held (DRA: the ResourceClaim controller's cleanup)."""
        for plugin in self.stateful:
            plugin.pod_deleted(pod)

    def remove(self, pod: Pod) -> None:
        """Take a placed pod off its node (a preemption victim, a deleted pod) and journal it. Stateful plugins
        are not told: what a removed pod holds (DRA devices) is released by its controller after a real
        eviction, never inside a dry run (dra.md §7)."""
        node, slot = self._drop(pod)
        self.journal.append(("remove", pod, node, slot))

    def shift(self, pods: list[Pod], sign: int) -> None:
        """Take `pods` off their nodes (sign -1) or put them back (+1) in the resource arrays only: their request
        vectors summed per node, then one vector subtraction (or addition) for all nodes, journalled as one
        entry. `placed`, `pods_on` and the pod index keep them, so this serves trials that only resources decide:
        group preemption's "remove every lower-priority pod" (workload.py) when no dynamic plugin runs."""
        if not pods:
            return
        rows = np.fromiter((self.placed[p.key].node for p in pods), dtype=np.int64, count=len(pods))
        touched, at = np.unique(rows, return_inverse=True)
        vectors = [self.vectors(p) for p in pods]
        req = np.zeros((len(touched), len(self.resources)), dtype=np.int64)
        nz = np.zeros_like(req)
        np.add.at(req, at, np.array([v[0] for v in vectors]))
        np.add.at(nz, at, np.array([v[1] for v in vectors]))
        req, nz = sign * req, sign * nz
        self._apply_shift(touched, req, nz)
        self.journal.append(("shift", None, -1, (touched, req, nz)))

    def _apply_shift(self, touched: np.ndarray, req: np.ndarray, nz: np.ndarray) -> None:
        self.requested[touched] += req
        self.non_zero[touched] += nz
        self.changes.extend(touched.tolist())
        self.version += 1

    # ---- matching-pod counts (PodTopologySpread, InterPodAffinity) ---------------------------------------------
    def matching_counts(self, scope, selector, skip_terminating: bool = False) -> np.ndarray:
        """Per node, placed pods in namespaces `scope` (None = all) matching `selector`; see podindex.py."""
        return self.pod_index.counts(self.placed, scope, selector, skip_terminating)

    def mark(self) -> int:
        return len(self.journal)

    def rollback(self, mark: int) -> None:
        """Undo every reserve/remove after `mark`, newest first."""
        while len(self.journal) > mark:
            action, pod, node, tokens = self.journal.pop()
            if action == "shift":
                touched, req, nz = tokens
                self._apply_shift(touched, -req, -nz)
            elif action == "reserve":
                for plugin, token in zip(reversed(self.stateful), reversed(tokens)):
                    plugin.unreserve(pod, node, token)
                self._drop(pod)
            else:
                self._add(pod, node)
                _unswap(self.pods_on[node], pod.key, tokens)

    def commit(self) -> None:
        """Forget the journal: what is placed now stays placed."""
        self.journal.clear()

    def node_of(self, pod_key: str) -> str | None:
        placed = self.placed.get(pod_key)
        return self.nodes[placed.node].name if placed else None


def _swap_remove(pods: dict[str, Pod], key: str) -> int:
    """Remove `key` as removeFromSlice does (the last pod takes its slot); return the slot it had."""
    last = next(reversed(pods))
    if last == key:
        del pods[key]
        return len(pods)
    items = list(pods.items())
    slot = next(i for i, (k, _) in enumerate(items) if k == key)
    items[slot] = items.pop()
    pods.clear()
    pods.update(items)
    return slot


def _unswap(pods: dict[str, Pod], key: str, slot: int) -> None:
    """Undo _swap_remove: `key`, appended again, goes back to `slot` and the pod there back to the end."""
    if slot >= len(pods) - 1:
        return
    items = list(pods.items())
    mine = items.pop()
    items.append(items[slot])
    items[slot] = mine
    pods.clear()
    pods.update(items)

