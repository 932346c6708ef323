"""explain names a claim with `allocationMode: All` that takes the devices another claim of the pod needs, and
offers the ExactCount count that fits (issue 30).

The manifest is kubernetes/website's DRA example Job with its shared ResourceClaim, as published (sources in
the fixture's header): the shared claim asks for every matching GPU, so each pod's own claim finds none left on
that node. Before, explain said "No single verified change was found" and never named the claim.
"""

from __future__ import annotations

import json

from tests.cli.helpers import run
from tests.conftest import FIXTURES

CASE = FIXTURES / "explain" / "dra-allocation-all"
ARGS = ("job/example-dra-job", str(CASE / "job.yaml"), "--cluster", str(CASE / "cluster.yaml"))
NOTE = ("claim shared-gpu-claim (ResourceClaim default/example-resource-claim), request single-gpu-claim, has "
        "allocationMode: All: it takes every matching device of the node it is allocated on (4 on worker-1), "
        "including every one that claim separate-gpu-claim, request gpu-claim, needs, so none is left for it on "
        "that node")


def _target() -> dict:
    result = run("explain", *ARGS, "-o", "json")
    assert result.exit_code == 1, result.output
    (target,) = json.loads(result.stdout)["targets"]
    return target


def test_the_all_claim_is_named_in_the_device_evidence():
    target = _target()
    assert target["shapes"][0]["devices"]["notes"] == [NOTE]


def test_the_verified_change_is_the_largest_exact_count(tmp_path):
    (s,) = _target()["suggestions"]
    assert (s["kind"], s["title"]) == ("allocationMode", "request single-gpu-claim: allocationMode ExactCount, "
                                                         "count 2 (not All)")
    assert [(c["line"], c["fieldPath"], c["action"], c["value"]) for c in s["changes"]] == [
        (78, "spec.devices.requests[0].exactly.allocationMode", "set", "ExactCount"),
        (76, "spec.devices.requests[0].exactly.count", "add", 2)]
    text = (CASE / "job.yaml").read_text()
    for count, code in ((2, 0), (3, 1)):  # two pods at a time each take one more GPU of the same node
        path = tmp_path / f"job-{count}.yaml"
        path.write_text(text.replace("        allocationMode: All\n",
                                     f"        allocationMode: ExactCount\n        count: {count}\n"))
        assert run("plan", str(path), "--cluster", str(CASE / "cluster.yaml")).exit_code == code
    assert run("plan", str(CASE / "job.yaml"), "--cluster", str(CASE / "cluster.yaml")).exit_code == 1


def test_text_output_names_it():
    result = run("explain", *ARGS)
    flat = " ".join(result.stdout.split())
    assert "note: " + NOTE in flat
    assert "No single verified change was found" not in flat
