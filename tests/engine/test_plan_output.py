"""The Plan contract (DESIGN.md §4) and chaining plans through the cluster after the plan."""

import json

from builders import gang, node, pod, pods
from enginehelp import options, run

from wasplan.cluster.model import PlanInputs
from wasplan.cluster.snapshot_objects import snapshot_objects
from wasplan.engine.simulator import simulate
from wasplan.report.plan_json import render_plan_json, render_plan_yaml

CLUSTER = [node(f"n{i}", cpu="4", gpu=2) for i in range(3)]


def test_contract_fields_and_pod_order():
    plan = run([*CLUSTER, pod("z-running", cpu="1", node_name="n1")],
               [gang("g", 2), *pods("g", 2, gpu=2, group="g"), pod("a", namespace="team", cpu="64")])
    doc = json.loads(render_plan_json(plan))
    assert list(doc) == ["apiVersion", "kind", "k8sVersion", "summary", "podGroups", "pods", "preemptions",
                         "compositePodGroups", "resourceClaims", "unplanned", "recreations"]
    assert doc["summary"] == {"pods": 4, "bound": 2, "alreadyBound": 1, "pending": 1, "preempted": 0, "evicted": 0,
                              "podGroups": 1, "podGroupsScheduled": 1, "podGroupsUnschedulable": 0, "unplanned": 0,
                              "refused": 0, "waitingForAdmission": 0}
    assert [(p["namespace"], p["name"]) for p in doc["pods"]] == \
        [("default", "g-0"), ("default", "g-1"), ("default", "z-running"), ("team", "a")]
    assert set(doc["pods"][0]) == {"namespace", "name", "podGroup", "owner", "status", "node", "nominatedNode",
                                   "reason", "message"}
    assert doc["podGroups"][0]["condition"] == {"type": "PodGroupInitiallyScheduled", "status": "True",
                                                "reason": "Scheduled"}
    assert render_plan_yaml(plan) == render_plan_yaml(plan)


def _chain(first_arrivals, second_arrivals, version="1.37"):
    opts = options(version)
    _, after = simulate(PlanInputs(list(CLUSTER), list(first_arrivals)), opts)
    existing = [*after.nodes, *after.priority_classes, *after.groups, *after.pods]
    plan, _ = simulate(PlanInputs(existing, list(second_arrivals)), opts)
    return plan


def test_chaining_two_plans_equals_one_plan_over_both():
    first = [gang("g", 2), *pods("g", 2, gpu=2, group="g"), pod("web", cpu="1")]
    second = [gang("h", 2), *pods("h", 3, gpu=1, group="h"), pod("late", gpu=2)]
    chained = {p.key: p for p in _chain(first, second).pods}
    whole = {p.key: p for p in run(CLUSTER, [*first, *second]).pods}
    assert chained.keys() == whole.keys()
    for key, p in whole.items():
        assert chained[key].node == p.node, key
        if p.status == "Bound" and key.split("/")[1] in ("g-0", "g-1", "web"):
            assert chained[key].status == "AlreadyBound"
        else:
            assert chained[key].status == p.status


def test_snapshot_objects_carry_nodes_conditions_and_bindings():
    _, after = simulate(PlanInputs(list(CLUSTER), [gang("g", 2), *pods("g", 2, gpu=2, group="g")]), options())
    objs = snapshot_objects(after, options().gates.release)
    kinds = [o["kind"] for o in objs]
    assert kinds == ["Node"] * 3 + ["PodGroup", "Pod", "Pod"]
    pg = objs[3]
    assert pg["apiVersion"] == "scheduling.k8s.io/v1beta1"
    cond = pg["status"]["conditions"][0]
    assert (cond["type"], cond["status"], cond["reason"]) == ("PodGroupInitiallyScheduled", "True", "Scheduled")
    assert {o["spec"]["nodeName"] for o in objs[4:]} <= {"n0", "n1", "n2"}
    assert objs[0]["status"]["allocatable"]["cpu"] == "4000m"
