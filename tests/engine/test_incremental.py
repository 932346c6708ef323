"""The incremental caches must give exactly what a full evaluation gives: after any sequence of reserves,
removals and rollbacks, a cached entry equals one computed from scratch, and decisions match a fresh evaluator."""

from hypothesis import given, settings
from hypothesis import strategies as st

from builders import node, pod
from enginehelp import make_state

from wasplan.engine.profile.config import Profile
from wasplan.engine.cycle.framework import Evaluator
from wasplan.engine.plugins.resources_fit import ScoringStrategy
from wasplan.engine.cycle.rescache import ResourceCache

SIZES = [("250m", "256Mi", None), ("1", "1Gi", None), ("2", "512Mi", 1), ("0", "0", None), ("500m", "3Gi", 2)]

ops = st.lists(st.tuples(st.sampled_from(["reserve", "remove", "mark", "rollback"]), st.integers(0, 4),
                         st.integers(0, 5)), max_size=40)


@settings(max_examples=60, deadline=None)
@given(ops, st.sampled_from(["LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"]))
def test_cached_entries_equal_full_recompute(steps, strategy_type):
    nodes = [node(f"n{i}", cpu=str(2 + i), memory=f"{4 + 2 * i}Gi", gpu=(i % 3) or None) for i in range(6)]
    state = make_state(nodes, extra_resources=["nvidia.com/gpu"])
    profile = Profile(fit_strategy=ScoringStrategy(strategy_type, shape=((0, 0), (50, 7), (100, 10))))
    cached, ev = ResourceCache(state, profile), Evaluator(state, profile)
    shapes = [pod(f"s{i}", cpu=c if c != "0" else None, memory=m if m != "0" else None, gpu=g)
              for i, (c, m, g) in enumerate(SIZES)]
    marks, placed, counter = [], [], 0
    for action, shape, where in steps:
        if action == "reserve":
            counter += 1
            c, m, g = SIZES[shape]
            p = pod(f"p{counter}", cpu=c if c != "0" else None, memory=m if m != "0" else None, gpu=g)
            state.reserve(p, where)
            placed.append(p)
        elif action == "remove" and placed:
            victim = placed.pop(shape % len(placed))
            if victim.key in state.placed:
                state.remove(victim)
        elif action == "mark":
            marks.append(state.mark())
        elif action == "rollback" and marks:
            state.rollback(marks.pop())
            placed = [p for p in placed if p.key in state.placed]
        probe = shapes[shape]
        req, nz = state.vectors(probe)
        entry = cached.get(req, nz)
        fresh = ResourceCache(state, profile).get(req, nz)
        assert entry.fit.tolist() == fresh.fit.tolist()
        assert entry.score.tolist() == fresh.score.tolist()
        assert entry.ranked.tolist() == fresh.ranked.tolist()
        assert ev.find_node(probe).node == Evaluator(state, profile).find_node(probe).node
