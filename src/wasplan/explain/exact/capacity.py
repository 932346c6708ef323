"""The capacity dimensions of the program: per node what is free, per pod shape what one pod takes.

The columns NodeResourcesFit compares (engine/plugins/resources_fit.py `checked_columns`: every requested
resource plus the pod slot), read from the cluster state's arrays (allocatable - requested), and, for a group
whose pods claim devices, the DRA columns (devices.py): one per set of selectable devices (free ones on each
node; devices each pod's own claims ask for) and one per shared counter of partitionable devices. That step may
split a shape by its claims and into one variant per choice of `firstAvailable` subrequests, so the shapes the
program works on are `Capacity.shapes`. Everything downstream (classes, patterns, solver, bounds) works on
columns.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from wasplan.explain.exact import devices
from wasplan.explain.exact.shapes import Shape, checked_columns


@dataclass(frozen=True)
class Capacity:
    free: np.ndarray  # nodes x columns (may be negative on an overcommitted node)
    requests: np.ndarray  # shapes x columns
    names: tuple[str, ...]  # the column names, for bounds a person reads
    shapes: list[Shape]  # the shapes the columns are for (split by their claims, firstAvailable variants)
    kinds: tuple[str, ...] = ()  # per column: resource | devices | counter
    relaxed: tuple[str, ...] = ()  # DRA features the columns leave to the replay (devices.py)
    together: tuple[tuple[int, ...], ...] = ()  # shapes whose pods must share one node (devices.py)
    totals: tuple[tuple[int, int], ...] = ()  # (column, most the whole group may take) where nodes share devices


def of(ev, shapes: list[Shape]) -> Capacity:
    """The columns for `shapes`; each returned shape has `origin` set (its index in `shapes`)."""
    state = ev.state
    shapes = [s if s.origin >= 0 else dataclasses.replace(s, origin=i) for i, s in enumerate(shapes)]
    shapes, dra = devices.expand(ev, shapes)
    cols = checked_columns(state, shapes, ev.profile)
    free = (state.alloc - state.requested)[:, cols]
    requests = np.array([s.req[cols] for s in shapes], dtype=np.int64).reshape(len(shapes), len(cols))
    names = tuple(state.resources[c] for c in cols)
    kinds = ("resource",) * len(cols)
    if dra is None:
        return Capacity(free, requests, names, shapes, kinds)
    return Capacity(np.hstack([free, dra.free]), np.hstack([requests, dra.demand]), names + dra.names, shapes,
                    kinds + dra.kinds, dra.relaxed, dra.together,
                    tuple((len(cols) + c, total) for c, total in dra.totals))
