"""The table of test/integration/scheduler/preemption/podgrouppreemption_test.go (kubernetes/kubernetes at
008b3652, the 1.36 code: GenericWorkload, GangScheduling and WorkloadAwarePreemption on), replayed case by case:
initial pods are scheduled first, then the preemptors are created; the preempted and scheduled sets must match.

The 1.36 API's `disruptionMode: PodGroup` is the hub's `all`.
"""

import pytest
from builders import basic, gang, node, pdb, pod
from enginehelp import run


def n(name: str, cpu: str = "3"):
    return node(name, cpu=cpu, memory="4Gi", pods=32)


def p(name: str, cpu: str, prio: int, group=None, on=None, labels=None):
    return pod(name, cpu=cpu, priority=prio, group=group, node_name=on, labels=labels)


HIGH3 = [p(f"high-{i}", "1", 100, "pg1") for i in (1, 2, 3)]
LOW3 = [p(f"low-{i}", "1", 10) for i in (1, 2, 3)]
PG2_LOW3 = [p(f"low-{i}", "1", 10, "pg2") for i in (1, 2, 3)]

CASES = {
    "Full PodGroup Preemption": (
        [n("node1"), gang("pg1", 3, priority=100)], LOW3, HIGH3, {"low-1", "low-2", "low-3"}),
    "Full PodGroup Preemption for basic policy": (
        [n("node1"), basic("pg1", priority=100)], LOW3, HIGH3, {"low-1", "low-2", "low-3"}),
    "Partial Preemption": (
        [n("node1", "2"), n("node2", "2"), gang("pg1", 3, priority=100)],
        [p("low-1", "2", 10, on="node1"), p("low-2", "1", 10, on="node2")], HIGH3, {"low-1"}),
    "Partial Preemption with basic policy": (
        [n("node1", "2"), n("node2", "2"), basic("pg1", priority=100)],
        [p("low-1", "1", 10, on="node1"), p("very-low-1", "2", 5, on="node2")], HIGH3, {"very-low-1"}),
    "PDB Violation Handling (Reprieve)": (
        [n("node1"), gang("pg1", 2, priority=100), pdb("foo-pdb", {"app": "foo"}, min_available=2)],
        [p("low-1", "1", 10, labels={"app": "foo"}), p("low-2", "1", 10, labels={"app": "foo"}), p("low-3", "1", 10)],
        [p("high-1", "500m", 100, "pg1"), p("high-2", "500m", 100, "pg1")], {"low-3"}),
    "Multi-node Preemption": (
        [n("node1", "2"), n("node2", "2"), gang("pg1", 4, priority=100)],
        [p("low-1", "1", 10, on="node1"), p("low-2", "1", 10, on="node1"), p("low-3", "1", 10, on="node2"),
         p("low-4", "1", 10, on="node2")],
        [p(f"high-{i}", "1", 100, "pg1") for i in (1, 2, 3, 4)], {"low-1", "low-2", "low-3", "low-4"}),
    "Insufficient Resources (No Preemption)": (
        [n("node1"), gang("pg1", 3, priority=100)], [p("mid-1", "1", 500), *LOW3[:2]], HIGH3, set()),
    "Priority-based Victim Selection": (
        [n("node1"), gang("pg1", 2, priority=100)], [p("mid-1", "1", 50), *LOW3[:2]], HIGH3[:2],
        {"low-1", "low-2"}),
    "Preempt the whole PodGroup even if preempting a single Pod would suffice": (
        [n("node1"), gang("pg1", 1, priority=100), gang("pg2", 3, priority=10, disruption="all")], PG2_LOW3,
        HIGH3[:1], {"low-1", "low-2", "low-3"}),
    "Preempt the whole basic PodGroup with a PodGroup disruption mode": (
        [n("node1"), gang("pg1", 1, priority=100), basic("pg2", priority=10, disruption="all")], PG2_LOW3,
        HIGH3[:1], {"low-1", "low-2", "low-3"}),
    "Priority divergence - preemptor PodGroup has higher priority than the victim candidate PodGroup": (
        [n("node1"), gang("pg1", 1, priority=100), gang("pg2", 3, priority=10, disruption="all")],
        [p(f"high-{i}", "1", 100, "pg2") for i in (1, 2, 3)], [p("low-1", "1", 10, "pg1")],
        {"high-1", "high-2", "high-3"}),
    "Priority divergence - preemptor PodGroup has too low priority": (
        [n("node1"), gang("pg1", 1, priority=10), gang("pg2", 3, priority=100, disruption="all")], PG2_LOW3,
        HIGH3[:1], set()),
    "Preemptor Pod without PodGroupName does not respect the PodGroup disruption mode": (
        [n("node1"), gang("pg1", 1, priority=10)],
        [p("low-1", "1", 30, "pg1"), p("low-2", "1", 20, "pg1"), p("low-3", "1", 10, "pg1")],
        [p("high-1", "1", 100)], {"low-3"}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_upstream_case(name):
    cluster, initial, preemptors, preempted = CASES[name]
    plan = run([*cluster, *initial], preemptors, version="1.36")
    got = {x.name for x in plan.pods if x.status == "Preempted"}
    assert got == preempted
    survivors = {x.name for x in initial} - preempted
    if preempted:
        scheduled = {x.name for x in preemptors} | survivors
    else:
        scheduled = survivors
        assert {x.status for x in plan.pods if x.name in {q.name for q in preemptors}} == {"Pending"}
    assert {x.name for x in plan.pods if x.status in ("Bound", "AlreadyBound")} == scheduled


SAME_PRIORITY = [name for name in CASES if "divergence" not in name and "without PodGroupName" not in name]


@pytest.mark.parametrize("name", SAME_PRIORITY)
def test_upstream_case_under_137_rules(name):
    """The cases whose pods share their group's priority (the only ones 1.37 accepts) reach the same victims
    with 1.37's fixed-assignment reprieve and PodGroup entity queue."""
    cluster, initial, preemptors, preempted = CASES[name]
    plan = run([*cluster, *initial], preemptors, version="1.37")
    assert {x.name for x in plan.pods if x.status == "Preempted"} == preempted
