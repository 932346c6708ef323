"""Gangs of identical pods placed by gangbatch.py land on the nodes that one find_node per member gives: the
same plan on random clusters (node sizes, pods already running, extended resources, NoSchedule taints (nodes
left out) and PreferNoSchedule ones (per-member path), rack-constrained gangs, gangs larger than the cluster
can hold), under every scoring strategy, 1.36 and 1.37. tests/cli/test_determinism.py keeps the CLI's plans
byte-identical across hash seeds."""

from __future__ import annotations

import pytest
from builders import gang, node, pod
from hypothesis import given, settings
from hypothesis import strategies as st

from wasplan.api.releases import get_release, parse_gates
from wasplan.cluster.model import PlanInputs
from wasplan.engine.cycle import gangbatch
from wasplan.engine.profile.config import DEFAULT_SCHEDULER, Profile
from wasplan.engine.profile.options import EngineOptions
from wasplan.engine.plugins.resources_fit import ScoringStrategy
from wasplan.engine.simulator import simulate

STRATEGIES = [ScoringStrategy(), ScoringStrategy("MostAllocated"),
              ScoringStrategy("RequestedToCapacityRatio", shape=((0, 0), (50, 10), (100, 2)))]


@st.composite
def clusters(draw):
    count = draw(st.integers(3, 12))
    soft = draw(st.integers(0, 4)) == 0  # PreferNoSchedule taints somewhere: the per-member path
    existing: list = [node(f"n{i:02d}", cpu=str(draw(st.sampled_from([4, 8, 16]))),
                           memory=f"{draw(st.sampled_from([8, 16, 64]))}Gi", gpu=draw(st.sampled_from([None, 2, 8])),
                           labels={"rack": f"r{i % 3}"},
                           taints=draw(st.sampled_from([(), (), ("dedicated=infra:NoSchedule",),
                                                        ("spot=true:PreferNoSchedule",) if soft else ()])))
                       for i in range(count)]
    for k in range(draw(st.integers(0, 12))):
        existing.append(pod(f"run-{k}", cpu=str(draw(st.integers(1, 3))), memory=f"{draw(st.integers(1, 6))}Gi",
                            node_name=f"n{draw(st.integers(0, count - 1)):02d}"))
    arrivals: list = []
    for g in range(draw(st.integers(1, 4))):
        size = draw(st.integers(gangbatch.MIN_MEMBERS, 14))
        keys = ("rack",) if draw(st.booleans()) else ()
        cpu, gpu = draw(st.sampled_from(["1", "2", "500m"])), draw(st.sampled_from([None, None, 1]))
        arrivals.append(gang(f"g{g}", draw(st.integers(1, size)), topology_keys=keys))
        arrivals += [pod(f"g{g}-{k:02d}", cpu=cpu, memory="1Gi", gpu=gpu, group=f"g{g}") for k in range(size)]
    return existing, arrivals


def _plan(existing, arrivals, version, strategy):
    options = EngineOptions(gates=parse_gates(get_release(version), None),
                            profiles={DEFAULT_SCHEDULER: Profile(fit_strategy=strategy)})
    plan, _ = simulate(PlanInputs(list(existing), list(arrivals)), options)
    return plan.to_dict()


@settings(max_examples=80, deadline=None)
@given(clusters(), st.sampled_from(["1.36", "1.37"]), st.sampled_from(STRATEGIES), st.sampled_from([None, 3]),
       st.sampled_from([None, 1]))
def test_batched_gangs_plan_like_one_find_node_per_member(cluster, version, strategy, max_rows, max_memo):
    with pytest.MonkeyPatch.context() as patch:
        if max_rows:  # a look-ahead of a step or two per node: nodes that take more members get another pass
            patch.setattr(gangbatch, "MAX_ROWS", max_rows)
        if max_memo:  # the look-ahead memo full at every pass: it starts over, rows it held included
            patch.setattr(gangbatch, "MAX_MEMO", max_memo)
        batched = _plan(*cluster, version, strategy)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gangbatch, "MIN_MEMBERS", 10**9)
        per_pod = _plan(*cluster, version, strategy)
    assert batched == per_pod


def test_a_gang_is_batched_and_spreads_as_least_allocated_does(monkeypatch):
    made = []
    real = gangbatch.GangBatch
    monkeypatch.setattr(gangbatch, "GangBatch", lambda *a: made.append(real(*a)) or made[-1])
    existing = [node(f"n{i}", cpu="8") for i in range(4)] + [pod("busy", cpu="6", node_name="n0")]
    plan = _plan(existing, [gang("g", 6), *(pod(f"g-{k}", cpu="2", group="g") for k in range(6))], "1.37",
                 ScoringStrategy())
    assert len(made) == 1
    assert [p["node"] for p in plan["pods"] if p["name"].startswith("g-")] == ["n1", "n2", "n3", "n1", "n2", "n3"]


def _top_by_sorting(ranked: list[int], k: int) -> list[int]:
    """What `_top` promises, computed the plain way: the feasible rows by value, highest first, then row."""
    feasible = sorted((r for r, v in enumerate(ranked) if v >= 0), key=lambda r: (-ranked[r], r))
    return sorted(feasible[:k], key=lambda r: (-ranked[r], r))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-1, 6), max_size=40), st.integers(0, 12))
def test_the_rows_a_batch_starts_from_are_the_best_feasible_by_value_then_row(values, k):
    """The k rows a gang batch can fill: highest value first, the lowest row among equals, never an infeasible
    row (-1); with the best value shared by k rows or more (identical nodes) as with fewer."""
    import numpy as np

    got = gangbatch._top(np.array(values, dtype=np.int64), k)
    assert got.dtype == np.int64
    assert sorted(got.tolist(), key=lambda r: (-values[r], r)) == _top_by_sorting(values, k)



def _checking_sync(patch, synced: list):
    """GangBatch._sync, checked: whenever it writes a row into the cache entry, the entry equals one computed
    from scratch on the state as it is, and it has read every change; the rows written go to `synced`."""
    import numpy as np

    from wasplan.engine.cycle.rescache import ResourceCache

    real = gangbatch.GangBatch._sync

    def checked(self, node, step):
        real(self, node, step)
        if not self.synced:
            return
        state, entry = self.ev.state, self.entry
        assert entry.pos == len(state.changes)
        fresh = ResourceCache(state, self.ev.resources.profile).get(entry.req, entry.nz)
        assert np.array_equal(entry.fit, fresh.fit) and np.array_equal(entry.score, fresh.score)
        assert np.array_equal(entry.ranked, fresh.ranked)
        synced.append(node)

    patch.setattr(gangbatch.GangBatch, "_sync", checked)


@settings(max_examples=40, deadline=None)
@given(clusters(), st.sampled_from(STRATEGIES))
def test_a_batch_leaves_the_resource_cache_as_a_full_recompute_would(cluster, strategy):
    """Each placement writes the look-ahead's fit and score of its row into the cache entry and moves the entry
    past that reservation, so the next gang with the same requests has nothing to refresh."""
    with pytest.MonkeyPatch.context() as patch:
        _checking_sync(patch, [])
        _plan(*cluster, "1.37", strategy)


def test_every_placement_of_a_batch_is_written_back(monkeypatch):
    """Four identical nodes and a gang of six one-CPU pods: the six placements (n0..n3, then n0, n1) each write
    their row back; nothing else changed the state meanwhile."""
    synced: list = []
    _checking_sync(monkeypatch, synced)
    _plan([node(f"n{i}", cpu="8") for i in range(4)],
          [gang("g", 6), *(pod(f"g-{k}", cpu="1", group="g") for k in range(6))], "1.37", ScoringStrategy())
    assert synced == [0, 1, 2, 3, 0, 1]


@pytest.mark.parametrize("max_memo", [gangbatch.MAX_MEMO, 1])
def test_a_look_ahead_is_stacked_once_per_row_state_and_plans_as_without_the_memo(monkeypatch, max_memo):
    """Gangs of the same requests on identical nodes reach the same row states again and again: the look-ahead
    stacks a state the entry's memo has not seen (the first gang's empty nodes, then nodes holding one member
    of an earlier gang, of different sizes), and the plan is the one of a find_node per member; also when the
    memo is full at every batch and starts over."""
    stacked: list[int] = []
    real = gangbatch.GangBatch._compute

    def counting(self, rows, offsets, steps, keys, memo):
        stacked.append(len(offsets))
        real(self, rows, offsets, steps, keys, memo)

    existing = [node(f"n{i:02d}", cpu="4" if i % 2 else "8") for i in range(12)]
    arrivals: list = []
    for g in range(6):
        arrivals += [gang(f"g{g}", 6), *(pod(f"g{g}-{k}", cpu="1", group=f"g{g}") for k in range(6))]
    monkeypatch.setattr(gangbatch.GangBatch, "_compute", counting)
    monkeypatch.setattr(gangbatch, "MAX_MEMO", max_memo)
    batched = _plan(existing, arrivals, "1.37", ScoringStrategy())
    monkeypatch.setattr(gangbatch, "MIN_MEMBERS", 10**9)
    assert batched == _plan(existing, arrivals, "1.37", ScoringStrategy())
    assert stacked and sum(stacked) < 6 * 6  # one row per state, fewer than the six gangs' six rows each
    nodes = [p["node"] for p in batched["pods"] if p["name"].startswith("g")]
    assert len(nodes) == 36 and None not in nodes


@pytest.mark.parametrize("max_memo", [gangbatch.MAX_MEMO, 1])
def test_a_batch_whose_rows_the_memo_partly_holds_plans_as_without_it(monkeypatch, max_memo):
    """Three nodes already run a pod: the first gang stacks both states (empty, one pod); after it the second
    gang's rows hold one pod (a state the memo has) and two pods (one it has not). With the memo full, it starts
    over and stacks both again."""
    existing = [node(f"n{i}", cpu="8") for i in range(6)] + [pod(f"run-{i}", cpu="1", node_name=f"n{i}")
                                                            for i in range(3)]
    arrivals: list = []
    for g in range(2):
        arrivals += [gang(f"g{g}", 6), *(pod(f"g{g}-{k}", cpu="1", group=f"g{g}") for k in range(6))]
    monkeypatch.setattr(gangbatch, "MAX_MEMO", max_memo)
    batched = _plan(existing, arrivals, "1.37", ScoringStrategy())
    monkeypatch.setattr(gangbatch, "MIN_MEMBERS", 10**9)
    assert batched == _plan(existing, arrivals, "1.37", ScoringStrategy())
