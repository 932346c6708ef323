"""The per-node pattern enumeration of the exact check (explain/exact/classes.py) against brute force: every
combination of pods one node holds, kept when no shape could take one more."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from wasplan.explain.exact.classes import maximal_patterns


def brute_force(caps, room, req, conflicts) -> list[tuple[int, ...]]:
    n = len(caps)

    def fits(p) -> bool:
        clash = any(p[a] and p[b] and (min(a, b), max(a, b)) in conflicts for a in range(n) for b in range(n) if a != b)
        return not clash and all(sum(p[s] * req[s][c] for s in range(n)) <= room[c] for c in range(len(room)))

    every = {p for p in itertools.product(*[range(c + 1) for c in caps]) if fits(p)}
    grown = {tuple(p[t] + (t == u) for t in range(n)) for p in every for u in range(n)}
    return sorted(p for p in every if any(p) and not any(g in every for g in grown if _one_more(p, g)))


def _one_more(p, g) -> bool:
    return sum(b - a for a, b in zip(p, g)) == 1 and all(b >= a for a, b in zip(p, g))


@st.composite
def rows(draw):
    n = draw(st.integers(1, 4))
    cols = draw(st.integers(1, 3))
    req = [[draw(st.integers(0, 5)) for _ in range(cols)] for _ in range(n)]
    for r in req:
        r[0] = max(r[0], 1)  # every pod takes room somewhere (the pod slot, in the engine)
    conflicts = {(a, b) for a in range(n) for b in range(a, n) if draw(st.booleans()) and draw(st.booleans())}
    caps = tuple(min(draw(st.integers(0, 4)), 1 if (s, s) in conflicts else 4) for s in range(n))
    room = tuple(draw(st.integers(0, 15)) for _ in range(cols))
    return caps, room, req, conflicts


@settings(max_examples=300, deadline=None)
@given(rows())
def test_maximal_patterns_equal_brute_force(row):
    caps, room, req, conflicts = row
    got = maximal_patterns(caps, room, np.array(req, dtype=np.int64), conflicts)
    assert got is not None and sorted(got) == brute_force(caps, room, req, conflicts)


def test_a_row_with_too_many_combinations_is_left_to_pooling():
    requests = np.array([[c * 1000, 1] for c in (1, 2, 3, 5, 7)], dtype=np.int64)
    assert maximal_patterns((10, 10, 10, 10, 10), (64000, 110), requests, set()) is None
