"""Group preemption's bulk path (every potential victim taken off as per-node sums, preemption/workload.py) gives
the same plan as taking them off pod by pod, on random clusters: plain and grouped victims (disruptionMode
all and single), priorities above and below the preemptor, PDBs, full and half-full nodes; 1.36 (re-run
reprieve) and 1.37 (fixed-assignment reprieve). The per-pod path is what the engine does when a member has a
dynamic plugin (here forced by switching the bulk path off)."""

from __future__ import annotations

import pytest
from builders import gang, node, pdb, pod
from enginehelp import run
from hypothesis import given, settings
from hypothesis import strategies as st

from wasplan.engine.preemption import workload


@st.composite
def clusters(draw):
    nodes = draw(st.integers(2, 7))
    existing: list = [node(f"n{i}", cpu="8") for i in range(nodes)]
    for g in range(draw(st.integers(0, 4))):
        size = draw(st.integers(1, 4))
        existing.append(gang(f"v{g}", size, priority=draw(st.sampled_from([0, 10, 50])),
                             disruption=draw(st.sampled_from(["all", "single", None]))))
        for k in range(size):
            existing.append(pod(f"v{g}-{k}", cpu=str(draw(st.integers(1, 4))), group=f"v{g}",
                                priority=0, node_name=f"n{draw(st.integers(0, nodes - 1))}", labels={"app": "v"}))
    for k in range(draw(st.integers(0, 10))):
        existing.append(pod(f"p{k}", cpu=str(draw(st.integers(1, 3))), priority=draw(st.sampled_from([0, 5, 200])),
                            node_name=f"n{draw(st.integers(0, nodes - 1))}", labels={"app": "plain"}))
    if draw(st.booleans()):
        existing.append(pdb("guard", {"app": "plain"}, max_unavailable=1))
    size = draw(st.integers(1, 4))
    arrivals = [gang("big", size, priority=100),
                *(pod(f"big-{k}", cpu=str(draw(st.integers(2, 8))), group="big", priority=100) for k in range(size))]
    return existing, arrivals


def _plans(existing, arrivals, version):
    bulk = run(existing, arrivals, version).to_dict()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(workload, "bulk_removal", lambda state, members: False)
        per_pod = run(existing, arrivals, version).to_dict()
    return bulk, per_pod


@settings(max_examples=60, deadline=None)
@given(clusters(), st.sampled_from(["1.36", "1.37"]))
def test_bulk_removal_plans_like_pod_by_pod_removal(cluster, version):
    bulk, per_pod = _plans(*cluster, version)
    assert bulk == per_pod


def test_the_bulk_path_is_taken_and_evicts_the_same_victims(monkeypatch):
    existing = [node("n0", cpu="4"), node("n1", cpu="4"), gang("v", 2, priority=0, disruption="all"),
                pod("v-0", cpu="2", priority=0, group="v", node_name="n0"),
                pod("v-1", cpu="2", priority=0, group="v", node_name="n1"),
                pod("s-0", cpu="2", priority=0, node_name="n0"), pod("s-1", cpu="2", priority=0, node_name="n1")]
    arrivals = [gang("g", 1, priority=100), pod("g-0", cpu="4", priority=100, group="g")]
    taken = []
    real = workload.bulk_removal
    monkeypatch.setattr(workload, "bulk_removal",
                        lambda state, members: taken.append(real(state, members)) or taken[-1])
    plan = run(existing, arrivals)
    assert taken == [True]
    assert [(v.name, v.node) for v in plan.preemptions[0].victims] == [("s-0", "n0"), ("v-0", "n0"), ("v-1", "n1")]
