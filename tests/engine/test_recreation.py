"""Evictions tell the rest of the story (engine/preemption/recreation.py, cluster/reservations.py): the pods a preemption
deletes come back through their controller, and the plan says whether the cluster it leaves has room for them; a
group evicted whole is not reported Scheduled; reservedFor entries naming absent pods are dropped."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from builders import gang, node, pod
from enginehelp import by_name, groups, run

from tests.cli.helpers import run as cli
from wasplan.cluster.model import Owner

ROOT = Path(__file__).resolve().parents[2]
SCENE = ROOT / "fixtures" / "scenarios" / "eviction"
ARGS = (str(SCENE / "urgent.yaml"), "--cluster", str(SCENE / "cluster.yaml"))
STAYS = ("4 pods of job ml/lp evicted; the Job recreates them; they would stay pending: no node has room, and no "
         "lower-priority pod runs that could be preempted for them")


def test_a_gang_evicted_whole_is_not_scheduled_and_its_job_recreates_it_in_vain():
    result = cli("plan", *ARGS, "-o", "json")
    assert result.exit_code == 0  # every input pod is placed; evictions fail only --fail-on preemption
    doc = json.loads(result.stdout)
    lp = next(g for g in doc["podGroups"] if g["name"] == "lp")
    assert (lp["status"], lp["reason"], lp["message"]) == ("Unschedulable", "PreemptionByScheduler", STAYS)
    assert doc["recreations"] == [{"owner": {"namespace": "ml", "kind": "Job", "name": "lp"},
                                   "pods": ["ml/lp-0", "ml/lp-1", "ml/lp-2", "ml/lp-3"], "wouldFit": 0,
                                   "lowerPriorityRunning": False, "message": STAYS}]
    text = cli("plan", *ARGS, env={"COLUMNS": "200"})
    lines = text.stdout.splitlines()
    assert "ml/lp      gang    4         0/4     Unschedulable  -          -" in lines
    assert f"  {STAYS}" in lines
    assert lines[-1] == "Every pod of the input is placed; 4 recreated replacements of evicted pods would not be (see Preemptions)."


def _job_pod(name: str, node_name: str, gpu: str = "4", priority: int = 10):
    p = pod(name, cpu="1", gpu=gpu, priority=priority, node_name=node_name, namespace="ml")
    p.owner = Owner("Job", "lp")
    return p


def test_replacements_that_fit_elsewhere_are_counted_and_a_lower_priority_pod_is_named():
    existing = [node("n0", gpu="8"), node("n1", gpu="4"),
                _job_pod("lp-0", "n0"), _job_pod("lp-1", "n0"),
                pod("tiny", cpu="1", priority=1, node_name="n1", namespace="ml")]
    plan = run(existing, [pod("urgent", cpu="1", gpu="8", priority=1000, namespace="ml")])
    assert [(p.name, p.status) for p in plan.pods] == [("lp-0", "Preempted"), ("lp-1", "Preempted"),
                                                        ("tiny", "AlreadyBound"), ("urgent", "Bound")]
    [again] = plan.recreations
    assert (again.would_fit, again.can_preempt) == (1, True)
    assert again.message == ("2 pods of job ml/lp evicted; the Job recreates them; 1 would fit again on the cluster "
                             "the plan leaves, 1 would stay pending unless it preempts lower-priority pods in turn")


def test_a_deployments_pod_names_its_replicaset_and_a_gang_needs_its_quorum_to_fit_again():
    web = pod("web-abc-0", cpu="4", priority=0, node_name="n0")
    web.owner = Owner("Deployment", "web", (Owner("ReplicaSet", "web-abc"),))
    batch = [pod(f"b-{i}", cpu="2", priority=0, group="b", node_name="n1") for i in range(2)]
    for p in batch:
        p.owner = Owner("Job", "b")
    existing = [node("n0", cpu="4"), node("n1", cpu="4"), node("n2", cpu="2"),
                gang("b", 2, priority=0, disruption="all"), web, *batch]
    plan = run(existing, [gang("g", 2, priority=100),
                          *(pod(f"g-{i}", cpu="4", priority=100, group="g") for i in range(2))])
    assert {p.name: p.status for p in plan.pods if p.status == "Preempted"} == {"web-abc-0": "Preempted",
                                                                                "b-0": "Preempted", "b-1": "Preempted"}
    messages = [r.message for r in plan.recreations]
    assert messages == [
        "1 pod of deployment default/web evicted; its ReplicaSet web-abc recreates it; it would stay pending: no node "
        "has room, and no lower-priority pod runs that could be preempted for it",
        "2 pods of job default/b evicted; the Job recreates them; they would stay pending: no node has room, and no "
        "lower-priority pod runs that could be preempted for them"]
    assert [r.would_fit for r in plan.recreations] == [0, 0]  # n2 has room for one b pod, not for minCount 2
    assert groups(plan)["b"].status == "Unschedulable"
    assert by_name(plan)["g-0"].status == "Bound"


def test_a_bare_pod_is_not_recreated():
    existing = [node("n0", cpu="4"), pod("lone", cpu="4", priority=0, node_name="n0")]
    plan = run(existing, [pod("urgent", cpu="4", priority=100)])
    assert by_name(plan)["lone"].status == "Preempted" and plan.recreations == ()


ONE_GPU = ROOT / "fixtures" / "scenarios" / "stale-reservation"


def test_a_reservation_for_a_pod_that_is_gone_is_dropped_and_frees_the_device(tmp_path):
    after = tmp_path / "after.yaml"
    first = cli("plan", str(ONE_GPU / "trainer-a.yaml"), "--cluster", str(ONE_GPU / "cluster.yaml"),
                "--emit-snapshot", str(after))
    assert first.exit_code == 0
    snapshot = yaml.safe_load(after.read_text())
    snapshot["items"] = [i for i in snapshot["items"] if i["kind"] != "Pod"]  # trainer-a finished and is gone
    after.write_text(yaml.safe_dump(snapshot, sort_keys=False))
    second = cli("plan", str(ONE_GPU / "trainer-b.yaml"), "--cluster", str(after), "-o", "json")
    assert second.exit_code == 0
    doc = json.loads(second.stdout)
    assert [(p["name"], p["status"], p["node"]) for p in doc["pods"]] == [("trainer-b", "Bound", "gpu-0")]
    old = next(c for c in doc["resourceClaims"] if c["name"].startswith("trainer-a"))
    assert (old["status"], old["reservedFor"], old["devices"]) == ("Pending", [], [])
    assert " ".join(second.stderr.split()).split(": info WAS663 ")[1].startswith(
        f"ResourceClaim ml/{old['name']} is reserved for pod(s) not in the inputs (ml/trainer-a): the resourceclaim "
        "controller drops such entries; no consumer is left, so the controller deallocates it")


def test_no_room_but_a_lower_priority_pod_runs_says_they_might_preempt_in_turn():
    existing = [node("n0", gpu="8"), node("n1", cpu="2"),
                _job_pod("lp-0", "n0"), _job_pod("lp-1", "n0"),
                pod("tiny", cpu="1", priority=1, node_name="n1", namespace="ml")]
    plan = run(existing, [pod("urgent", cpu="1", gpu="8", priority=1000, namespace="ml")])
    [again] = plan.recreations
    assert (again.would_fit, again.can_preempt) == (0, True)
    assert again.message == ("2 pods of job ml/lp evicted; the Job recreates them; no node has room for them: they "
                             "would stay pending unless they preempt lower-priority pods in turn")
