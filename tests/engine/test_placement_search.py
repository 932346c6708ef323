"""The bound-ordered placement search picks exactly the placement an exhaustive evaluation picks.

Upstream (pkg/scheduler/schedule_one_podgroup.go podGroupSchedulingPlacementAlgorithm) evaluates every
placement and scores the feasible ones with PodGroupPodsCount and the bin-packing score
(pkg/scheduler/framework/plugins/podgrouppodscount, noderesources/placement_bin_packing.go); wasplan skips
domains by capacity and score bounds. This property test compares the two on random racks, loads and gangs.
"""

import random

import numpy as np
import pytest
from builders import gang, node, pod
from enginehelp import make_state

from wasplan.engine.cycle import search
from wasplan.engine.profile.config import Profile
from wasplan.engine.cycle.domains import generate
from wasplan.engine.cycle.framework import Evaluator
from wasplan.engine.cycle.placement import Job
from wasplan.engine.cache.world import GroupState, PodState


def exhaustive(job, domains):
    trials = [job.evaluate(d) for d in domains]
    feasible = [t for t in trials if t.success]
    if not feasible:
        return None
    max_raw = max(t.raw for t in feasible)
    return min(feasible, key=lambda t: (-t.total(max_raw), t.domain.name)).domain.name


def random_case(rng):
    nodes, existing = [], []
    for r in range(rng.randint(1, 7)):
        for i in range(rng.randint(1, 4)):
            name = f"r{r}-n{i}"
            nodes.append(node(name, cpu=str(rng.choice([2, 4, 8])), memory=rng.choice([None, "8Gi"]),
                              labels={"rack": f"rack-{r}"}))
            if rng.random() < 0.5:
                existing.append((pod(f"busy-{name}", cpu=str(rng.choice([1, 2])), memory="1Gi"), name))
    size = rng.randint(1, 10)
    members = [pod(f"m{i}", cpu=rng.choice(["500m", "1", "2"]), memory=rng.choice([None, "1Gi"]), group="g")
               for i in range(size)]
    return nodes, existing, members, rng.randint(1, size)


@pytest.mark.parametrize("seed", range(150))
def test_search_matches_exhaustive_evaluation(seed):
    rng = random.Random(seed)
    nodes, existing, members, min_count = random_case(rng)
    state = make_state(nodes, [(p, n) for p, n in existing], extra_resources={"cpu", "memory"})
    ev = Evaluator(state, Profile())
    group = GroupState(gang("g", min_count, topology_keys=["rack"]), 0, 0)
    states = [PodState(p, 0, i) for i, p in enumerate(members)]
    job = Job(ev, group, states, 0, seed % 2 == 0)
    parent = None  # half the cases run inside a parent placement (a composite's domain): a random node subset
    if seed % 4 >= 2:
        parent = np.array([rng.random() < 0.7 for _ in state.nodes], dtype=bool)
    domains = generate(state, "rack", parent, [])
    if not domains:
        return
    expected = exhaustive(job, domains)
    winner, _ = search.best(state, domains, job.need(), job.evaluate)
    assert (winner.domain.name if winner else None) == expected
    assert state.journal == []  # every trial rolled back
    assert len(state.placed) == len(existing)
