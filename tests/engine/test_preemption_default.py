"""DefaultPreemption scenarios: exact victims, the chosen node and the binding after the victims are gone.

Follows pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go (SelectVictimsOnNode: remove
lower-priority pods, reprieve the most important first, PDB-violating ones before the others) and
pkg/scheduler/framework/preemption/preemption.go (pickOneNodeForPreemption, the PostFilter's FitError text
` preemption: 0/N nodes are available: ...` with the inner FitError's full stop), and the disruption-mode cases of
test/integration/scheduler/preemption/podgrouppreemption_test.go ("Preemptor Pod without PodGroupName does not
respect the PodGroup disruption mode", 1.36) and scheduler_perf PreemptionPodGroupDisruptionMode (1.37).
"""

from builders import basic, gang, node, pdb, pod, selector
from enginehelp import by_name, run

from wasplan.cluster.model import Affinity, PodAffinityTerm, PriorityClass


def t(minute: int) -> str:
    return f"2026-01-01T00:{minute:02d}:00Z"


def victims(plan):
    return [(p.preemptor_kind, p.preemptor_name, [(v.name, v.node, v.priority) for v in p.victims])
            for p in plan.preemptions]


def test_node_with_the_lowest_priority_victims_is_chosen_and_the_pod_binds_there():
    existing = [node("n0", cpu="4"), node("n1", cpu="4"),
                pod("a", cpu="1", priority=10, node_name="n0", created=t(1)),
                pod("b", cpu="1", priority=10, node_name="n0", created=t(2)),
                pod("c", cpu="2", priority=10, node_name="n0", created=t(3)),
                pod("d", cpu="2", priority=20, node_name="n1", created=t(1)),
                pod("e", cpu="2", priority=20, node_name="n1", created=t(2))]
    plan = run(existing, [pod("p", cpu="2", priority=100)])
    placed = by_name(plan)
    assert victims(plan) == [("Pod", "p", [("c", "n0", 10)])]
    assert (placed["p"].status, placed["p"].node, placed["p"].nominated_node) == ("Bound", "n0", "n0")
    assert (placed["c"].status, placed["c"].reason) == ("Preempted", "PreemptionByScheduler")
    assert placed["c"].message == "Preempted by pod default/p on node n0"
    assert [placed[x].status for x in "abde"] == ["AlreadyBound"] * 4
    assert plan.summary()["preempted"] == 1


def test_partial_preemption_keeps_the_more_important_victims():
    existing = [node("n0", cpu="4"), pod("x", cpu="1", priority=50, node_name="n0", created=t(3)),
                pod("y", cpu="1", priority=5, node_name="n0", created=t(1)),
                pod("z", cpu="2", priority=5, node_name="n0", created=t(2))]
    plan = run(existing, [pod("p", cpu="3", priority=100)])
    assert victims(plan) == [("Pod", "p", [("y", "n0", 5), ("z", "n0", 5)])]
    assert by_name(plan)["x"].status == "AlreadyBound"
    assert by_name(plan)["p"].node == "n0"


def test_pdb_violating_victims_are_reprieved_first():
    existing = [node("n0", cpu="4"),
                pod("web", cpu="2", priority=5, node_name="n0", created=t(1), labels={"app": "web"}),
                pod("db", cpu="2", priority=5, node_name="n0", created=t(2), labels={"app": "db"})]
    without = run(existing, [pod("p", cpu="2", priority=100)])
    assert victims(without) == [("Pod", "p", [("db", "n0", 5)])]  # the earlier-started web pod is kept
    with_budget = run([*existing, pdb("db-pdb", {"app": "db"}, min_available=1)], [pod("p", cpu="2", priority=100)])
    assert victims(with_budget) == [("Pod", "p", [("web", "n0", 5)])]
    assert by_name(with_budget)["db"].status == "AlreadyBound"


def test_fewest_pdb_violations_wins_over_lower_priority():
    existing = [node("n0", cpu="2"), node("n1", cpu="2"),
                pod("guarded", cpu="2", priority=1, node_name="n0", labels={"app": "db"}),
                pod("free", cpu="2", priority=9, node_name="n1"),
                pdb("db-pdb", {"app": "db"}, allowed=0)]
    plan = run(existing, [pod("p", cpu="2", priority=100)])
    assert victims(plan) == [("Pod", "p", [("free", "n1", 9)])]


def test_preemption_policy_never_on_the_pod_or_its_class():
    existing = [node("n0", cpu="2"), pod("low", cpu="2", priority=1, node_name="n0")]
    expected = ("0/1 nodes are available: 1 Insufficient cpu. "
                "preemption: not eligible due to preemptionPolicy=Never.")
    plan = run(existing, [pod("p", cpu="2", priority=100, preemption_policy="Never")])
    assert (by_name(plan)["p"].status, by_name(plan)["p"].message) == ("Pending", expected)
    assert plan.preemptions == ()
    never_class = PriorityClass("batch-never", 100, preemption_policy="Never")
    plan = run([*existing, never_class], [pod("p", cpu="2", priority_class="batch-never")])
    assert (by_name(plan)["p"].status, by_name(plan)["p"].message) == ("Pending", expected)


def test_preemption_that_cannot_help_evicts_nothing():
    existing = [node("n0", cpu="4"), node("n1", cpu="1"), node("n2", cpu="2"),
                pod("low", cpu="1", priority=1, node_name="n0"), pod("vip", cpu="3", priority=200, node_name="n0"),
                pod("vip2", cpu="2", priority=200, node_name="n2")]
    plan = run(existing, [pod("p", cpu="2", priority=100)])
    assert plan.preemptions == ()
    assert by_name(plan)["p"].message == (
        "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are "
        "available: 1 Insufficient cpu, 1 No preemption victims found for incoming pod, 1 Preemption is not "
        "helpful for scheduling.")
    assert by_name(plan)["low"].status == "AlreadyBound"


def _disruption_cluster(version: str):
    prios = (10, 10, 10) if version == "1.37" else (30, 20, 10)
    return [node("n0", cpu="2"), node("n1", cpu="2"), node("n2", cpu="2"),
            gang("low", 3, priority=10, disruption="all"),
            *(pod(f"low-{i}", cpu="2", priority=prios[i], group="low", node_name=f"n{i}", created=t(i + 1))
              for i in range(3))]


def test_standalone_preemptor_ignores_the_victim_groups_disruption_mode_in_136():
    plan = run(_disruption_cluster("1.36"), [pod("p", cpu="2", priority=100)], version="1.36")
    # every node offers one victim of (group) priority 10: the latest-started one goes, alone
    assert victims(plan) == [("Pod", "p", [("low-2", "n2", 10)])]
    assert [by_name(plan)[f"low-{i}"].status for i in range(3)] == ["AlreadyBound", "AlreadyBound", "Preempted"]
    assert by_name(plan)["p"].node == "n2"


def test_standalone_preemptor_evicts_the_whole_disruption_all_group_in_137():
    plan = run(_disruption_cluster("1.37"), [pod("p", cpu="2", priority=100)])
    assert victims(plan) == [("Pod", "p", [("low-0", "n0", 10), ("low-1", "n1", 10), ("low-2", "n2", 10)])]
    assert by_name(plan)["p"].node == "n0"  # every node costs the same whole group: the first node wins


def test_137_node_choice_counts_the_whole_victim_group():
    """A node whose single victim drags a three-pod group along loses to a node with two plain victims."""
    existing = [node("n0", cpu="2"), node("n1", cpu="2"), node("n2", cpu="2"), node("n3", cpu="2"),
                gang("low", 3, priority=10, disruption="all"),
                *(pod(f"low-{i}", cpu="2", priority=10, group="low", node_name=f"n{i}", created=t(1))
                  for i in range(3)),
                pod("a", cpu="1", priority=10, node_name="n3", created=t(1)),
                pod("b", cpu="1", priority=10, node_name="n3", created=t(1))]
    plan = run(existing, [pod("p", cpu="2", priority=100)])
    assert victims(plan) == [("Pod", "p", [("a", "n3", 10), ("b", "n3", 10)])]


def test_host_port_conflict_is_resolved_by_evicting_only_the_port_holder():
    """Filters other than resources go through the journal: NodePorts fails, so the port holder is the victim
    and the other low-priority pod is reprieved."""
    existing = [node("n0", cpu="4"), pod("holder", cpu="1", priority=1, node_name="n0", ports=(8080,)),
                pod("bystander", cpu="1", priority=1, node_name="n0")]
    plan = run(existing, [pod("p", cpu="1", priority=100, ports=(8080,))])
    assert victims(plan) == [("Pod", "p", [("holder", "n0", 1)])]
    assert (by_name(plan)["bystander"].status, by_name(plan)["p"].node) == ("AlreadyBound", "n0")


def test_required_anti_affinity_to_a_lower_priority_pod_is_resolved_by_preemption():
    anti = Affinity(anti_required=(PodAffinityTerm(selector({"app": "noisy"}), "kubernetes.io/hostname"),))
    existing = [node("n0", cpu="4"), pod("noisy", cpu="1", priority=1, node_name="n0", labels={"app": "noisy"}),
                pod("quiet", cpu="1", priority=1, node_name="n0")]
    plan = run(existing, [pod("p", cpu="1", priority=100, affinity=anti)])
    assert victims(plan) == [("Pod", "p", [("noisy", "n0", 1)])]
    assert by_name(plan)["p"].node == "n0"


def test_existing_pods_anti_affinity_is_resolved_by_evicting_that_pod():
    """The preemptor has no terms of its own; a running pod's required anti-affinity rejects it on n0, so n0 is
    decided through the filters (its only victim has the lowest priority) while n1 stays arithmetic."""
    loner_terms = Affinity(anti_required=(PodAffinityTerm(selector({"app": "web"}), "kubernetes.io/hostname"),))
    existing = [node("n0", cpu="4"), node("n1", cpu="4"),
                pod("loner", cpu="1", priority=1, node_name="n0", affinity=loner_terms),
                pod("big", cpu="4", priority=5, node_name="n1")]
    plan = run(existing, [pod("web", cpu="2", priority=100, labels={"app": "web"})])
    assert victims(plan) == [("Pod", "web", [("loner", "n0", 1)])]
    assert by_name(plan)["web"].node == "n0"


def test_equal_top_priority_and_count_the_smaller_priority_sum_wins():
    existing = [node("n0", cpu="2"), node("n1", cpu="2"),
                pod("a5", cpu="1", priority=5, node_name="n0"), pod("a3", cpu="1", priority=3, node_name="n0"),
                pod("b5", cpu="1", priority=5, node_name="n1"), pod("b1", cpu="1", priority=1, node_name="n1")]
    plan = run(existing, [pod("p", cpu="2", priority=100)])
    assert victims(plan) == [("Pod", "p", [("b1", "n1", 1), ("b5", "n1", 5)])]


def test_fewer_victims_win_over_a_lower_sum_of_raw_priorities():
    """Upstream offsets each victim's priority by 2^31 before summing, so one victim of priority 5 beats two
    victims of priorities 5 and -3 (raw sums 5 > 2)."""
    existing = [node("n0", cpu="2"), node("n1", cpu="2"),
                pod("one", cpu="2", priority=5, node_name="n0"),
                pod("x", cpu="1", priority=5, node_name="n1"), pod("y", cpu="1", priority=-3, node_name="n1")]
    plan = run(existing, [pod("p", cpu="2", priority=100)])
    assert victims(plan) == [("Pod", "p", [("one", "n0", 5)])]


def _started(p, at: str):
    p.start_time = f"2026-01-01T{at}:00Z"
    return p


def test_137_victim_order_puts_pod_group_pods_first_and_counts_a_whole_group(version="1.37"):
    """Generated case seed=24 (1.37, wap), reduced. v1.37.2 DefaultPreemption sorts victims with
    preemption.MoreImportantVictim: a PodGroup's pods (here a disruptionMode-all group, two pods across two
    nodes, and one member of a single-mode group) before a pod without a group, the larger unit first. The
    reprieve therefore keeps the all-group and evicts the other two, although the pod without a group started
    first (by start time alone it would be kept and the group evicted)."""
    cluster = [node("n1", cpu="1"), node("n2", cpu="3"),
               gang("a", 2, priority=0, disruption="all"), basic("s", priority=0, disruption="single"),
               _started(pod("solo", cpu="500m", priority=0, node_name="n2"), "01:02"),
               _started(pod("single-0", cpu="100m", priority=0, group="s", node_name="n2"), "01:09"),
               _started(pod("all-1", cpu="1", priority=0, group="a", node_name="n2"), "01:28"),
               _started(pod("all-0", cpu="100m", priority=0, group="a", node_name="n1"), "01:54")]
    plan = run(cluster, [pod("p", cpu="2", priority=1000, node_selector={"kubernetes.io/hostname": "n2"})],
               version=version)
    assert [(p.preemptor_name, sorted(v.name for v in p.victims)) for p in plan.preemptions] == \
        [("p", ["single-0", "solo"])]
    assert (by_name(plan)["p"].status, by_name(plan)["p"].node) == ("Bound", "n2")
    assert [by_name(plan)[n].status for n in ("all-0", "all-1")] == ["AlreadyBound"] * 2
