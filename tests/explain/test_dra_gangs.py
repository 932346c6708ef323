"""`wasplan explain` for gangs held back by devices: the devices the group needs against the free ones (per
topology domain too), nodes to add together with their ResourceSlices, and the greedy-order case of
kubernetes/kubernetes#138765 named and fixed — each suggestion applied to copies of the YAML and re-planned."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.helpers import run

from .apply import apply_changes, copy_fixture, plan_places

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "explain"


def target(case: str, unit: str, manifest: str = "gang.yaml", *args: str) -> dict:
    root = FIXTURES / case
    result = run("explain", unit, str(root / manifest), "--cluster", str(root / "cluster.yaml"), "--no-exact",
                 "-o", "json", *args)
    assert result.exit_code == 1, result.output
    return json.loads(result.stdout)["targets"][0]


def suggestion(t: dict, kind: str) -> dict:
    return next(s for s in t["suggestions"] if s["kind"] == kind)


def places_after(case: str, s: dict, group: str, tmp_path: Path, manifest: str = "gang.yaml") -> bool:
    work = copy_fixture(FIXTURES / case, tmp_path / "work")
    assert not plan_places(work, [manifest], "cluster.yaml", group)
    apply_changes(s["changes"], FIXTURES / case, work)
    return plan_places(work, [manifest], "cluster.yaml", group)


def test_gang_short_of_devices_adds_a_node_with_its_devices(tmp_path):
    t = target("dra-gang", "podgroup/train", "gang.yaml", "-n", "ml")
    assert t["summary"] == "does not fit: can place 3 of 4: 1 short"
    request = t["shapes"][0]["devices"]["requests"][0]
    assert (request["count"], request["needed"], request["free"], request["mostOnOneNode"]) == (
        4, 16, 12, {"node": "gpu-0", "devices": 4})
    assert request["eliminatedBy"]["text"] == "the pods still needed ask for 16, 12 free on the nodes they may use"
    add = suggestion(t, "addNodes")
    assert add["title"] == "add 1 node like gpu-0 with their ResourceSlices"
    assert (add["changes"][0]["fieldPath"], add["changes"][0]["value"]) == ("spec.nodePools[0].count", 4)
    assert places_after("dra-gang", add, "ml/train", tmp_path)


def test_gang_devices_per_topology_domain():
    t = target("dra-gang", "podgroup/train", "topology.yaml", "-n", "ml")
    assert t["shapes"][0]["devices"]["domains"] == [
        {"domain": "rack-0", "request": "gpus", "needed": 12, "free": 8},
        {"domain": "rack-1", "request": "gpus", "needed": 12, "free": 4}]
    add = suggestion(t, "addNodes")
    assert add["title"] == ("add 1 node like gpu-0 in topology.kubernetes.io/rack=rack-0 with their "
                            "ResourceSlices")


def test_greedy_device_order_is_named_and_reordering_verified(tmp_path):
    t = target("dra-greedy", "podgroup/team")
    assert t["summary"] == "does not fit: can place 1 of 2: 1 short"
    order = t["shapes"][0]["devices"]["order"]
    assert order == {"needed": 2, "inOrder": 1, "together": 2, "greedyOrder": True,
                     "nodes": [{"node": "worker", "inOrder": 1, "together": 2}]}
    whole, half = t["shapes"][0]["devices"]["requests"]
    assert (whole["request"], whole["free"], half["request"], half["free"]) == ("gpu/whole", 1, "gpu/half", 2)
    reorder = suggestion(t, "firstAvailable")
    assert reorder["title"] == "request gpu: try half first"
    assert [s["name"] for s in reorder["changes"][0]["value"]] == ["half", "whole"]
    assert places_after("dra-greedy", reorder, "default/team", tmp_path)
    add = suggestion(t, "addNodes")  # Node objects: the new Node and its own copies of the node's slices
    value = add["changes"][0]["value"]
    assert (value["apiVersion"], value["kind"]) == ("v1", "List")
    assert [(i["kind"], i["metadata"]["name"], i.get("spec", {}).get("nodeName"),
             i.get("spec", {}).get("pool", {}).get("name")) for i in value["items"]] == [
        ("Node", "worker-added-0", None, None),
        ("ResourceSlice", "worker-added-0-counters", "worker-added-0", "worker-added-0"),
        ("ResourceSlice", "worker-added-0-partitions", "worker-added-0", "worker-added-0")]
    assert places_after("dra-greedy", add, "default/team", tmp_path / "add")


def test_greedy_text_names_the_upstream_issue():
    root = FIXTURES / "dra-greedy"
    result = run("explain", "podgroup/team", str(root / "gang.yaml"), "--cluster", str(root / "cluster.yaml"),
                 "--no-exact")
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    assert ("    greedy device order: the allocator fits devices for 1 of 2 pods one pod at a\n"
            "        time, 2 with another assignment of devices (it never revisits an earlier\n"
            "        pod's devices, kubernetes/kubernetes#138765); per node: worker 1 -> 2\n") in result.stdout


def test_gang_waiting_for_claims_of_a_misspelt_template(tmp_path):
    """Members naming a ResourceClaimTemplate that does not exist wait at PreEnqueue: the group waits for its
    pods, none is tried, and the template name is corrected (verified by re-planning)."""
    text = (FIXTURES / "dra-gang" / "gang.yaml").read_text()
    text = text[:text.index("---\napiVersion: v1\nkind: Pod\nmetadata: {name: train-3")]
    text = text.replace("gang: {minCount: 4}", "gang: {minCount: 3}")
    (tmp_path / "gang.yaml").write_text(text.replace("resourceClaimTemplateName: four-gpus",
                                                     "resourceClaimTemplateName: four-gpu"))
    result = run("explain", "podgroup/train", "-n", "ml", str(tmp_path / "gang.yaml"), "--cluster",
                 str(FIXTURES / "dra-gang" / "cluster.yaml"), "--no-exact", "-o", "json")
    t = json.loads(result.stdout)["targets"][0]
    assert (t["verdict"], t["summary"]) == ("WaitingForPods", 'waits for pods: 3 of them wait for a ResourceClaim '
                                            '(pod "ml/train-0": ResourceClaim not created yet)')
    assert t["gang"]["placeable"] == 0
    [s] = t["suggestions"]
    assert s["title"] == "resourceClaims gpus: resourceClaimTemplateName four-gpus (not four-gpu)"
    assert [(c["object"], c["fieldPath"], c["value"]) for c in s["changes"]] == [
        (f"Pod/ml/train-{i}", "spec.resourceClaims[0].resourceClaimTemplateName", "four-gpus") for i in range(3)]
