"""Node label lookups shared by the topology-aware plugins: per-key value arrays, built once per node set."""

from __future__ import annotations

import numpy as np


class NodeLabels:
    def __init__(self, nodes) -> None:
        self._nodes = nodes
        self._values: dict[str, np.ndarray] = {}
        self._has: dict[str, np.ndarray] = {}

    def values(self, key: str) -> np.ndarray:
        """Object array of each node's value for `key` (None where the node lacks the label)."""
        found = self._values.get(key)
        if found is None:
            found = np.array([n.labels.get(key) for n in self._nodes], dtype=object)
            self._values[key] = found
        return found

    def has(self, key: str) -> np.ndarray:
        found = self._has.get(key)
        if found is None:
            found = np.array([key in n.labels for n in self._nodes], dtype=bool)
            self._has[key] = found
        return found
