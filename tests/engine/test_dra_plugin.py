"""DynamicResources in the engine, case by case after upstream's tests.

Names in brackets are the cases of k/k `pkg/scheduler/framework/plugins/dynamicresources/dynamicresources_test.go`
(revisions 6e77b7b0 and 04f5fdea) and `test/integration/dra/*.go` that each test replays with real manifests
through `wasplan plan`'s pipeline.
"""

from __future__ import annotations

import pytest
from drascenes import (ALLOCATED_ON_WORKER, CLUSTER, ERRING_THEN_FILLED, ERRING_WORKER, TEMPLATE, claims, plan, pod,
                       pods, slice_for)

from wasplan.api.releases import get_release, parse_gates

NOT_HELPFUL_2 = "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."


def test_template_claim_allocated_on_the_node_with_the_device(tmp_path):
    """[structured-no-resources / structured-allocation]: the node without devices is rejected."""
    run = plan(tmp_path, CLUSTER + slice_for("worker-2", "gpu-0"),
               TEMPLATE + pod("p", "- {name: gpu, resourceClaimTemplateName: one-gpu}"))
    assert pods(run)["p"][:2] == ("Bound", "worker-2")
    (claim,) = run.plan.claims
    assert (claim.status, claim.node, claim.owner.kind, claim.owner.name, claim.owner.claim) == \
        ("Allocated", "worker-2", "Pod", "p", "gpu")
    assert [(d.request, d.driver, d.pool, d.device) for d in claim.devices] == [("gpu", "gpu.example.com",
                                                                                  "worker-2", "gpu-0")]


@pytest.mark.parametrize(("version", "post_filter"), [("1.36", "still not schedulable, "), ("1.37", "")])
def test_exhausted_resources(tmp_path, version, post_filter):
    """[exhausted-resources]: every device is in use, the pod stays pending with upstream's reason; PostFilter
    deallocates nothing, which 1.36 says and 1.37 does not (v1.37.2 PostFilter returns a bare Unschedulable)."""
    run = plan(tmp_path, CLUSTER + slice_for("worker", "gpu-0"),
               TEMPLATE + pod("a", "- {name: gpu, resourceClaimTemplateName: one-gpu}")
               + pod("b", "- {name: gpu, resourceClaimTemplateName: one-gpu}"), version)
    assert pods(run)["a"][:2] == ("Bound", "worker")
    assert pods(run)["b"] == ("Pending", None, "0/2 nodes are available: 2 cannot allocate all claims. "
                              f"{post_filter}{NOT_HELPFUL_2}")
    assert [(c.owner.name, c.status, c.message) for c in run.plan.claims] == [
        ("a", "Allocated", ""), ("b", "Pending", pods(run)["b"][2])]


def test_missing_claim_waits_in_pre_enqueue(tmp_path):
    """[missing-claim]: a template that does not exist generates no claim; the pod never enters a cycle."""
    run = plan(tmp_path, CLUSTER, pod("p", "- {name: gpu, resourceClaimTemplateName: nope}"))
    assert pods(run)["p"] == ("Gated", None, 'pod "default/p": ResourceClaim not created yet')
    assert [(d.code, d.location.line) for d in run.diagnostics] == [("WAS660", 7)]


def test_deleted_claim_waits(tmp_path):
    """[deleted-claim]"""
    deleted = """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: gone, namespace: default, deletionTimestamp: "2026-01-01T00:00:00Z"}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
"""
    run = plan(tmp_path, CLUSTER + slice_for("worker", "gpu-0") + deleted,
               pod("p", "- {name: gpu, resourceClaimName: gone}"))
    assert pods(run)["p"] == ("Gated", None, 'resourceclaim "gone" is being deleted')


def test_wrong_claim_is_not_owned_by_the_pod(tmp_path):
    """[wrong-claim]: the status names a claim generated for another pod."""
    foreign = """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: other-gpu
  namespace: default
  ownerReferences: [{apiVersion: v1, kind: Pod, name: other, uid: u1, controller: true}]
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  resourceClaims:
  - {name: gpu, resourceClaimTemplateName: one-gpu}
  containers: [{name: main, image: app:1}]
status:
  resourceClaimStatuses: [{name: gpu, resourceClaimName: other-gpu}]
"""
    run = plan(tmp_path, CLUSTER + slice_for("worker", "gpu-0") + TEMPLATE + foreign, "")
    assert pods(run)["p"] == ("Gated", None, "ResourceClaim default/other-gpu was not created for Pod default/p "
                              "(Pod is not owner)")


def test_missing_class_fails_prefilter(tmp_path):
    """[missing-class]: PreFilter rejects the pod on every node; PostFilter has no claims in its state."""
    claim = """\
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - name: req-1
      exactly: {deviceClassName: does-not-exist}
"""
    run = plan(tmp_path, CLUSTER + slice_for("worker", "gpu-0") + claim, pod("p", "- {name: gpu, resourceClaimName: c}"))
    assert pods(run)["p"] == ("Pending", None, "0/2 nodes are available: request req-1: device class does-not-exist "
                              f"does not exist. {NOT_HELPFUL_2}")
    assert [d.code for d in run.diagnostics] == ["WAS662"]




def test_allocated_claim_pins_the_pod_and_is_shared(tmp_path):
    """[shared-claim]: an allocated claim pins its users to its node; both pods are added to reservedFor."""
    cluster = CLUSTER + slice_for("worker", "gpu-0") + ALLOCATED_ON_WORKER.format(reserved="")
    run = plan(tmp_path, cluster, pod("a", "- {name: gpu, resourceClaimName: shared}")
               + pod("b", "- {name: gpu, resourceClaimName: shared}"))
    assert (pods(run)["a"][:2], pods(run)["b"][:2]) == (("Bound", "worker"), ("Bound", "worker"))
    assert claims(run)["shared"] == ("AlreadyAllocated", "worker", ("gpu-0",), (("Pod", "a"), ("Pod", "b")))


def test_wrong_topology_deallocates_in_post_filter(tmp_path):
    """[wrong-topology]: the claim's node cannot take the pod; PostFilter deallocates the claim (reserved for
    nobody) and the retried pod allocates afresh on the other node."""
    cluster = CLUSTER.replace('name: worker, labels', 'name: worker, labels').replace(
        'metadata: {name: worker, labels: {kubernetes.io/hostname: worker}}\nstatus: {allocatable: {cpu: "8"',
        'metadata: {name: worker, labels: {kubernetes.io/hostname: worker}}\nstatus: {allocatable: {cpu: "1"')
    cluster += slice_for("worker", "gpu-0") + slice_for("worker-2", "gpu-0") + ALLOCATED_ON_WORKER.format(reserved="")
    run = plan(tmp_path, cluster, pod("p", "- {name: gpu, resourceClaimName: shared}", cpu="4"))
    assert pods(run)["p"][:2] == ("Bound", "worker-2")
    assert claims(run)["shared"] == ("Allocated", "worker-2", ("gpu-0",), (("Pod", "p"),))


def test_claim_in_use_by_another_pod_is_not_deallocated(tmp_path):
    """[wrong-topology] with the claim reserved for a running pod: PostFilter finds nothing to deallocate."""
    cluster = CLUSTER.replace('status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}',
                              'status: {allocatable: {cpu: "1", memory: 32Gi, pods: "110"}}', 1)
    cluster += slice_for("worker", "gpu-0") + ALLOCATED_ON_WORKER.format(reserved="{resource: pods, name: owner, uid: u-owner}")
    # the claim's consumer runs (without it the resourceclaim controller would drop the entry: WAS663)
    cluster += pod("owner", "- {name: gpu, resourceClaimName: shared}", cpu="0").replace(
        "metadata: {name: owner, namespace: default}", "metadata: {name: owner, namespace: default, uid: u-owner}"
    ).replace("spec:\n", "spec:\n  nodeName: worker\n", 1)
    run = plan(tmp_path, cluster, pod("p", "- {name: gpu, resourceClaimName: shared}", cpu="4"))
    assert pods(run)["p"] == ("Pending", None, "0/2 nodes are available: 1 Insufficient cpu, 1 resourceclaim not "
                              f"available on the node. {NOT_HELPFUL_2}")
    assert [d.code for d in run.diagnostics if d.code == "WAS663"] == []


@pytest.mark.parametrize("version, message", [
    ("1.36", 'running "DynamicResources" filter plugin: claim default/p-gpu-'),
    ("1.37", 'running "DynamicResources" filter plugin: claim default/p-gpu-')])
def test_cel_runtime_error_for_one_of_two_nodes(tmp_path, version, message):
    """[CEL-runtime-error-for-one-of-two-nodes]: a device without the attribute makes the selector fail on one
    node; the whole attempt fails with the Filter Error although the other node would fit."""
    template = TEMPLATE.replace("exactly: {deviceClassName: gpu.example.com}",
                                "exactly:\n          deviceClassName: gpu.example.com\n          selectors:\n"
                                "          - cel: {expression: 'device.attributes[\"gpu.example.com\"].model == \"a100\"'}")
    cluster = CLUSTER + slice_for("worker", "gpu-0") + slice_for("worker-2", "gpu-0",
                                                                 extra="\n    attributes: {model: {string: a100}}")
    run = plan(tmp_path, cluster, template + pod("p", "- {name: gpu, resourceClaimTemplateName: one-gpu}"), version)
    status, node, text = pods(run)["p"]
    assert (status, node) == ("Pending", None)
    assert text.startswith(message)
    if version == "1.36":
        assert ": selector #0: CEL runtime error: " in text and "on device" not in text
    else:
        assert ": selector #0 on device gpu.example.com/worker/gpu-0: CEL runtime error: " in text
        assert text.endswith(". consider using CEL optional chaining (.? followed by orValue()) or guarding the "
                             "check with has() for optional fields")
    assert run.plan.pods[0].reason == "SchedulerError"



@pytest.mark.parametrize("version", ["1.36", "1.37"])
@pytest.mark.parametrize("arrival", ["sequential", "batch"])
def test_pod_whose_filter_erred_is_retried_after_a_binding(tmp_path, version, arrival):
    """p's attempt ends in the Filter error of worker's device (above); a pod that ends in an error waits in the
    error backoff, which upstream flushes to activeQ once the backoff completes whatever happened (backend/queue
    scheduling_queue.go AddUnschedulablePodIfNotPresent, queueAfterBackoff; backoff_queue.go add). After filler
    binds and takes worker's cpu, NodeResourcesFit rejects worker before DynamicResources runs there, and the
    retry binds p on worker-2 (the oracle plans this case so: tests/oracle/test_oracle_driver_groups.py).
    Minimised from generated case seed 49 (1.37, sequential)."""
    run = plan(tmp_path, ERRING_WORKER, ERRING_THEN_FILLED, version, arrival=arrival)
    assert pods(run) == {"p": ("Bound", "worker-2", "Successfully assigned default/p to worker-2"),
                         "filler": ("Bound", "worker", "Successfully assigned default/filler to worker")}
    (claim,) = run.plan.claims
    assert (claim.status, claim.node, [d.device for d in claim.devices]) == ("Allocated", "worker-2", ["gpu-0"])

def test_reserved_for_cap_fails_the_binding(tmp_path):
    """ResourceClaimReservedForMaxSize: a 257th consumer fails PreBind (the API server rejects the status)."""
    reserved = ", ".join(f"{{resource: pods, name: user-{i}, uid: u-{i}}}" for i in range(256))
    cluster = CLUSTER.replace('pods: "110"', 'pods: "300"') + slice_for("worker", "gpu-0") + \
        ALLOCATED_ON_WORKER.format(reserved=reserved)
    # the 256 consumers run (a reservation for a pod that does not exist is dropped: WAS663)
    cluster += "".join(f"---\napiVersion: v1\nkind: Pod\nmetadata: {{name: user-{i}, namespace: default, uid: u-{i}}}\n"
                       "spec: {nodeName: worker, containers: [{name: main, image: app:1}]}\n" for i in range(256))
    run = plan(tmp_path, cluster, pod("p", "- {name: gpu, resourceClaimName: shared}"))
    assert pods(run)["p"] == ("Pending", None, 'ResourceClaim.resource.k8s.io "shared" is invalid: '
                              "status.reservedFor: Too many: 257: must have at most 256 items")
    assert len(run.plan.claims[0].reserved_for) == 256


def test_locked_dra_gates_refuse_false():
    from wasplan.api.releases import GateError

    with pytest.raises(GateError, match="cannot set feature gate DRAAdminAccess to false, feature is locked to true"):
        parse_gates(get_release("1.36"), "DRAAdminAccess=false")
    assert parse_gates(get_release("1.36"), "DRAPrioritizedList=false").enabled("DRAPrioritizedList") is False
    with pytest.raises(GateError, match="DRAPrioritizedList"):
        parse_gates(get_release("1.37"), "DRAPrioritizedList=false")
    assert parse_gates(get_release("1.37"), None).enabled("DRAWorkloadResourceClaims") is False


def test_first_available_disabled_fails_prefilter(tmp_path):
    """PreFilter (dynamicresources.go): with DRAPrioritizedList off (1.36 allows it) a claim with subrequests
    cannot be scheduled."""
    template = TEMPLATE.replace("exactly: {deviceClassName: gpu.example.com}",
                                "firstAvailable: [{name: any, deviceClassName: gpu.example.com}]")
    run = plan(tmp_path, CLUSTER + slice_for("worker", "gpu-0"),
               template + pod("p", "- {name: gpu, resourceClaimTemplateName: one-gpu}"), "1.36",
               "DRAPrioritizedList=false")
    (claim,) = run.plan.claims
    assert pods(run)["p"] == ("Pending", None, f"0/2 nodes are available: resource claim default/{claim.name}, "
                              "request gpu: has subrequests, but the DRAPrioritizedList feature is disabled. "
                              f"no new claims to deallocate, {NOT_HELPFUL_2}")


def test_profile_without_dynamic_resources_ignores_claims(tmp_path):
    """A KubeSchedulerConfiguration that disables DynamicResources: no PreEnqueue wait, no device check."""
    from wasplan.pipeline.plan import run_plan
    from wasplan.pipeline.requests import PlanRequest

    config = tmp_path / "config.yaml"
    config.write_text("""\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      disabled: [{name: DynamicResources}]
""")
    (tmp_path / "cluster.yaml").write_text(CLUSTER)
    (tmp_path / "change.yaml").write_text(pod("p", "- {name: gpu, resourceClaimTemplateName: missing}"))
    run = run_plan(PlanRequest([str(tmp_path / "change.yaml")], [str(tmp_path / "cluster.yaml")],
                               parse_gates(get_release("1.37"), None), scheduler_config=str(config)))
    assert [(p.name, p.status, p.node) for p in run.plan.pods] == [("p", "Bound", "worker")]


def test_invalid_pools_reason_is_the_allocators():
    from wasplan.engine.dra import INVALID_POOLS
    from wasplan.engine.plugins.dynamic_resources import INVALID
    from wasplan.engine.pluginapi.status import REASONS

    assert REASONS.text[INVALID] == INVALID_POOLS


def test_device_taint_rule_keeps_pods_off_the_tainted_device(tmp_path):
    """DRADeviceTaintRules (1.37 GA): the rule's NoSchedule taint is merged into the slice the scheduler sees. In
    1.36 the gate is beta and off, and the API server serves DeviceTaintRule only as resource.k8s.io/v1beta2 with
    the gate on; then it applies the same way."""
    rule = """\
---
apiVersion: resource.k8s.io/{version}
kind: DeviceTaintRule
metadata: {name: drain-worker}
spec:
  deviceSelector: {driver: gpu.example.com, pool: worker}
  taint: {key: maintenance, effect: NoSchedule}
"""
    cluster = CLUSTER + slice_for("worker", "gpu-0") + rule
    manifests = TEMPLATE + pod("p", "- {name: gpu, resourceClaimTemplateName: one-gpu}")
    assert pods(plan(tmp_path, cluster.replace("{version}", "v1"), manifests, "1.37"))["p"][0] == "Pending"
    assert pods(plan(tmp_path, cluster.replace("{version}", "v1beta2"), manifests, "1.36",
                     "DRADeviceTaintRules=true"))["p"][0] == "Pending"
    assert pods(plan(tmp_path, CLUSTER + slice_for("worker", "gpu-0"), manifests, "1.36"))["p"][:2] == (
        "Bound", "worker")
