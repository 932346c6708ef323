"""The capacity dimensions of the program: per node what is free, per pod shape what one pod takes.

Today these are the columns NodeResourcesFit compares (engine/plugins/resources_fit.py `checked_columns`: every
requested resource plus the pod slot), read from the cluster state's arrays (allocatable - requested). This is
the one place further dimensions join: DRA device requests become one column per group of requests with the
same selectable devices (free selectable devices on each node; devices each pod's claims ask for), as the DRA
engine's per-node pre-check counts them. Everything downstream (classes, patterns, solver, bounds) works on
columns and needs no change.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wasplan.explain.exact.shapes import Shape, checked_columns


@dataclass(frozen=True)
class Capacity:
    free: np.ndarray  # nodes x columns (may be negative on an overcommitted node)
    requests: np.ndarray  # shapes x columns
    names: tuple[str, ...]  # the column names, for bounds a person reads


def of(ev, shapes: list[Shape]) -> Capacity:
    state = ev.state
    cols = checked_columns(state, shapes, ev.profile)
    free = (state.alloc - state.requested)[:, cols]
    requests = np.array([s.req[cols] for s in shapes], dtype=np.int64).reshape(len(shapes), len(cols))
    return Capacity(free, requests, tuple(state.resources[c] for c in cols))
