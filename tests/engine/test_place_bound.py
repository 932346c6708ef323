"""The snapshot's bound pods placed together (ClusterState.place_bound) leave the state exactly as one
reserve-and-commit per pod does: the same arrays, the same pods per node in the same order, the same
inter-pod term counts; and a cluster mixing bound, unbound, terminating and grouped existing pods plans alike
either way."""

from __future__ import annotations

import numpy as np
import pytest
from builders import gang, node, pod
from enginehelp import make_state, run
from hypothesis import given, settings
from hypothesis import strategies as st

from wasplan.cluster.model import Affinity, LabelSelector, PodAffinityTerm
from wasplan.engine.cycle.cycles import Cycles
from wasplan.engine.cache.state import ClusterState

ANTI = Affinity(anti_required=(PodAffinityTerm(LabelSelector((("app", "a"),)), "kubernetes.io/hostname"),))


@st.composite
def bound_pods(draw):
    nodes = [node(f"n{i}", cpu="64", gpu=4) for i in range(draw(st.integers(1, 5)))]
    pods = [pod(f"p{k}", cpu=str(draw(st.integers(1, 4))), gpu=draw(st.sampled_from([None, 1])),
                labels={"app": draw(st.sampled_from(["a", "b"]))}, affinity=ANTI if draw(st.booleans()) else None,
                node_name=f"n{draw(st.integers(0, len(nodes) - 1))}") for k in range(draw(st.integers(0, 20)))]
    return nodes, pods


def _state_of(state: ClusterState) -> tuple:
    return (state.requested.tolist(), state.non_zero.tolist(), [list(p) for p in state.pods_on],
            [(k, p.node) for k, p in state.placed.items()], sorted(state.affecting_pods), state.changes,
            sorted((k, e.counts.tolist()) for k, e in state.pod_index.terms.items()), state.journal)


@settings(max_examples=80, deadline=None)
@given(bound_pods())
def test_place_bound_equals_reserve_and_commit_per_pod(case):
    nodes, pods = case
    together, one_by_one = (make_state(nodes, extra_resources={"nvidia.com/gpu"}) for _ in range(2))
    together.place_bound(pods, [together.index[p.node_name] for p in pods])
    for p in pods:
        one_by_one.reserve(p, one_by_one.index[p.node_name])
        one_by_one.commit()
    assert _state_of(together) == _state_of(one_by_one)
    assert np.array_equal(together.requested, one_by_one.requested)


def test_mixed_existing_pods_plan_as_one_creation_each():
    existing = [node("n0", cpu="4"), node("n1", cpu="4"), gang("v", 2, priority=0),
                pod("a", cpu="2", node_name="n0", priority=0), pod("queued", cpu="1"),
                pod("v-0", cpu="1", group="v", node_name="n1", priority=0), pod("elsewhere", cpu="1", node_name="gone"),
                pod("v-1", cpu="1", group="v", node_name="n1", priority=0)]
    arrivals = [pod("big", cpu="3", priority=10)]
    together = run(existing, arrivals).to_dict()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Cycles, "bound_pods_created", lambda self, states: [self.pod_created(ps) for ps in states])
        one_by_one = run(existing, arrivals).to_dict()
    assert together == one_by_one
    assert [(p["name"], p["status"], p["node"]) for p in together["pods"]] == [
        ("a", "AlreadyBound", "n0"), ("big", "Bound", "n1"), ("elsewhere", "AlreadyBound", "gone"),
        ("queued", "Bound", "n0"), ("v-0", "AlreadyBound", "n1"), ("v-1", "Preempted", "n1")]  # big evicts one
