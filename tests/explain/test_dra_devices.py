"""`wasplan explain` for a pod held back by its ResourceClaims (fixtures/explain/dra-devices): the devices left
after each of the allocator's checks, what stopped them with the values the devices really have, and the
verified changes — each one applied to copies of the YAML files and planned again with `wasplan plan`."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.helpers import run

from .apply import apply_changes, copy_fixture

CASE = Path(__file__).resolve().parents[2] / "fixtures" / "explain" / "dra-devices"


def explain(manifest: str, *args: str):
    return run("explain", "pod/trainer", str(CASE / manifest), "--cluster", str(CASE / "cluster.yaml"),
               "--no-exact", *args)


def target(manifest: str) -> dict:
    result = explain(manifest, "-o", "json")
    assert result.exit_code == 1, result.output
    return json.loads(result.stdout)["targets"][0]


def bound(workdir: Path, manifest: str) -> bool:
    result = run("plan", str(workdir / manifest), "--cluster", str(workdir / "cluster.yaml"), "-o", "json",
                 "--fail-on", "never")
    pods = {p["name"]: p["status"] for p in json.loads(result.stdout)["pods"]}
    return pods["trainer"] == "Bound"


def assert_each_places(t: dict, manifest: str, tmp_path: Path) -> None:
    for i, s in enumerate(t["suggestions"]):
        work = copy_fixture(CASE, tmp_path / f"s{i}")
        assert not bound(work, manifest)
        apply_changes(s["changes"], CASE, work)
        assert bound(work, manifest), s["title"]


def test_selector_value_no_device_has_shows_the_closest_values_and_is_fixed(tmp_path):
    t = target("selector.yaml")
    request = t["shapes"][0]["devices"]["requests"][0]
    assert (request["entry"], request["origin"], request["request"]) == ("gpu", "ResourceClaimTemplate default/h100",
                                                                         "gpu")
    assert [(s["stage"], s["inCluster"], s["onEligibleNodes"]) for s in request["stages"]] == [
        ("class gpu.nvidia.com", 4, 4),
        ('selector #0 device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100"', 0, 0)]
    assert request["eliminatedBy"] == {
        "kind": "selector", "text": 'device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100"',
        "attribute": "gpu.nvidia.com/productName", "literal": "NVIDIA H100",
        "values": [{"value": "NVIDIA H100 80GB HBM3", "devices": 2}, {"value": "NVIDIA A100-SXM4-40GB", "devices": 2}],
        "unpublished": []}
    fix, fallback = t["suggestions"]
    assert fix["kind"] == "deviceSelector"
    assert fix["title"] == 'selector productName "NVIDIA H100 80GB HBM3" (not "NVIDIA H100") in request gpu'
    change = fix["changes"][0]
    assert (Path(change["file"]).name, change["line"], change["object"], change["fieldPath"], change["value"]) == (
        "selector.yaml", 14, "ResourceClaimTemplate/default/h100",
        "spec.spec.devices.requests[0].exactly.selectors[0].cel.expression",
        'device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"')
    assert fallback["kind"] == "firstAvailable"
    assert fallback["title"] == "request gpu: firstAvailable [as is, without that selector]"
    assert [s["name"] for s in fallback["changes"][0]["value"]["firstAvailable"]] == ["preferred", "fallback"]
    assert_each_places(t, "selector.yaml", tmp_path)


def test_selector_evidence_text_fits_80_columns():
    result = explain("selector.yaml")
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    text = result.stdout
    assert "    devices (2 nodes pass the pod's other filters):" in lines
    assert ("    claim gpu (ResourceClaimTemplate default/h100), request gpu: 1 x\n"
            "        gpu.nvidia.com, 1 needed") in text
    assert "      class gpu.nvidia.com: 4 on nodes it may use (4 in the cluster)" in lines
    assert ('      stopped by the selector; productName values closest to "NVIDIA H100":\n'
            '          "NVIDIA H100 80GB HBM3" (2), "NVIDIA A100-SXM4-40GB" (2)') in text
    assert text.index("devices (2 nodes pass") < text.index("What would make it fit")


def test_template_name_typo_did_you_mean(tmp_path):
    t = target("typo.yaml")
    assert t["verdict"] == "DoesNotFit"
    assert t["summary"] == ('does not fit: it waits for its ResourceClaim: pod "default/trainer": ResourceClaim not '
                            "created yet")
    [s] = t["suggestions"]
    assert (s["kind"], s["title"]) == ("claimTemplate", "resourceClaims gpu: resourceClaimTemplateName h100 (not h10o)")
    assert s["why"] == "no ResourceClaimTemplate h10o exists in namespace default; did you mean h100?"
    change = s["changes"][0]
    assert (change["line"], change["fieldPath"], change["value"]) == (
        22, "spec.resourceClaims[0].resourceClaimTemplateName", "h100")
    assert_each_places(t, "typo.yaml", tmp_path)


def test_count_too_high_lower_count_and_fallback(tmp_path):
    t = target("count.yaml")
    request = t["shapes"][0]["devices"]["requests"][0]
    assert (request["count"], request["free"], request["allocated"], request["mostOnOneNode"]) == (
        4, 4, 0, {"node": "gpu-0", "devices": 2})
    assert request["eliminatedBy"]["text"] == "count 4: at most 2 free matching devices on one node (gpu-0)"
    lower, fallback = t["suggestions"]
    assert (lower["kind"], lower["title"]) == ("deviceCount", "request gpus: count 2 (not 4)")
    assert lower["why"] == "no node the pods may use has 4 free matching devices; gpu-0 has 2"
    assert (lower["changes"][0]["fieldPath"], lower["changes"][0]["value"]) == (
        "spec.spec.devices.requests[0].exactly.count", 2)
    assert fallback["title"] == "request gpus: firstAvailable [as is, with count 2]"
    assert [(s["name"], s["count"]) for s in fallback["changes"][0]["value"]["firstAvailable"]] == [
        ("preferred", 4), ("fallback", 2)]
    assert_each_places(t, "count.yaml", tmp_path)


def test_match_attribute_no_node_can_meet(tmp_path):
    t = target("constraint.yaml")
    devices = t["shapes"][0]["devices"]
    assert devices["requests"][0]["eliminatedBy"] is None  # enough GPUs per node: the constraint stops them
    assert devices["constraints"] == [{
        "claim": devices["requests"][0]["claim"], "index": 0, "kind": "matchAttribute",
        "attribute": "gpu.nvidia.com/pcieRoot", "needed": 2, "best": 1, "node": "gpu-0",
        "values": [{"value": "pci-0", "devices": 1}, {"value": "pci-1", "devices": 1}]}]
    [drop] = t["suggestions"]
    assert (drop["kind"], drop["title"]) == ("deviceConstraint",
                                             "drop constraint matchAttribute gpu.nvidia.com/pcieRoot")
    change = drop["changes"][0]
    assert (change["action"], change["fieldPath"], change["value"]) == (
        "delete", "spec.spec.devices.constraints[0]", {"matchAttribute": "gpu.nvidia.com/pcieRoot"})
    text = explain("constraint.yaml").stdout
    assert ("    constraint #0 matchAttribute gpu.nvidia.com/pcieRoot: needs 2 devices, at\n"
            '        most 1 on one node (gpu-0: "pci-0" (1), "pci-1" (1))') in text
    assert_each_places(t, "constraint.yaml", tmp_path)


def test_capacity_request_larger_than_any_device():
    t = target("capacity.yaml")
    request = t["shapes"][0]["devices"]["requests"][0]
    assert [(s["stage"], s["onEligibleNodes"]) for s in request["stages"]] == [
        ("class gpu.nvidia.com", 4), ("capacity memory=96Gi", 0)]
    assert request["eliminatedBy"] == {
        "kind": "capacity", "text": "capacity memory=96Gi: no matching device has room", "attribute": "memory",
        "literal": "96Gi", "values": [{"value": "80Gi", "devices": 2}, {"value": "40Gi", "devices": 2}],
        "unpublished": []}
    assert t["suggestions"] == []
    assert ('      stopped by capacity: memory 96Gi requested; devices have "80Gi" (2),\n'
            '          "40Gi" (2)\n') in explain("capacity.yaml").stdout


def test_claim_allocated_elsewhere_is_named():
    devices = target("pinned.yaml")["shapes"][0]["devices"]
    assert (devices["eligibleNodes"], devices["requests"]) == (1, [])
    assert devices["notes"] == ["claim gpu is already allocated (gpu.nvidia.com/gpu-1/gpu-0): the pod can only go "
                                "to gpu-1"]


def test_selector_on_capacity_shows_the_capacities_and_is_fixed(tmp_path):
    t = target("capacity-selector.yaml")
    e = t["shapes"][0]["devices"]["requests"][0]["eliminatedBy"]
    assert (e["kind"], e["attribute"], e["literal"], e["values"]) == (
        "selector", "gpu.nvidia.com/memory", "96Gi", [{"value": "80Gi", "devices": 2}, {"value": "40Gi", "devices": 2}])
    fix = t["suggestions"][0]
    assert fix["title"] == 'selector memory "80Gi" (not "96Gi") in request gpu'
    assert fix["changes"][0]["value"] == 'device.capacity["gpu.nvidia.com"].memory.compareTo(quantity("80Gi")) >= 0'
    assert_each_places(t, "capacity-selector.yaml", tmp_path)


def test_device_class_name_typo_did_you_mean(tmp_path):
    t = target("class.yaml")
    request = t["shapes"][0]["devices"]["requests"][0]
    assert request["eliminatedBy"]["text"] == "DeviceClass gpu.nvidia.co does not exist"
    [fix] = t["suggestions"]
    assert (fix["kind"], fix["title"]) == ("deviceClass", "request gpus: deviceClassName gpu.nvidia.com (not "
                                                          "gpu.nvidia.co)")
    assert (fix["changes"][0]["line"], fix["changes"][0]["fieldPath"]) == (
        11, "spec.spec.devices.requests[0].exactly.deviceClassName")
    assert_each_places(t, "class.yaml", tmp_path)


def test_selector_runtime_error_is_what_stopped_the_request():
    t = target("runtime-error.yaml")
    request = t["shapes"][0]["devices"]["requests"][0]
    assert [(s["stage"], s["onEligibleNodes"]) for s in request["stages"]] == [
        ("class gpu.nvidia.com", 4), ('selector #0 device.attributes["gpu.nvidia.com"].model == "h100"', 0)]
    e = request["eliminatedBy"]
    assert e["kind"] == "selector" and e["values"] == []
    assert e["text"].endswith("selector #0 on device gpu.nvidia.com/gpu-0/gpu-0: CEL runtime error: no such key: "
                              "model. consider using CEL optional chaining (.? followed by orValue()) or guarding "
                              "the check with has() for optional fields")


def test_attribute_name_no_device_publishes_is_named_and_rewritten(tmp_path):
    """attribute-case.yaml reads productname, attribute-domain.yaml the domain nvidia.com; the devices publish
    gpu.nvidia.com/productName: the evidence names the read and the guess, and deviceAttribute rewrites it."""
    cases = [("attribute-case.yaml", 'device.attributes["gpu.nvidia.com"].productname', "gpu.nvidia.com/productname",
              'selector reads attribute "productname", which no device publishes; did you mean "productName"?'),
             ("attribute-domain.yaml", 'device.attributes["nvidia.com"].productName', "nvidia.com/productName",
              'selector reads attribute "nvidia.com/productName", which no device publishes; did you mean '
              '"gpu.nvidia.com/productName"?')]
    for manifest, read, name, said in cases:
        t = target(manifest)
        e = t["shapes"][0]["devices"]["requests"][0]["eliminatedBy"]
        assert e["kind"] == "selector" and e["values"] == []
        assert e["unpublished"] == [{"section": "attributes", "name": name, "guess": "gpu.nvidia.com/productName"}]
        [fix] = t["suggestions"]
        assert fix["kind"] == "deviceAttribute"
        assert fix["title"] == f"selector reads gpu.nvidia.com/productName (not {name}) in request gpu"
        assert fix["why"] == said
        change = fix["changes"][0]
        assert (Path(change["file"]).name, change["line"], change["fieldPath"], change["value"]) == (
            manifest, 14, "spec.spec.devices.requests[0].exactly.selectors[0].cel.expression",
            'device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"')
        assert_each_places(t, manifest, tmp_path / manifest)
        text = " ".join(explain(manifest).stdout.split())
        assert f"selector #0 {read} ==" in text
        assert f"or guarding the check with has() for optional fields {said} What would make it fit" in text


def test_device_class_selector_reading_an_unpublished_domain_is_rewritten_in_the_class(tmp_path):
    t = target("attribute-class.yaml")
    e = t["shapes"][0]["devices"]["requests"][0]["eliminatedBy"]
    assert (e["kind"], e["text"]) == ("class", "no device on the nodes it may use matches DeviceClass h100.nvidia.com")
    assert e["unpublished"] == [{"section": "attributes", "name": "nvidia.com/productName",
                                 "guess": "gpu.nvidia.com/productName"}]
    assert [s["kind"] for s in t["suggestions"]] == ["deviceClass", "deviceAttribute"]
    fix = t["suggestions"][1]
    assert fix["title"] == "DeviceClass h100.nvidia.com selector reads gpu.nvidia.com/productName (not " \
                           "nvidia.com/productName)"
    change = fix["changes"][0]
    assert (Path(change["file"]).name, change["line"], change["object"], change["fieldPath"], change["value"]) == (
        "attribute-class.yaml", 8, "DeviceClass/h100.nvidia.com", "spec.selectors[0].cel.expression",
        'device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"')
    assert_each_places(t, "attribute-class.yaml", tmp_path)
