"""`wasplan explain` on the scenarios of fixtures/explain: each asserts the verdict, the numbers the engine
measured, the suggestions — and that every suggestion, applied to copies of the YAML files the way a person
would edit them, makes `wasplan plan` place the gang."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import run

from .apply import apply_changes, copy_fixture, plan_places

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "explain"


def explain(case: str, *args: str, manifest: str = "gang.yaml"):
    root = FIXTURES / case
    result = run("explain", *args, str(root / manifest), "--cluster", str(root / "cluster.yaml"), "-o", "json")
    return result.exit_code, (json.loads(result.stdout) if result.stdout.strip() else None)


def only(doc: dict) -> dict:
    assert len(doc["targets"]) == 1
    return doc["targets"][0]


def kinds(target: dict) -> list[str]:
    return [s["kind"] for s in target["suggestions"]]


def suggestion(target: dict, kind: str) -> dict:
    return next(s for s in target["suggestions"] if s["kind"] == kind)


def assert_each_suggestion_places(case: str, target: dict, tmp_path: Path, manifest: str = "gang.yaml",
                                  *flags: str) -> None:
    group = f"{target['namespace']}/{target['name']}"
    assert target["suggestions"], "expected at least one suggestion"
    for i, s in enumerate(target["suggestions"]):
        work = copy_fixture(FIXTURES / case, tmp_path / f"s{i}")
        assert not plan_places(work, [manifest], "cluster.yaml", group, *flags)
        apply_changes(s["changes"], FIXTURES / case, work)
        assert plan_places(work, [manifest], "cluster.yaml", group, *flags), s["title"]


def test_gang_short_of_gpus_by_one_node(tmp_path):
    code, doc = explain("gpu-short", "job/train", "-n", "ml", manifest="train.yaml")
    assert code == 1
    t = only(doc)
    assert (t["kind"], t["name"], t["verdict"]) == ("PodGroup", "train-job", "DoesNotFit")
    assert "can place 3 of 4: 1 short" in t["summary"]
    assert t["gang"] == {"policy": "gang", "minCount": 4, "podsExist": 4, "podsBound": 0, "placeable": 3, "short": 1}
    shape = t["shapes"][0]
    assert shape["message"] == "0/4 nodes are available: 4 Insufficient nvidia.com/gpu."
    assert shape["closestNodes"][0] == {"node": "gpu-3", "lacks": [
        {"resource": "nvidia.com/gpu", "needs": 8, "free": 6, "short": 2}]}
    gpu = next(r for r in shape["resources"] if r["resource"] == "nvidia.com/gpu")
    assert (gpu["needed"], gpu["freeTotal"], gpu["stranded"]) == (32, 30, 6)
    # the notebook has the job's priority: no eviction offered; fewer GPUs per worker (a quarter less) come after
    # the node, as a larger change
    assert kinds(t) == ["minCount", "addNodes", "requests"]
    assert suggestion(t, "requests")["title"] == "request 6 nvidia.com/gpu per pod (not 8)"
    assert suggestion(t, "minCount")["changes"][0]["fieldPath"] == "spec.scheduling.schedulingPolicy.gang.minCount"
    assert suggestion(t, "minCount")["changes"][0]["value"] == 3
    nodes = suggestion(t, "addNodes")["changes"][0]
    assert (nodes["fieldPath"], nodes["value"]) == ("spec.nodePools[0].count", 5)
    assert_each_suggestion_places("gpu-short", t, tmp_path, "train.yaml")


def test_blocked_by_a_taint_on_most_nodes(tmp_path):
    code, doc = explain("taint", "podgroup/ml/llm")
    assert code == 1
    t = only(doc)
    assert t["gang"]["placeable"] == 2 and t["gang"]["short"] == 2
    shape = t["shapes"][0]
    assert shape["message"] == ("0/8 nodes are available: 2 Insufficient nvidia.com/gpu, "
                                "6 node(s) had untolerated taint(s).")
    top = shape["eliminatedBy"][0]
    assert (top["plugin"], top["nodes"]) == ("TaintToleration", 6)
    assert top["constraints"] == ["no toleration for dedicated=training:NoSchedule (6 nodes)"]
    assert kinds(t) == ["minCount", "addNodes", "toleration"]
    tol = suggestion(t, "toleration")
    assert tol["opensNodes"] == 6
    assert tol["changes"][0]["value"] == {"key": "dedicated", "operator": "Equal", "value": "training",
                                          "effect": "NoSchedule"}
    assert len(tol["changes"]) == 4  # one per Pod document
    assert suggestion(t, "addNodes")["changes"][0]["value"] == 4
    assert_each_suggestion_places("taint", t, tmp_path)


def test_blocked_by_a_node_selector_typo(tmp_path):
    code, doc = explain("typo", "podgroup/bert")
    assert code == 1
    t = only(doc)
    assert t["gang"]["placeable"] == 0
    assert t["shapes"][0]["message"] == "0/6 nodes are available: 6 node(s) didn't match Pod's node affinity/selector."
    top = t["shapes"][0]["eliminatedBy"][0]
    assert top["plugin"] == "NodeAffinity" and "nodes have A100, H100" in top["constraints"][0]
    assert kinds(t) == ["nodeSelector"]
    fix = t["suggestions"][0]
    assert fix["opensNodes"] == 4
    assert {(c["fieldPath"], c["value"]) for c in fix["changes"]} == {("spec.nodeSelector.gpu-type", "A100")}
    assert_each_suggestion_places("typo", t, tmp_path)


def test_blocked_by_a_node_affinity_value_typo(tmp_path):
    code, doc = explain("affinity-typo", "podgroup/bert")
    assert code == 1
    t = only(doc)
    top = t["shapes"][0]["eliminatedBy"][0]
    assert top["constraints"] == [
        "nodeAffinity required term 0: gpu-type In a100 (no node has it; nodes have A100, H100)"]
    assert kinds(t) == ["nodeAffinity"] and t["suggestions"][0]["opensNodes"] == 4
    assert {str(c["value"]) for c in t["suggestions"][0]["changes"]} == {"['A100']"}
    assert_each_suggestion_places("affinity-typo", t, tmp_path)


def test_fits_cluster_wide_but_in_no_single_rack(tmp_path):
    code, doc = explain("topology", "podgroup/rackbound")
    assert code == 1
    t = only(doc)
    assert t["verdict"] == "DoesNotFit" and "can place 2 of 3: 1 short" in t["summary"]
    topo = t["topology"]
    assert topo["topologyKey"] == "topology.kubernetes.io/rack" and topo["honouredByPlan"] is True
    assert [(d["domain"], d["placeable"]) for d in topo["domains"]] == [("rack-0", 2), ("rack-1", 2)]
    assert t["shapes"][0]["message"] == "0/2 nodes are available: 2 Insufficient nvidia.com/gpu."
    assert kinds(t) == ["minCount", "addNodes", "topology"]
    assert suggestion(t, "addNodes")["title"] == "add 1 node like gpu-0 in topology.kubernetes.io/rack=rack-0"
    assert suggestion(t, "topology")["changes"][0]["value"] == "topology.kubernetes.io/zone"
    assert suggestion(t, "topology")["opensNodes"] == 2
    assert_each_suggestion_places("topology", t, tmp_path)


def test_blocked_by_quorum(tmp_path):
    code, doc = explain("quorum")
    assert code == 1
    t = only(doc)
    assert t["verdict"] == "WaitingForPods"
    assert t["summary"] == "waits for pods: 3 of minCount 4 pods exist"
    assert (t["gang"]["podsExist"], t["gang"]["placeable"]) == (3, 3)
    assert kinds(t) == ["minCount"] and t["suggestions"][0]["changes"][0]["value"] == 3
    assert_each_suggestion_places("quorum", t, tmp_path)


def test_fits_only_by_preempting(tmp_path):
    """The plan preempts the four lower-priority batch pods for the gang; without preemption (--no-preemption)
    explain names the same pods as the ones to end, and nodes to add."""
    code, doc = explain("preemption", "podgroup/urgent")
    assert code == 0
    t = only(doc)
    assert t["verdict"] == "FitsByPreempting" and t["summary"].startswith("fits only by preempting 4 pods")
    assert sorted((v["name"], v["node"], v["priority"]) for v in t["victims"]) == [
        ("batch-0", "gpu-0", 1000), ("batch-1", "gpu-0", 1000), ("batch-2", "gpu-1", 1000), ("batch-3", "gpu-1", 1000)]
    assert t["suggestions"] == []
    code, doc = explain("preemption", "podgroup/urgent", "--no-preemption")
    assert code == 1
    t = only(doc)
    assert t["verdict"] == "DoesNotFit" and kinds(t) == ["addNodes", "evict"]
    assert sorted(c["value"] for c in suggestion(t, "evict")["changes"]) == ["batch-0", "batch-1", "batch-2", "batch-3"]
    assert suggestion(t, "addNodes")["changes"][0]["value"] == 4
    assert_each_suggestion_places("preemption", t, tmp_path, "gang.yaml", "--no-preemption")


def test_needs_a_higher_priority_to_preempt(tmp_path):
    """The serving pods outrank the gang, so the plan preempts nothing; the priority suggestion names the
    lowest existing PriorityClass above them (critical), and the re-run with it preempts the serving pods."""
    code, doc = explain("priority", "podgroup/batchjob")
    assert code == 1
    t = only(doc)
    assert t["verdict"] == "DoesNotFit" and t["gang"]["placeable"] == 0
    assert kinds(t) == ["addNodes", "priority"]
    prio = suggestion(t, "priority")
    assert prio["title"] == "raise the priority to at least 5001 (PriorityClass critical)"
    assert {(c["object"], c["fieldPath"], c["value"]) for c in prio["changes"]} == {
        ("PodGroup/ml/batchjob", "spec.priorityClassName", "critical"),
        ("Pod/ml/batchjob-0", "spec.priorityClassName", "critical"),
        ("Pod/ml/batchjob-1", "spec.priorityClassName", "critical")}
    assert_each_suggestion_places("priority", t, tmp_path)


def test_fragmented_capacity(tmp_path):
    code, doc = explain("fragmented", "podgroup/wide")
    assert code == 1
    t = only(doc)
    gpu = next(r for r in t["shapes"][0]["resources"] if r["resource"] == "nvidia.com/gpu")
    assert gpu == {"resource": "nvidia.com/gpu", "needed": 16, "freeTotal": 16, "freeOnEligibleNodes": 16,
                   "stranded": 16, "missing": True}
    assert not any(r["missing"] for r in t["shapes"][0]["resources"] if r["resource"] != "nvidia.com/gpu")
    assert kinds(t) == ["addNodes", "requests", "priority"]
    assert suggestion(t, "addNodes")["changes"][0]["value"] == 6
    prio = suggestion(t, "priority")  # the half-node jobs share the gang's priority 0: a new class above them
    assert prio["changes"][0]["value"] == {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                                           "metadata": {"name": "wide-priority"}, "value": 1}
    assert_each_suggestion_places("fragmented", t, tmp_path)


def test_group_held_back_by_its_composite_tree(tmp_path):
    """Each shard fits on its own, but the CompositePodGroup needs both (minGroupCount 2) and the cluster holds
    three of the four pods: one more node lets the whole tree in."""
    code, doc = explain("composite", "podgroup/pipeline-shard-1")
    assert code == 1
    t = only(doc)
    assert t["verdict"] == "DoesNotFit" and t["gang"]["placeable"] == 2
    assert kinds(t) == ["addNodes"]
    assert_each_suggestion_places("composite", t, tmp_path)


def test_member_bound_before_the_plan_pins_the_domain(tmp_path):
    code, doc = explain("pinned", "podgroup/rackbound")
    assert code == 1
    t = only(doc)
    assert t["gang"] == {"policy": "gang", "minCount": 3, "podsExist": 3, "podsBound": 1, "placeable": 2, "short": 1}
    assert [(d["domain"], d["placeable"]) for d in t["topology"]["domains"]] == [("rack-1", 2)]
    assert kinds(t) == ["minCount", "addNodes", "requests", "topology"]
    assert suggestion(t, "addNodes")["changes"][0]["value"]["labels"]["topology.kubernetes.io/rack"] == "rack-1"
    assert_each_suggestion_places("pinned", t, tmp_path)
