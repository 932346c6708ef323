"""The oracle's driver where it used to fall short of upstream (oracle/core/retries.go, noop.go): each test plans
a small input with the built binary and with wasplan and asserts what upstream's code does there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.engine.drascenes import CLUSTER, ERRING_THEN_FILLED, ERRING_WORKER, UNSERVED_BASIC_GROUP, plan, pods
from tests.oracle.conftest import oracle_plan


def _both(oracle_bin: Path, tmp_path: Path, manifests: str, cluster: str, arrival: str, gates: str | None,
          version: str = "1.37"):
    (tmp_path / "m.yaml").write_text(manifests)
    (tmp_path / "c.yaml").write_text(cluster)
    run = oracle_plan(oracle_bin, [tmp_path / "m.yaml"], [tmp_path / "c.yaml"], version, gates=gates,
                      arrival=arrival)
    assert run.returncode in (0, 1), run.stderr
    (tmp_path / "wasplan").mkdir()
    return json.loads(run.stdout), plan(tmp_path / "wasplan", cluster, manifests, version, gates, arrival=arrival)


def test_members_arriving_after_a_failed_group_attempt_are_attempted(oracle_bin, tmp_path):
    # upstream adds each later member to the queued group and requeues the group after its backoff
    # (backend/queue scheduling_queue.go addPodGroupMember, requeueEntityWithQueueingStrategy); the oracle
    # used to leave m-1 and m-2 never attempted (Gated)
    theirs, ours = _both(oracle_bin, tmp_path, UNSERVED_BASIC_GROUP, CLUSTER, "sequential",
                         "DRAWorkloadResourceClaims=true")
    failure = "0/2 nodes are available: 2 cannot allocate all claims."
    expected = {f"m-{i}": ("Pending", failure) for i in range(3)}
    assert {p["name"]: (p["status"], p["message"]) for p in theirs["pods"]} == expected
    # each arrival was a retry at once, not a wait for the backoff on the real clock
    assert theirs["oracle"].get("backoffWaits", 0) == 0 and "watchdog" not in theirs["oracle"]
    assert {name: (status, message) for name, (status, _, message) in pods(ours).items()} == expected


NODE_FOR_TWO = """apiVersion: v1
kind: Node
metadata: {name: n0, labels: {kubernetes.io/hostname: n0}}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "110"}, capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
"""
GANG_OF_THREE = """apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: team, namespace: default}
spec:
  schedulingPolicy: {gang: {minCount: 2}}
""" + "".join(f"""---
apiVersion: v1
kind: Pod
metadata: {{name: m-{i}, namespace: default}}
spec:
  schedulingGroup: {{podGroupName: team}}
  containers: [{{name: main, image: app:1, resources: {{requests: {{cpu: "1"}}}}}}]
""" for i in range(3))


def test_scheduled_gang_keeps_its_condition_when_the_member_left_over_fails(oracle_bin, tmp_path):
    # m-0 and m-1 satisfy minCount and bind; m-2 fails in the next cycle, whose PodGroupInitiallyScheduled=False
    # upstream does not write over True (schedule_one_podgroup.go updatePodGroupCondition reads the PodGroup of
    # the snapshot). The oracle's patch kept the stored resourceVersion, the scheduler's handler dropped the
    # update (eventhandlers.go updatePodGroup), and the later cycle wrote False.
    theirs, ours = _both(oracle_bin, tmp_path, GANG_OF_THREE, NODE_FOR_TWO, "batch", None)
    assert [(g["name"], g["status"], g["condition"]) for g in theirs["podGroups"]] == [
        ("team", "Scheduled", {"type": "PodGroupInitiallyScheduled", "status": "True", "reason": "Scheduled"})]
    assert [(g.name, g.status.value) for g in ours.plan.pod_groups] == [("team", "Scheduled")]
    expected = {"m-0": ("Bound", "n0"), "m-1": ("Bound", "n0"), "m-2": ("Pending", None)}
    assert {p["name"]: (p["status"], p["node"]) for p in theirs["pods"]} == expected
    assert {name: (status, node) for name, (status, node, _) in pods(ours).items()} == expected
    [left] = [p for p in theirs["pods"] if p["name"] == "m-2"]
    assert left["message"] == pods(ours)["m-2"][2] == "0/1 nodes are available: 1 Insufficient cpu."


@pytest.mark.parametrize("version", ["1.36", "1.37"])
@pytest.mark.parametrize("arrival", ["sequential", "batch"])
def test_pod_whose_filter_erred_is_retried_after_a_binding(oracle_bin, tmp_path, version, arrival):
    # p's attempt ends in a CEL runtime error on worker and waits in the error backoff, which upstream flushes
    # whatever happened; once filler has taken worker's cpu the retry binds p on worker-2. The oracle used to
    # retry it only after a deletion, leaving p Pending with the error.
    theirs, ours = _both(oracle_bin, tmp_path, ERRING_THEN_FILLED, ERRING_WORKER, arrival, None, version)
    expected = {"p": ("Bound", "worker-2"), "filler": ("Bound", "worker")}
    assert {p["name"]: (p["status"], p["node"]) for p in theirs["pods"]} == expected
    assert {name: (status, node) for name, (status, node, _) in pods(ours).items()} == expected
    assert "watchdog" not in theirs["oracle"]
