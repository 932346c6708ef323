"""ImageLocality score (upstream pkg/scheduler/framework/plugins/imagelocality/image_locality.go, v1.36.5 and
v1.37.2), with the image summaries the scheduler's cache keeps per node (pkg/scheduler/backend/cache/cache.go
addNodeImageStates, kube-scheduler framework/types.go ImageStateSummary.Snapshot).

The node side. The cache files every name of every `status.images[]` entry of every node under that name: the
size is the one of the node the cache added first with that name (later nodes listing the name with another size
do not change it), and `NumNodes` is the number of distinct nodes listing the name. Names are taken as the kubelet
wrote them: nothing is normalised on the node side. The cache adds nodes as they are created, which is input order
(`ClusterState.arrived`; the oracle creates them so, and a `kubectl get nodes` snapshot lists them in the name
order an informer sees them in), so the first node in input order gives the size.

The pod side. Each init container's and container's image, and (Score only) each image volume's reference, is
normalised by appending `:latest` when no `:` follows the last `/`; nothing else is normalised (upstream's
normalizedImageName does not strip or add a `docker.io/library/` prefix, so `nginx:1.27` on a pod does not match
`docker.io/library/nginx:1.27` on a node). For every such reference found on the node, its size times `NumNodes / all nodes` (float64, then
truncated) is added, once per container that names it. The sum is clamped to [23 MiB, 1000 MiB x count] and
scaled to 0..100 with integer division; `count` is the number of init containers and containers, plus the image
volumes from 1.37.2 on (`Capabilities.image_volumes_count`; 1.36.5 adds their sizes but not their count).
"All nodes" is the snapshot's whole node list, also inside a topology placement (Snapshot.List is not
restricted by AssumePlacement in either release). The plugin has no ScoreExtensions: the score is not normalised.

The score reads only the pod's images and the node objects, so it is a static plugin (static.py): computed once
per pod shape, its part of the shape key (and so of gang batching's signature, as upstream's SignPod signs the
normalised container images) is the pod's image references. The per-name summaries are built once per node set
(the state's `epoch`), only when a pod with images is scored and only if some node lists images: a cluster
without image data pays one look at each node's empty tuple per node set.
"""

from __future__ import annotations

import weakref

import numpy as np

NAME = "ImageLocality"
MAX_SCORE = 100
_MB = 1024 * 1024
MIN_THRESHOLD = 23 * _MB
MAX_CONTAINER_THRESHOLD = 1000 * _MB


def normalized(name: str) -> str:
    """The reference as the plugin looks it up: `:latest` appended when no tag follows the last `/`."""
    return name if name.rfind(":") > name.rfind("/") else name + ":latest"


class ImageTable:
    """Every image name on the nodes of one node set: the size the cache keeps for it and the rows listing it."""

    __slots__ = ("epoch", "total", "_found", "_rows")

    def __init__(self, state):
        self.epoch, self.total = state.epoch, len(state.nodes)
        self._found: dict[str, tuple[int, list[int]]] = {}
        self._rows: dict[str, tuple[int, np.ndarray]] = {}
        for node in state.arrived:
            if not node.images:
                continue
            row = state.index[node.name]
            for image in node.images:
                for name in image.names:
                    entry = self._found.get(name)
                    if entry is None:
                        self._found[name] = (image.size, [row])
                    elif entry[1][-1] != row:  # a node listing one name twice counts once
                        entry[1].append(row)

    @property
    def empty(self) -> bool:
        return not self._found

    def lookup(self, name: str) -> tuple[int, np.ndarray] | None:
        """(scaled score, rows of the nodes having it) of an image name, or None when no node has it."""
        hit = self._rows.get(name)
        if hit is None:
            entry = self._found.get(name)
            if entry is None:
                return None
            size, rows = entry
            hit = (int(float(size) * (len(rows) / self.total)), np.asarray(rows, dtype=np.int64))
            self._rows[name] = hit
        return hit


_TABLES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # ClusterState -> ImageTable


def table(state) -> ImageTable:
    """The image table of the state's current node set (rebuilt when the nodes change)."""
    found = _TABLES.get(state)
    if found is None or found.epoch != state.epoch:
        found = ImageTable(state)
        _TABLES[state] = found
    return found


def priority(sums: np.ndarray, count: int) -> np.ndarray:
    """calculatePriority per node: the clamped sum scaled to 0..100, with Go's integer division (toward zero)."""
    top = MAX_CONTAINER_THRESHOLD * count
    clamped = np.where(sums < MIN_THRESHOLD, MIN_THRESHOLD, np.where(sums > top, top, sums))
    num, den = MAX_SCORE * (clamped - MIN_THRESHOLD), top - MIN_THRESHOLD
    return np.sign(num) * np.sign(den) * (np.abs(num) // abs(den))


def scores(state, pod, volumes_count: bool) -> np.ndarray | None:
    """The ImageLocality score of `pod` on every node, or None where it is 0 on every node."""
    refs = pod.images
    if not (refs.containers or refs.volumes):
        return None
    images = table(state)
    if images.empty:
        return None
    sums = None
    for ref in (*refs.containers, *refs.volumes):
        hit = images.lookup(normalized(ref))
        if hit is not None:
            if sums is None:
                sums = np.zeros(images.total, dtype=np.int64)
            sums[hit[1]] += hit[0]
    if sums is None:
        return None
    count = len(refs.containers) + (len(refs.volumes) if volumes_count else 0)
    got = priority(sums, count)
    return got if got.any() else None


def evaluate_static(nodes, pod, out) -> None:
    """The static verdict's score part (static.py): the score per node, and whether it ranks nodes at all."""
    got = scores(nodes.state, pod, nodes.caps.image_volumes_count)
    if got is not None:
        out.add_score(NAME, got, ranks=bool(got.min() != got.max()))


def normalise(raw: np.ndarray | None, feasible: np.ndarray) -> np.ndarray | int:
    """No ScoreExtensions: the score is the raw one (0 on every node when the pod names no image found)."""
    return 0 if raw is None else raw
