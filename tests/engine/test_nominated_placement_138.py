"""1.38's nominated-placement fast path (podGroupSchedulingPlacementAlgorithm and nominatedPlacement,
pkg/scheduler/algorithm_podgroup.go of v1.38.0-beta.0, #139472; engine/cycle/placement.py
search_nominated_first): a standalone PodGroup whose queued pods carry status.nominatedNodeName on nodes of
exactly one placement tries that placement first, and takes it when it places a new member, without scoring
the others. Two one-node racks in each case; every expectation is what the 1.38 oracle printed for the same
files (`oracle plan --k8s-version 1.38 --arrival batch`), and 1.37 (no fast path) is shown beside where it
differs.
"""

from __future__ import annotations

import pytest

from drascenes import plan


def _rack_nodes(cpu1: str, cpu2: str, extra: str = "") -> str:
    return f"""---
apiVersion: v1
kind: Node
metadata: {{name: n1, labels: {{kubernetes.io/hostname: n1, rack: r1}}}}
status: {{allocatable: {{cpu: "{cpu1}", memory: 8Gi, pods: "110"}}}}
---
apiVersion: v1
kind: Node
metadata: {{name: n2, labels: {{kubernetes.io/hostname: n2, rack: r2}}}}
status: {{allocatable: {{cpu: "{cpu2}", memory: 8Gi, pods: "110"}}}}
""" + extra


def _group(policy: str, constrained: bool = True) -> str:
    constraint = "\n  schedulingConstraints: {topology: [{key: rack}]}" if constrained else ""
    return f"""---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: g, namespace: default}}
spec:
  schedulingPolicy: {{{policy}}}{constraint}
"""


def _member(name: str, cpu: str, nominated: str | None = None, node: str | None = None) -> str:
    on = f"\n  nodeName: {node}" if node else ""
    status = f"\nstatus: {{nominatedNodeName: {nominated}}}" if nominated else ""
    return f"""---
apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: default}}
spec:{on}
  schedulingGroup: {{podGroupName: g}}
  containers: [{{name: c, image: x, resources: {{requests: {{cpu: "{cpu}"}}}}}}]{status}
"""


BUSY_N2 = """---
apiVersion: v1
kind: Pod
metadata: {name: busy, namespace: default}
spec:
  nodeName: n2
  containers: [{name: c, image: x, resources: {requests: {cpu: "4"}}}]
"""
DRA_DONE = "deallocation and deletion of ResourceClaims completed"  # a group without a topology constraint
NO_VICTIMS = "pod group preemption: No preemption victims found for incoming preemptor"
CASES = {
    # bin packing prefers the fuller rack r2; the nominated r1 is taken without scoring (1.37: r2)
    "nominated rack taken": (
        _rack_nodes("8", "8", BUSY_N2), _group("gang: {minCount: 2}") + _member("g-0", "1", "n1") + _member("g-1", "1"),
        {"g-0": ("Bound", "n1"), "g-1": ("Bound", "n1")}, ("Scheduled", "")),
    # the nominated rack is too small: the others are searched as usual
    "nominated rack too small": (
        _rack_nodes("2", "8"), _group("gang: {minCount: 2}") + _member("g-0", "2", "n1") + _member("g-1", "2"),
        {"g-0": ("Bound", "n2"), "g-1": ("Bound", "n2")}, ("Scheduled", "")),
    # the running member keeps the group in r1, where nothing new fits: upstream's own words for it
    "nominated rack holds nothing new": (
        _rack_nodes("2", "8", _member("g-0", "2", node="n1")), _group("basic: {}") + _member("g-1", "2", "n1"),
        {"g-1": ("Pending", None)},
        ("Unschedulable", "0/1 placements are available, first placement status: nominated placement is feasible "
                          f"but no pending pod was scheduled, {NO_VICTIMS}")),
    # without a constraint the group has one placement, every node: nominated, it holds nothing new either
    "the one placement holds nothing new": (
        _rack_nodes("2", "1", _member("g-0", "2", node="n1")), _group("basic: {}", False) + _member("g-1", "2", "n1"),
        {"g-1": ("Pending", None)},
        ("Unschedulable", "0/1 placements are available, first placement status: nominated placement is feasible "
                          f"but no pending pod was scheduled, {DRA_DONE}, {NO_VICTIMS}")),
    # no rack fits the gang: the status is the nominated rack's (r2), not the first rack's
    "no rack fits": (
        _rack_nodes("1", "4"), _group("gang: {minCount: 3}") + _member("g-0", "2", "n2") + _member("g-1", "2")
        + _member("g-2", "2"),
        {"g-0": ("Pending", None), "g-1": ("Pending", None), "g-2": ("Pending", None)},
        ("Unschedulable", "0/2 placements are available, first placement status: scheduling policy's minimum "
                          f"threshold (3) cannot be satisfied: 2 scheduled, 1 unschedulable, 0 not-evaluated, {NO_VICTIMS}")),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_nominated_placement_is_tried_first_as_1_38_does(tmp_path, case):
    cluster, manifests, placed, (status, message) = CASES[case]
    out = plan(tmp_path, cluster, manifests, "1.38", arrival="batch").plan.to_dict()
    assert {p["name"]: (p["status"], p["node"]) for p in out["pods"] if p["name"] in placed} == placed
    (group,) = out["podGroups"]
    assert (group["status"], group["message"]) == (status, message)


def test_1_37_scores_every_placement_whatever_the_pods_are_nominated_to(tmp_path):
    cluster, manifests, _, _ = CASES["nominated rack taken"]
    out = plan(tmp_path, cluster, manifests, "1.37", arrival="batch").plan.to_dict()
    assert {p["name"]: p["node"] for p in out["pods"]} == {"busy": "n2", "g-0": "n2", "g-1": "n2"}
