"""The comparison itself, without Go: wasplan agrees with itself on generated cases, and oracle-shaped plans
written by hand show each kind of difference (status, node outside the tie set, victims, claims, groups) and
the tie rule (a node among the oracle's tiedNodes agrees; the rest is then compared on outcomes only)."""

from __future__ import annotations

import copy

import pytest

import compare
import gen


@pytest.mark.parametrize("release", gen.RELEASES)
def test_wasplan_agrees_with_itself(release, tmp_path):
    for seed in range(len(gen.themes_for(release))):
        case = gen.generate(seed, release, None, gen.themes_for(release)[seed])
        manifests, cluster = case.write(tmp_path / str(seed))
        plan = compare.run_wasplan(manifests, cluster, release, case.arrival, case.gates)
        again = compare.run_wasplan(manifests, cluster, release, case.arrival, case.gates)
        result = compare.compare(plan, again)
        assert (result.differences, result.tied) == ([], False), case.label


def _pod(name, status, node=None, **extra):
    return {"namespace": "default", "name": name, "status": status, "node": node, "nominatedNode": None, **extra}


BASE = {
    "pods": [_pod("a", "Bound", "n1"), _pod("b", "Bound", "n2"), _pod("c", "Pending", message="0/3 nodes ..."),
             _pod("v", "Preempted")],
    "podGroups": [{"namespace": "default", "name": "g", "status": "Scheduled",
                   "condition": {"type": "PodGroupInitiallyScheduled", "status": "True", "reason": "Scheduled"}}],
    "preemptions": [{"preemptor": {"kind": "Pod", "namespace": "default", "name": "b"},
                     "victims": [{"namespace": "default", "name": "v", "node": "n2", "priority": 10}]}],
    "resourceClaims": [{"namespace": "default", "name": "cl", "status": "Allocated", "node": "n1",
                        "devices": [{"request": "r0", "driver": "d", "pool": "n1", "device": "gpu-0"}]}],
}


def _oracle(**changes):
    plan = copy.deepcopy(BASE)
    for pod in plan["pods"]:
        pod.update(changes.get(pod["name"], {}))
    return plan


def test_same_plan_agrees():
    result = compare.compare(BASE, _oracle())
    assert (result.differences, result.tied) == ([], False)


def test_node_in_tied_nodes_is_a_tie_and_outcomes_are_compared():
    result = compare.compare(BASE, _oracle(a={"node": "n3", "tiedNodes": ["n1", "n3"]}))
    assert result.differences == [] and result.tied
    assert result.ties == ["pod default/a: wasplan n1, oracle n3 (tied: n1, n3)"]
    upstream = _oracle(a={"node": "n3", "tiedNodes": ["n1", "n3"]}, c={"status": "Bound", "node": "n1"})
    assert compare.compare(BASE, upstream).differences == [
        "pods outcomes (after a tie went another way): wasplan {'Bound': 2, 'Pending': 1, 'Preempted': 1}, "
        "oracle {'Bound': 3, 'Preempted': 1}"]


def test_node_outside_tied_nodes_differs():
    result = compare.compare(BASE, _oracle(a={"node": "n3", "tiedNodes": ["n3"]}))
    assert result.differences == ["pod default/a: node wasplan n1, oracle n3 (tied: n3)"] and not result.tied


def test_status_group_victims_and_claims_differ():
    upstream = _oracle(c={"status": "Gated"})
    upstream["podGroups"][0].update(status="Unschedulable", condition={"type": "PodGroupInitiallyScheduled",
                                                                        "status": "False", "reason": "Unschedulable"})
    upstream["preemptions"][0]["victims"].append({"namespace": "default", "name": "w", "node": "n2"})
    upstream["resourceClaims"][0].update(status="Pending", node=None, devices=[])
    assert compare.compare(BASE, upstream).differences == [
        "pod default/c: status wasplan Pending (0/3 nodes ...), oracle Gated (0/3 nodes ...)",
        "podGroup default/g: status wasplan True Scheduled, oracle False Unschedulable",
        "preemption by Pod default/b: victims wasplan ['default/v'], oracle ['default/v', 'default/w']",
        "claim default/cl: wasplan 1 device(s) on n1, oracle not allocated",
    ]


def test_groups_compare_by_the_condition_the_scheduler_wrote():
    """A group whose pods ran before the plan: neither scheduler wrote a condition, wasplan says Scheduled, the
    oracle WaitingForPods: they agree; a condition on one side only, or a different one, is a difference."""
    ran = {"namespace": "default", "name": "run", "status": "Scheduled", "condition": None}
    ours = {**copy.deepcopy(BASE), "podGroups": [ran], "compositePodGroups": [{**ran, "name": "root"}]}
    upstream = copy.deepcopy(ours)
    for group in (*upstream["podGroups"], *upstream["compositePodGroups"]):
        group["status"] = "WaitingForPods"
    assert compare.compare(ours, upstream).differences == []
    upstream["podGroups"][0].update(status="Unschedulable", condition={"type": "PodGroupInitiallyScheduled",
                                                                        "status": "False", "reason": "Unschedulable"})
    assert compare.compare(ours, upstream).differences == [
        "podGroup default/run: status wasplan (no condition), oracle False Unschedulable"]
    evicted = {**ran, "status": "Unschedulable", "condition": {"type": "PodGroupInitiallyScheduled", "status": "True",
                                                               "reason": "Scheduled"}}
    kept = {**evicted, "status": "Scheduled"}
    assert compare.compare({**ours, "podGroups": [evicted]}, {**ours, "podGroups": [kept]}).differences == []


def test_nominated_node_and_missing_pod_differ():
    upstream = _oracle(c={"nominatedNode": "n2"})
    upstream["pods"].pop(0)
    assert compare.compare(BASE, upstream).differences == [
        "pod default/a: only in wasplan", "pod default/c: nominated node wasplan None, oracle n2"]


def test_describe_keeps_both_plans(tmp_path):
    result = compare.compare(BASE, _oracle(a={"node": "n3"}))
    text = compare.describe("seed=1", tmp_path, result, BASE, _oracle(a={"node": "n3"}))
    assert text.splitlines()[:3] == [
        "wasplan and the oracle disagree: seed=1",
        f"  files: {tmp_path}/manifests.yaml --cluster {tmp_path}/cluster.yaml",
        "  - pod default/a: node wasplan n1, oracle n3 (tied: none)"]
    assert (tmp_path / "oracle.json").exists() and (tmp_path / "wasplan.json").exists()


def _placed(nodes: dict[str, str], tied=None, chosen="rack-1") -> dict:
    """A plan with a topology-aware group `train` whose members sit on `nodes`."""
    group = {"namespace": "default", "name": "train", "status": "Scheduled", "pods": [f"default/{p}" for p in nodes],
             "placement": {"topologyKey": "example.com/rack", "domain": chosen},
             "condition": {"type": "PodGroupInitiallyScheduled", "status": "True", "reason": "Scheduled"}}
    if tied:
        group["tiedPlacements"] = [{"name": name, "nodes": members} for name, members in tied.items()]
    return {"pods": [_pod(p, "Bound", n) for p, n in nodes.items()], "podGroups": [group]}


RACKS = {"rack-1": ["r1-a", "r1-b"], "rack-2": ["r2-a", "r2-b"]}


def test_group_in_a_tied_placement_is_a_tie():
    ours = _placed({"t-0": "r1-a", "t-1": "r1-b"})
    theirs = _placed({"t-0": "r2-a", "t-1": "r2-b"}, tied=RACKS, chosen="rack-2")
    result = compare.compare(ours, theirs)
    assert result.differences == [] and result.tied
    assert result.ties == ["podGroup default/train: wasplan placed it in rack-1, the oracle elsewhere "
                           "(tied placements: rack-1, rack-2)"]


def test_group_outside_the_tied_placements_differs():
    ours = _placed({"t-0": "r1-a", "t-1": "r3-a"})  # split over two racks: no tied placement holds both
    theirs = _placed({"t-0": "r2-a", "t-1": "r2-b"}, tied=RACKS, chosen="rack-2")
    result = compare.compare(ours, theirs)
    assert not result.tied
    assert result.differences == ["pod default/t-0: node wasplan r1-a, oracle r2-a (tied: none)",
                                  "pod default/t-1: node wasplan r3-a, oracle r2-b (tied: none)"]
def _gang_plan(release: str, nodes: dict[str, str]) -> dict:
    pods = [_pod(name, "Bound", node) for name, node in nodes.items()]
    group = {"namespace": "default", "name": "g", "policy": "gang", "minCount": len(nodes),
             "pods": [f"default/{name}" for name in nodes], "status": "Scheduled",
             "condition": {"type": "PodGroupScheduled", "status": "True", "reason": "Scheduled"}}
    return {"k8sVersion": release, "pods": pods, "podGroups": [group], "preemptions": [], "resourceClaims": []}


def test_a_1_36_gang_on_the_same_nodes_in_another_member_order_is_a_tie():
    ours = _gang_plan("1.36", {"g-0": "n0", "g-1": "n3", "g-2": "n0"})
    result = compare.compare(ours, _gang_plan("1.36", {"g-0": "n3", "g-1": "n0", "g-2": "n0"}))
    assert (result.differences, result.tied) == ([], True)
    assert result.ties == ["podGroup default/g: members in another order on the same nodes "
                           "(default/g-0 wasplan n0, oracle n3, default/g-1 wasplan n3, oracle n0)"]


def test_a_gang_on_other_nodes_or_in_1_37_is_still_a_difference():
    ours = _gang_plan("1.36", {"g-0": "n0", "g-1": "n3", "g-2": "n0"})
    other_nodes = compare.compare(ours, _gang_plan("1.36", {"g-0": "n3", "g-1": "n3", "g-2": "n0"}))
    assert other_nodes.differences == ["pod default/g-0: node wasplan n0, oracle n3 (tied: none)"]
    swapped = {"g-0": "n3", "g-1": "n0", "g-2": "n0"}
    later = compare.compare(_gang_plan("1.37", {"g-0": "n0", "g-1": "n3", "g-2": "n0"}), _gang_plan("1.37", swapped))
    assert later.differences == ["pod default/g-0: node wasplan n0, oracle n3 (tied: none)",
                                 "pod default/g-1: node wasplan n3, oracle n0 (tied: none)"]


def _tied_blocks(drawn: str, victims: list[str], tied=("block-0", "block-1")) -> tuple[dict, dict]:
    """wasplan carries out block-0 (evicting v0, v1) and names block-1 (evicting v2); the oracle drew `drawn`."""
    alternatives = [{"placement": "k=block-0", "nodes": ["b0"], "victims": ["default/v0", "default/v1"], "chosen": True},
                    {"placement": "k=block-1", "nodes": ["b1"], "victims": ["default/v2"], "chosen": False}]
    group = {"namespace": "default", "name": "g", "status": "Scheduled", "pods": ["default/m"],
             "condition": {"type": "PodGroupInitiallyScheduled", "status": "True", "reason": "Scheduled"}}
    gone = {"default/v0", "default/v1"}
    ours = {"pods": [_pod("m", "Bound", "b0"), *(_pod(v, "Preempted" if f"default/{v}" in gone else "AlreadyBound",
                                                     None) for v in ("v0", "v1", "v2"))],
            "podGroups": [{**group, "alternatives": alternatives}],
            "preemptions": [{"preemptor": {"kind": "PodGroup", "namespace": "default", "name": "g"},
                             "victims": [{"namespace": "default", "name": n} for n in ("v0", "v1")]}]}
    theirs = {"pods": [_pod("m", "Bound", "b0" if drawn == "block-0" else "b1"),
                       *(_pod(v, "Preempted" if f"default/{v}" in victims else "AlreadyBound", None)
                         for v in ("v0", "v1", "v2"))],
              "podGroups": [{**group, "tiedPlacements": [{"name": n, "nodes": [f"b{n[-1]}"]} for n in tied]}],
              "preemptions": [{"preemptor": {"kind": "PodGroup", "namespace": "default", "name": "g"},
                               "victims": [{"namespace": "default", "name": v.partition("/")[2]} for v in victims]}]}
    return ours, theirs


def test_oracle_drawing_another_named_alternative_agrees():
    result = compare.compare(*_tied_blocks("block-1", ["default/v2"]))
    assert result.agree, result.differences
    assert result.tied and result.ties[0] == "podGroup default/g: the oracle drew k=block-1, wasplan carries out k=block-0"


def test_alternative_with_other_victims_than_the_oracle_differs():
    result = compare.compare(*_tied_blocks("block-1", ["default/v0"]))
    assert "podGroup default/g: the oracle drew k=block-1, whose victims wasplan gives as ['default/v2'], " \
           "oracle ['default/v0']" in result.differences


def test_tied_placements_must_be_the_oracles_tie_set():
    result = compare.compare(*_tied_blocks("block-0", ["default/v0", "default/v1"], tied=("block-0", "block-2")))
    assert result.differences == ["podGroup default/g: tied placements wasplan ['block-0', 'block-1'], "
                                  "oracle ['block-0', 'block-2']"]


def _tied_candidates(drawn_node: str, drawn_victims: list[str]) -> tuple[dict, dict]:
    """wasplan's p preempts on n1 (evicting v1, which the plan bound itself) and names n2 (evicting v2) as a
    tied candidate; the oracle nominated p on `drawn_node` and evicted `drawn_victims`."""
    alternatives = [{"node": "n1", "victims": ["default/v1"], "chosen": True},
                    {"node": "n2", "victims": ["default/v2"], "chosen": False}]
    ours = {"pods": [_pod("p", "Bound", "n1", nominatedNode="n1"), _pod("v1", "Preempted", "n1"),
                     _pod("v2", "Bound", "n2")],
            "preemptions": [{"preemptor": {"kind": "Pod", "namespace": "default", "name": "p"},
                             "victims": [{"namespace": "default", "name": "v1"}], "alternatives": alternatives}]}
    theirs = {"pods": [_pod("p", "Bound", drawn_node, nominatedNode=drawn_node),
                       *(_pod(v, "Preempted" if f"default/{v}" in drawn_victims else "Bound", v.replace("v", "n"))
                         for v in ("v1", "v2"))],
              "preemptions": [{"preemptor": {"kind": "Pod", "namespace": "default", "name": "p"},
                               "victims": [{"namespace": "default", "name": v.partition("/")[2]}
                                           for v in drawn_victims]}]}
    return ours, theirs


def test_oracle_drawing_another_tied_preemption_candidate_agrees():
    """Generated seed 48 (1.38 sequential, preempt): upstream's dry run starts at a random node, so between
    candidates tied to the last criterion it keeps another one in some runs; wasplan names them all."""
    result = compare.compare(*_tied_candidates("n2", ["default/v2"]))
    assert result.agree, result.differences
    assert result.ties == ["pod default/p: the oracle drew the preemption candidate n2, wasplan carries out n1"]
    same = compare.compare(*_tied_candidates("n1", ["default/v1"]))
    assert (same.differences, same.tied) == ([], False)


def test_oracle_preempting_outside_the_named_candidates_differs():
    """On n2 but with n1's victims: no named candidate evicts that, so it is no tie but a difference."""
    result = compare.compare(*_tied_candidates("n2", ["default/v1"]))
    assert (result.differences, result.tied) == (["pod default/p: node wasplan n1, oracle n2 (tied: none)"], False)
