"""Workload-aware preemption's node ranking (1.38 RankNodes) counts a victim's PDB violations pod by pod.

Upstream (framework/preemption/util.go FilterVictimsWithPDBViolation: ViolateCount, the victim's pods that break
a budget; manager.go prepareDomainVictims; CompareVictimSets adds NumPDBViolations over a node's victims;
v1.38.0-beta.0; DefaultPreemption's SelectVictimsOnNode adds ViolateCount the same way in v1.37.2): on n0 the
disruptionMode-all group `pair` (2 pods, both guarded by a budget allowing no disruption) counts 2 violations,
on n1 three standalone pods of which one is guarded count 1, so the gang `solo` goes to n1 and evicts its three
pods, though n0's set has fewer pods. wasplan counted one violation per victim unit, tied the nodes on
violations and took n0 for its fewer pods. 1.37 scores the emptied cluster instead (no ranking) and evicts
`pair`. Both plans are the 1.37 and 1.38 oracles' (tests/oracle, recorded here).
"""

from __future__ import annotations

import pytest

from scaffold import node, plan_json, pod, priority_classes, stream
from wasplan.engine.preemption.ranknodes import VictimCost, compare_victim_sets

START = "2026-01-01T00:00:00Z"


def member(name: str) -> str:
    """A running pod of the disruptionMode-all group `pair` on n0."""
    return pod(name, "2", node="n0", priority="low", app="pair", started=START).replace(
        "spec:\n", "spec:\n  schedulingGroup: {podGroupName: pair}\n", 1)


def budget(name: str, min_available: int) -> str:
    return (f"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {{name: {name}, namespace: default}}\n"
            f"spec: {{minAvailable: {min_available}, selector: {{matchLabels: {{app: {name}}}}}}}\n")


CLUSTER = stream(node("n0", "4", "16Gi"), node("n1", "4", "16Gi"), priority_classes(high=1000, low=5), """\
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: pair, namespace: default}
spec:
  priorityClassName: low
  disruptionMode: {all: {}}
  schedulingPolicy: {gang: {minCount: 2}}
""", member("pair-0"), member("pair-1"), budget("pair", 2),
                 pod("solo-a", "1", node="n1", priority="low", app="guarded", started=START),
                 pod("solo-b", "1", node="n1", priority="low", started=START),
                 pod("solo-c", "2", node="n1", priority="low", started=START), budget("guarded", 1))

MANIFESTS = stream("""\
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: solo, namespace: default}
spec:
  priorityClassName: high
  schedulingPolicy: {gang: {minCount: 1}}
""", pod("solo-0", "4", priority="high").replace("spec:\n", "spec:\n  schedulingGroup: {podGroupName: solo}\n", 1))

ON_N0 = {"pair-0": ("Preempted", "n0"), "pair-1": ("Preempted", "n0"), "solo-0": ("Bound", "n0"),
         "solo-a": ("AlreadyBound", "n1"), "solo-b": ("AlreadyBound", "n1"), "solo-c": ("AlreadyBound", "n1")}
ON_N1 = {"pair-0": ("AlreadyBound", "n0"), "pair-1": ("AlreadyBound", "n0"), "solo-0": ("Bound", "n1"),
         "solo-a": ("Preempted", "n1"), "solo-b": ("Preempted", "n1"), "solo-c": ("Preempted", "n1")}


@pytest.mark.parametrize(("release", "expected"), [("1.37", ON_N0), ("1.38", ON_N1)])
def test_a_group_victim_counts_each_pod_that_breaks_a_budget(tmp_path, release, expected):
    doc = plan_json(tmp_path, CLUSTER, MANIFESTS, "--k8s-version", release, "--arrival", "batch")
    assert {p["name"]: (p["status"], p["node"]) for p in doc["pods"]} == expected
    (preemption,) = doc["preemptions"]
    assert preemption["preemptor"] == {"kind": "PodGroup", "namespace": "default", "name": "solo"}


def test_two_violating_pods_of_one_unit_outweigh_one_violating_pod():
    pair = [VictimCost(priority=5, type_rank=2, pods=2, pdb_violations=2)]
    singles = [VictimCost(5, 1, 1, 1), VictimCost(5, 1, 1, 0), VictimCost(5, 1, 1, 0)]
    assert compare_victim_sets(singles, pair) < 0 < compare_victim_sets(pair, singles)
