"""Extended resources backed by DRA (DRAExtendedResource, KEP-5004), after k/k `test/integration/dra/
extendedresource.go` and `dynamicresources/extendeddynamicresources.go`: a container request for a resource a
DeviceClass backs is served by devices on nodes that do not publish the resource themselves."""

from __future__ import annotations

from drascenes import DEVICE_CLASS, NODES, plan, pods, slice_for

CLASS = DEVICE_CLASS.replace("spec:\n", "spec:\n  extendedResourceName: example.com/gpu\n")


def wants(name: str, resource: str = "example.com/gpu", count: int = 1) -> str:
    return f"""\
---
apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: default}}
spec:
  containers:
  - name: main
    image: app:1
    resources:
      requests: {{cpu: "1", {resource}: "{count}"}}
      limits: {{{resource}: "{count}"}}
"""


def test_backed_resource_is_allocated_through_a_claim(tmp_path):
    run = plan(tmp_path, NODES + CLASS + slice_for("worker-2", "gpu-0", "gpu-1"), wants("a", count=2) + wants("b"))
    assert pods(run)["a"][:2] == ("Bound", "worker-2")
    assert pods(run)["b"] == ("Pending", None, "0/2 nodes are available: 2 cannot allocate all claims. preemption: "
                              "0/2 nodes are available: 2 Preemption is not helpful for scheduling.")
    (claim,) = [c for c in run.plan.claims if c.status == "Allocated"]
    assert claim.name.startswith("a-extended-resources-")
    assert (claim.owner.kind, claim.owner.name, claim.owner.claim) == ("Pod", "a", "<extended-resources>")
    assert [(d.request, d.device) for d in claim.devices] == [("container-0-request-1", "gpu-0"),
                                                              ("container-0-request-1", "gpu-1")]
    assert [(u.kind, u.name) for u in claim.reserved_for] == [("Pod", "a")]


def test_implicit_device_class_name(tmp_path):
    run = plan(tmp_path, NODES + CLASS + slice_for("worker", "gpu-0"),
               wants("p", "deviceclass.resource.kubernetes.io/gpu.example.com"))
    assert pods(run)["p"][:2] == ("Bound", "worker")


def test_node_publishing_the_resource_uses_the_device_plugin(tmp_path):
    nodes = NODES.replace('status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}',
                          'status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110", example.com/gpu: "1"}}', 1)
    run = plan(tmp_path, nodes + CLASS, wants("a") + wants("b"))
    assert pods(run)["a"][:2] == ("Bound", "worker")
    assert pods(run)["b"][0] == "Pending"
    assert run.plan.claims == ()


def test_gate_off_leaves_the_resource_to_node_resources_fit(tmp_path):
    """1.36 (beta, can be switched off): without the gate the request is an ordinary extended resource."""
    run = plan(tmp_path, NODES + CLASS + slice_for("worker", "gpu-0"), wants("p"), "1.36",
               "DRAExtendedResource=false")
    assert pods(run)["p"] == ("Pending", None, "0/2 nodes are available: 2 Insufficient example.com/gpu. "
                              "no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not "
                              "helpful for scheduling.")
    assert run.plan.claims == ()


def test_emitted_snapshot_keeps_the_extended_claim(tmp_path):
    """A second plan on the emitted snapshot: the running pod's extended claim still holds its device."""
    from wasplan.api.releases import get_release
    from wasplan.report.plan_json import render_snapshot

    first = plan(tmp_path, NODES + CLASS + slice_for("worker", "gpu-0"), wants("a"))
    assert pods(first)["a"][:2] == ("Bound", "worker")
    again = tmp_path / "again"
    again.mkdir()
    second = plan(again, render_snapshot(first.final, get_release("1.37")), wants("b"))
    assert pods(second)["a"][:2] == ("AlreadyBound", "worker")
    assert pods(second)["b"][0] == "Pending"
    assert [(c.name.rsplit("-", 1)[0], c.status, c.node) for c in second.plan.claims] == [
        ("a-extended-resources", "AlreadyAllocated", "worker")]


LIMITS_ONLY = """\
---
apiVersion: v1
kind: Pod
metadata: {name: limits-only, namespace: default}
spec:
  containers:
  - name: main
    image: app:1
    resources:
      limits: {example.com/gpu: "1"}
"""


def test_limits_only_pod_gets_its_device(tmp_path):
    """The API server defaults requests from limits (SetDefaults_Pod): the pod asks DynamicResources for a GPU and
    goes where the device is, not to the first node that fits its (empty) other requests."""
    run = plan(tmp_path, NODES + CLASS + slice_for("worker-2", "gpu-0"), LIMITS_ONLY)
    assert pods(run)["limits-only"][:2] == ("Bound", "worker-2")
    (claim,) = run.plan.claims
    assert [(d.request, d.device) for d in claim.devices] == [("container-0-request-0", "gpu-0")]


def test_limits_only_pod_without_a_device_stays_pending(tmp_path):
    run = plan(tmp_path, NODES + CLASS, LIMITS_ONLY)
    assert pods(run)["limits-only"] == ("Pending", None, "0/2 nodes are available: 2 cannot allocate all claims. "
                                        "preemption: 0/2 nodes are available: 2 Preemption "
                                        "is not helpful for scheduling.")
    assert run.plan.claims == ()


def test_nvidia_full_gpu_demo_spec(tmp_path):
    """NVIDIA/k8s-dra-driver-gpu's "full GPU via extended resource" demo (fixtures/dra-upstream/nvidia-gpu-full):
    the limits-only pod lands on the GPU node with the driver's device, never on the CPU node."""
    from pathlib import Path

    from wasplan.api.releases import default_gates, get_release
    from wasplan.pipeline.plan import run_plan
    from wasplan.pipeline.requests import PlanRequest

    here = Path(__file__).resolve().parents[2] / "fixtures" / "dra-upstream" / "nvidia-gpu-full"
    run = run_plan(PlanRequest([str(here / "gpu-full.yaml")], [str(here / "cluster.yaml")],
                               default_gates(get_release("1.37"))))
    (pod,) = run.plan.pods
    assert (pod.namespace, pod.name, pod.status, pod.node) == ("extended-resource-gpu-full", "gpu-full-pod",
                                                               "Bound", "gpu-node")
    (claim,) = run.plan.claims
    assert claim.name.startswith("gpu-full-pod-extended-resources-")
    assert [(d.request, d.driver, d.pool, d.device) for d in claim.devices] == [
        ("container-0-request-0", "gpu.nvidia.com", "gpu-node", "gpu-0")]
