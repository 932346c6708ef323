"""DeviceTaintRules take effect where they stand in the input (issue 30 point 2), on dra-example-driver's kind
cluster and its device-taint demos (fixtures/scenarios/device-taints): NoSchedule changes only what is scheduled
after the rule; NoExecute also makes the device taint eviction controller delete the bound pods whose devices it
taints and whose requests do not tolerate it (pkg/controller/devicetainteviction claimEvictionTime: only a
NoExecute toleration without tolerationSeconds keeps a pod). Rules in the cluster snapshot apply before anything
is scheduled."""

from __future__ import annotations

from pathlib import Path

import pytest

from drascenes import plan, pods
from wasplan.engine.dra.taints import evicting_taints
from wasplan.cluster.devices import Device, DeviceTaint, DeviceToleration

HERE = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "device-taints"
CLUSTER = (HERE / "cluster.yaml").read_text()
WORKER = "dra-example-driver-cluster-worker"
TAINT_TEXT = (f"device gpu.example.com/{WORKER}/gpu-0 has taint example.com/maintenance=planned:NoExecute that its "
              "request does not tolerate")
PENDING_AFTER_TAINT = ("0/2 nodes are available: 1 cannot allocate all claims, 1 node(s) had untolerated taint(s). "
                       "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.")


def _run(tmp_path, name: str, arrival: str = "sequential"):
    return plan(tmp_path, CLUSTER, (HERE / name).read_text(), "1.37", arrival=arrival)


def test_a_noschedule_rule_leaves_the_running_pod_alone(tmp_path):
    run = _run(tmp_path, "noschedule.yaml")
    got = pods(run)
    assert got["pod0"][:2] == ("Bound", WORKER)
    assert got["pod1"] == ("Pending", None, PENDING_AFTER_TAINT)
    assert got["kube-controller-manager-dra-example-driver-cluster-control-plane"][0] == "AlreadyBound"


def test_a_noexecute_rule_evicts_the_pod_whose_request_does_not_tolerate_it(tmp_path):
    run = _run(tmp_path, "noexecute.yaml")
    got = pods(run)
    assert got["pod0"] == ("Evicted", WORKER, "deleted by the device taint eviction controller: " + TAINT_TEXT)
    assert got["pod1"][:2] == ("Bound", WORKER)
    assert got["pod2"] == ("Pending", None, PENDING_AFTER_TAINT)
    assert run.plan.summary()["evicted"] == 1
    # the generated claim of the deleted pod is deleted with it; the tolerant pod keeps its device
    assert [(c.owner.name, c.status, [d.device for d in c.devices]) for c in run.plan.claims] == [
        ("pod1", "Allocated", ["gpu-1"]), ("pod2", "Pending", [])]


def test_in_batch_arrival_the_rule_exists_before_anything_is_scheduled(tmp_path):
    got = pods(_run(tmp_path, "noschedule.yaml", "batch"))
    assert got["pod0"][0] == got["pod1"][0] == "Pending"


def test_a_rule_in_the_snapshot_applies_before_the_manifests(tmp_path):
    manifests = (HERE / "noschedule.yaml").read_text()
    rule_at = manifests.index("---\napiVersion: resource.k8s.io/v1\nkind: DeviceTaintRule")
    pod1_at = manifests.index("---", rule_at + 3)
    run = plan(tmp_path, CLUSTER + manifests[rule_at:pod1_at], manifests[:rule_at] + manifests[pod1_at:], "1.37")
    assert pods(run)["pod0"][0] == "Pending"


T = DeviceTaint("k", "v", "NoExecute")


@pytest.mark.parametrize("tolerations,expected", [
    ((), [(T, None)]),
    ((DeviceToleration("k", "Exists", effect="NoExecute"),), []),
    ((DeviceToleration("k", "Exists", effect="NoExecute", toleration_seconds=30),), [(T, 30)]),
    ((DeviceToleration("k", "Exists", effect="NoExecute", toleration_seconds=-5),), [(T, 0)]),
    # an empty effect tolerates the taint for allocation but the controller requires NoExecute exactly
    ((DeviceToleration("k", "Exists"),), [(T, None)]),
    ((DeviceToleration("other", "Exists", effect="NoExecute"),), [(T, None)]),
])
def test_the_controllers_toleration_rules(tolerations, expected):
    device = Device("d", taints=(T, DeviceTaint("k", "v", "NoSchedule")))
    assert evicting_taints(device, tolerations) == expected
