"""The PostFilter part of a pending pod's message for pods without ResourceClaims.

In 1.36 and 1.37 DynamicResources is GA and in the default profile; its PostFilter runs for every pod that fails
Filter and, when PreFilter left the pod no claims, answers Unschedulable `no new claims to deallocate` in 1.36
and a bare Unschedulable in 1.37 (pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go PostFilter,
v1.36.5 and v1.37.2), so only 1.36's message carries it. RunPostFilterPlugins
(pkg/scheduler/framework/runtime/framework.go) joins it with DefaultPreemption's verdict with ", ", the shape
real clusters' pod conditions show. Fixture: fixtures/scenarios/postfilter.
"""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wasplan.cli import plan_cmd  # noqa: F401
from wasplan.cli.app import app

HERE = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "postfilter"
FIT_ERROR = ("0/3 nodes are available: 1 node(s) had untolerated taint(s), "
             "2 Insufficient cpu.")
PREEMPTION = ("preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption "
              "victims found for incoming pod.")


def messages(manifest: str, *args: str) -> dict[str, str]:
    result = CliRunner().invoke(app, ["plan", str(HERE / manifest), "--cluster", str(HERE / "cluster.yaml"),
                                      "-o", "json", *args])
    assert result.exit_code == 1, result.output  # something stays pending
    return {p["name"]: p["message"] for p in json.loads(result.output)["pods"] if p["status"] == "Pending"}


@pytest.mark.parametrize(("version", "dra"), [("1.36", "no new claims to deallocate, "), ("1.37", "")])
def test_plain_pod_carries_both_postfilter_verdicts(version, dra):
    assert messages("web.yaml", "--k8s-version", version) == {"web": f"{FIT_ERROR} {dra}{PREEMPTION}"}


def test_without_preemption_only_dynamic_resources_speaks():
    assert messages("web.yaml", "--no-preemption", "--k8s-version", "1.36") == {
        "web": f"{FIT_ERROR} no new claims to deallocate"}
    assert messages("web.yaml", "--no-preemption") == {"web": FIT_ERROR}


def test_profile_without_dynamic_resources_adds_nothing_of_it():
    assert messages("web.yaml", "--scheduler-config", str(HERE / "nodra.yaml")) == {"web": f"{FIT_ERROR} {PREEMPTION}"}
    assert messages("web.yaml", "--scheduler-config", str(HERE / "nodra.yaml"), "--no-preemption") == \
        {"web": FIT_ERROR}


def test_136_gang_member_preempting_pod_by_pod_gets_the_verdict():
    got = messages("gang.yaml", "--k8s-version", "1.36", "--feature-gates", "WorkloadAwarePreemption=false")
    expected = f"{FIT_ERROR} no new claims to deallocate, {PREEMPTION}"
    assert got == {"train-0": expected, "train-1": expected}
    alone = messages("gang.yaml", "--k8s-version", "1.36", "--feature-gates", "WorkloadAwarePreemption=false",
                     "--no-preemption")
    assert alone == {"train-0": f"{FIT_ERROR} no new claims to deallocate",
                     "train-1": f"{FIT_ERROR} no new claims to deallocate"}


def test_podgroup_message_is_left_alone():
    result = CliRunner().invoke(app, ["plan", str(HERE / "gang.yaml"), "--cluster", str(HERE / "cluster.yaml"),
                                      "-o", "json", "--k8s-version", "1.36", "--feature-gates",
                                      "WorkloadAwarePreemption=false"])
    group = json.loads(result.output)["podGroups"][0]
    assert group["message"] == "0/1 placements are available, first placement status: pod group is unschedulable"
