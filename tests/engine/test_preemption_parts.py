"""Preemption building blocks on their own: PodDisruptionBudget arithmetic (upstream preemption.go
filterPodsWithPDBViolation; the disruption controller's minAvailable/maxUnavailable with percentages rounded
up), the per-node lower-priority sums against a recount after random reserves, removals and rollbacks, and the
1.36 rule that a group with one `preemptionPolicy: Never` member does not preempt (engine-semantics §1.12).
"""

import random

import numpy as np
from builders import gang, node, pdb, pod, pods
from enginehelp import groups, make_state, run

from wasplan.cluster.model import LabelSelector, PodDisruptionBudget
from wasplan.engine.preemption.lower import LowerSums
from wasplan.engine.preemption.pdb import PdbTracker


def _tracker(*budgets):
    t = PdbTracker()
    for b in budgets:
        t.add(b)
    return t


def test_pdb_allowance_from_status_or_computed():
    running = [pod(f"db-{i}", labels={"app": "db"}, node_name="n0") for i in range(4)] + \
        [pod("web", labels={"app": "web"}, node_name="n0")]
    assert _tracker(pdb("a", {"app": "db"}, allowed=3)).allowed(0, running) == 3
    assert _tracker(pdb("a", {"app": "db"}, min_available=3)).allowed(0, running) == 1
    assert _tracker(pdb("a", {"app": "db"}, min_available="50%")).allowed(0, running) == 2
    assert _tracker(pdb("a", {"app": "db"}, max_unavailable="30%")).allowed(0, running) == 2  # ceil(1.2)
    assert _tracker(pdb("a", {"app": "db"}, max_unavailable=0)).allowed(0, running) == 0


def test_pdb_counts_only_pods_running_in_the_input_as_healthy():
    """A pod the plan bound (no spec.nodeName of its own) is not Ready yet: the disruption controller would not
    count it (pkg/controller/disruption/disruption.go countHealthyPods)."""
    running = [pod(f"db-{i}", labels={"app": "db"}, node_name="n0") for i in range(2)]
    planned = [pod("db-new", labels={"app": "db"})]
    assert _tracker(pdb("a", {"app": "db"}, min_available=2)).allowed(0, running + planned) == 0
    assert _tracker(pdb("a", {"app": "db"}, min_available=1)).allowed(0, running + planned) == 1


def test_pdb_violations_accumulate_in_order_and_evictions_use_up_the_budget():
    running = [pod(f"db-{i}", labels={"app": "db"}, node_name="n0") for i in range(3)]
    t = _tracker(pdb("a", {"app": "db"}, min_available=2), pdb("other-ns", {"app": "db"}, allowed=0,
                                                              namespace="elsewhere"))
    assert t.violating(running, running) == [False, True, True]
    t.evicted(running[0], running)
    assert t.violating(running[1:], running[1:]) == [True, True]


def test_pdb_with_an_empty_selector_matches_nothing():
    t = _tracker(PodDisruptionBudget("default", "all", LabelSelector(), min_available=10))
    assert t.violating([pod("x")], [pod("x")]) == [False]


def test_lower_sums_match_a_recount_after_random_changes():
    rng = random.Random(7)
    nodes = [node(f"n{i}", cpu="64") for i in range(6)]
    state = make_state(nodes)
    prio = {}
    sums = LowerSums(state, lambda key: prio[key])
    placed = []
    for step in range(300):
        mark = state.mark()
        if placed and rng.random() < 0.3:
            state.remove(placed.pop(rng.randrange(len(placed))))
        else:
            p = pod(f"p{step}", cpu=f"{rng.randint(1, 4)}")
            prio[p.key] = rng.choice((0, 5, 10))
            state.reserve(p, rng.randrange(len(nodes)))
            placed.append(p)
        if rng.random() < 0.2:
            state.rollback(mark)
            placed = [q for q in placed if q.key in state.placed]
        threshold = rng.choice((1, 6, 11))
        req, count = sums.get(threshold)
        for row in range(len(nodes)):
            low = [q for q in state.pods_on[row].values() if prio[q.key] < threshold]
            expect = sum((state.vectors(q)[0] for q in low), np.zeros(len(state.resources), dtype=np.int64))
            assert count[row] == len(low) and (req[row] == expect).all()


def test_136_group_with_a_never_member_does_not_preempt():
    existing = [node("n0", cpu="4"), pod("low", cpu="4", priority=0, node_name="n0")]
    members = pods("g", 2, cpu="2", priority=100, group="g")
    members[1].preemption_policy = "Never"
    plan = run(existing, [gang("g", 2, priority=100), *members], version="1.36")
    assert plan.preemptions == ()
    # 1.36 passes the evaluator's status on without a prefix, appended as a further reason (v1.36.5
    # runWorkloadAwarePreemption / AppendReason)
    assert groups(plan)["g"].message == ("0/1 placements are available, first placement status: pod group is "
                                         "unschedulable, not eligible due to preemptionPolicy=Never.")


def test_137_member_policy_counts_only_without_the_podgroup_preemption_policy_gate():
    """Evaluator tests "... ignoring member pod preemption policy" (gate on) and the gate-off fallback."""
    existing = [node("n0", cpu="4"), pod("low", cpu="4", priority=0, node_name="n0")]
    member = pod("g-0", cpu="4", priority=100, group="g", preemption_policy="Never")
    plan = run(existing, [gang("g", 1, priority=100), member])
    assert [v.name for p in plan.preemptions for v in p.victims] == ["low"]
    plan = run(existing, [gang("g", 1, priority=100), member], gates="PodGroupPreemptionPolicy=false")
    assert plan.preemptions == ()
