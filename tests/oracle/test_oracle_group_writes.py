"""The oracle where its fake API server used to differ from a real one for 1.37 groups (generated seeds 58, 59,
27 and 30); the cases are tests/engine/test_gang_after_success.py's, whose wasplan results upstream must give.

- A patch through the fake clientset kept the stored resourceVersion, and the scheduler's informer handlers
  drop an update whose version did not change (pkg/scheduler/eventhandlers.go updatePod, updatePodGroup): the
  scheduler never saw its own PodGroup status patches, so a later cycle for a leftover member turned the True
  condition False (updatePodGroupCondition guards against that only on what it has seen), and it never saw the
  nominatedNodeName it wrote on a preemptor, so the members of a preempting gang were scored afresh instead
  of trying their nominated nodes first (oracle/core/versions.go versionedTracker).
- A pod created in a group whose entity waits in the error backoff was never tried: the driver waited out a
  backoff only when something had been freed since the entity's last attempt (oracle/core/drive.go
  neverTried).
- Gang members that Permit had allowed but whose binding goroutine had not yet left WaitOnPermit counted as
  waiting at Permit, so the run could look settled with their bindings still to come and the plan read them
  unbound (drive.go waitingAtPermit). That one is a race, so its test plans the gang several times.
"""

from __future__ import annotations

import pytest

from tests.engine.test_gang_after_success import NO_SSD, write_case
from tests.oracle.conftest import oracle_plan

NODES = "---\n".join(f"""apiVersion: v1
kind: Node
metadata:
  name: n{i}
  labels: {{kubernetes.io/hostname: n{i}}}
status:
  capacity: {{cpu: '2', memory: 4Gi, pods: '110'}}
  allocatable: {{cpu: '2', memory: 4Gi, pods: '110'}}
""" for i in range(4))

GANG_OF_FOUR = "---\n".join(["""apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: train, namespace: default}
spec:
  schedulingPolicy:
    gang: {minCount: 4}
""", *(f"""apiVersion: v1
kind: Pod
metadata: {{name: train-{i}, namespace: default}}
spec:
  containers:
  - name: main
    image: example.com/train:1
    resources:
      requests: {{cpu: '1'}}
  schedulingGroup: {{podGroupName: train}}
""" for i in range(4))])


def _plan(oracle_bin, tmp_path, name: str, arrival: str) -> dict:
    m, c = write_case(tmp_path, name)
    run = oracle_plan(oracle_bin, [m], [c], "1.37", arrival=arrival)
    assert run.returncode in (0, 1), run.stderr
    return run.json


def _group(plan: dict, name: str) -> tuple:
    [g] = [g for g in plan["podGroups"] if g["name"] == name]
    return g["status"], g["condition"]["status"], g["condition"]["reason"]


@pytest.mark.parametrize("arrival", ["batch", "sequential"])
def test_the_scheduler_sees_its_condition_patch_and_keeps_the_gang_scheduled(oracle_bin, tmp_path, arrival):
    plan = _plan(oracle_bin, tmp_path, "leftover-gang", arrival)
    assert {p["name"]: (p["status"], p["node"]) for p in plan["pods"]} == {
        "train-0": ("Bound", "n1"), "train-1": ("Bound", "n1"), "train-2": ("Pending", None)}
    assert _group(plan, "train") == ("Scheduled", "True", "Scheduled")


def test_a_member_created_while_its_group_backs_off_is_tried(oracle_bin, tmp_path):
    plan = _plan(oracle_bin, tmp_path, "joining-member", "sequential")
    assert {p["name"]: (p["status"], p["node"], p["message"]) for p in plan["pods"]} == {
        "web-0": ("Pending", None, NO_SSD), "web-1": ("Bound", "n1", "Successfully assigned default/web-1 to n1")}
    assert _group(plan, "web") == ("Scheduled", "True", "Scheduled")
    # the member's creation moves the backing-off entity to the activeQ at once (core/retries.go: the move
    # upstream's flush makes once the backoff completes), so nothing is waited out on the clock
    assert plan["oracle"].get("backoffWaits", 0) == 0 and "watchdog" not in plan["oracle"]


@pytest.mark.parametrize("arrival", ["batch", "sequential"])
def test_preempting_gang_members_try_the_nominated_node_the_scheduler_saw_written(oracle_bin, tmp_path, arrival):
    plan = _plan(oracle_bin, tmp_path, "preempting-gang", arrival)
    members = {p["name"]: (p["status"], p["node"], p["nominatedNode"], p["tiedNodes"]) for p in plan["pods"]
               if p["name"].startswith("urgent-")}
    # a nominated node that passes the filters is taken without scoring: it is its own tie set
    assert members == {"urgent-0": ("Bound", "n2", "n2", ["n2"]), "urgent-1": ("Bound", "n0", "n0", ["n0"]),
                       "urgent-2": ("Bound", "n1", "n1", ["n1"])}
    assert [(e["preemptor"]["name"], [v["name"] for v in e["victims"]]) for e in plan["preemptions"]] == \
        [("urgent", ["batch"])]


def test_allowed_gang_members_are_bound_before_the_run_ends(oracle_bin, tmp_path):
    (tmp_path / "gang.yaml").write_text(GANG_OF_FOUR)
    (tmp_path / "nodes.yaml").write_text(NODES)
    for _ in range(8):  # the window was hit in about one run in five
        run = oracle_plan(oracle_bin, [tmp_path / "gang.yaml"], [tmp_path / "nodes.yaml"], "1.37", arrival="batch")
        assert run.returncode == 0, run.stderr
        assert [p["status"] for p in run.json["pods"]] == ["Bound"] * 4
