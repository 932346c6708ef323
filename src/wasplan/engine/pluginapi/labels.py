"""Node label lookups shared by the topology-aware plugins: per-key value arrays, built once per node set."""

from __future__ import annotations

import numpy as np


class NodeLabels:
    def __init__(self, nodes) -> None:
        self._nodes = nodes
        self._values: dict[str, np.ndarray] = {}
        self._has: dict[str, np.ndarray] = {}
        self._codes: dict[str, tuple[np.ndarray, list[str]]] = {}

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

    def codes(self, key: str) -> tuple[np.ndarray, list[str]]:
        """Each node's domain index for `key` (-1 where the label is missing) and the domain values."""
        found = self._codes.get(key)
        if found is None:
            domains: dict[str, int] = {}
            codes = np.array([domains.setdefault(n.labels[key], len(domains)) if key in n.labels else -1
                              for n in self._nodes], dtype=np.int64)
            found = (codes, list(domains))
            self._codes[key] = found
        return found
