"""Cluster-kind DRA devices: the ResourceSlices a node pool's `devices` and a `devicePools` entry stand for,
pinned field by field, their findings, and a 64-GPU-node what-if that the allocator plans on."""

from fractions import Fraction

from wasplan.cluster.cluster_kind import expand_cluster
from wasplan.cluster.devices import Attribute, Capacity, DeviceTaint, NodeSelection, ResourceSlice
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Node, NodeSelectorTerm, Requirement
from wasplan.cluster.parse_dra import parse_dra_record
from wasplan.engine.dra import Allocator
from .helpers import read

GI = 2**30

GPU_CLUSTER = """\
apiVersion: wasplan.io/v1alpha1
kind: Cluster
metadata: {name: gpu-lab}
spec:
  nodePools:
  - name: gpu
    count: 64
    namePattern: "gpu-{index:02}"
    labels: {topology.kubernetes.io/rack: "rack-{index // 8}"}
    allocatable: {cpu: 96, memory: 768Gi}
    devices:
    - driver: gpu.example.com
      count: 8
      attributes: {model: a100, numa: {int: "{index // 4}"}, pcieRoot: "pci-{index // 4}", driverVersion: {version: 1.2.3}}
      capacity: {memory: 80Gi}
  devicePools:
  - name: fabric
    driver: nic.example.com
    count: 2
    namePattern: "port-{index1}"
    nodeSelector: {topology.kubernetes.io/rack: rack-0}
    taints: [{key: maintenance, effect: NoSchedule}]
  - name: storage
    driver: nvme.example.com
    count: 1
    allNodes: true
"""


def expand(text: str):
    doc = read(text, "cluster.yaml").documents[0]
    ctx = Ctx(doc)
    return expand_cluster(doc.obj, ctx), ctx.diags


def test_node_pool_devices_become_one_slice_per_node_and_driver():
    records, diags = expand(GPU_CLUSTER)
    assert diags == []
    slices = [r for r in records if isinstance(r, ResourceSlice)]
    assert len([r for r in records if isinstance(r, Node)]) == 64
    assert [s.name for s in slices[:2]] == ["gpu-00-gpu.example.com", "gpu-01-gpu.example.com"]
    first = slices[0]
    assert (first.driver, first.pool, first.generation, first.slice_count, first.node) == (
        "gpu.example.com", "gpu-00", 1, 1, NodeSelection(node_name="gpu-00"))
    assert [d.name for d in first.devices] == [f"gpu-{i}" for i in range(8)]
    assert first.devices[5].attributes == {"model": Attribute("string", "a100"), "numa": Attribute("int", 1),
                                           "pcieRoot": Attribute("string", "pci-1"),
                                           "driverVersion": Attribute("version", "1.2.3")}
    assert first.devices[5].capacity == {"memory": Capacity(Fraction(80 * GI))}
    assert slices[63].devices is first.devices  # one shape shared by every node of the pool


def test_network_attached_pools():
    records, _ = expand(GPU_CLUSTER)
    fabric, storage = [r for r in records if isinstance(r, ResourceSlice)][64:]
    assert (fabric.name, fabric.driver, fabric.pool) == ("fabric", "nic.example.com", "fabric")
    assert fabric.node == NodeSelection(node_selector=(
        NodeSelectorTerm((Requirement("topology.kubernetes.io/rack", "In", ("rack-0",)),)),))
    assert [d.name for d in fabric.devices] == ["port-1", "port-2"]
    assert fabric.devices[0].taints == (DeviceTaint("maintenance", "", "NoSchedule"),)
    assert (storage.node, [d.name for d in storage.devices]) == (NodeSelection(all_nodes=True), ["nvme-0"])


def test_sixty_four_gpu_nodes_plan_with_the_allocator():
    records, _ = expand(GPU_CLUSTER)
    nodes = [r for r in records if isinstance(r, Node)]
    gpu_class = {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
                 "spec": {"selectors": [{"cel": {"expression": 'device.driver == "gpu.example.com"'}}]}}
    claim = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "c", "namespace": "ml"},
             "spec": {"devices": {"requests": [{"name": "gpus", "exactly": {
                 "deviceClassName": "gpu", "count": 4,
                 "selectors": [{"cel": {"expression": 'device.attributes["gpu.example.com"].pcieRoot == "pci-1"'}}]}}]}}}
    ctx = Ctx(None)
    allocator = Allocator([r for r in records if isinstance(r, ResourceSlice)], [parse_dra_record(gpu_class, ctx)])
    result = allocator.allocate(nodes[7], [parse_dra_record(claim, ctx)])
    assert [(r.pool, r.device) for r in result.allocations[0].results] == [("gpu-07", f"gpu-{i}") for i in range(4, 8)]


ONE_NODE = """\
apiVersion: wasplan.io/v1alpha1
kind: Cluster
spec:
  nodePools:
  - name: gpu
    count: 1
    allocatable: {cpu: 8}
    devices:
"""


def test_duplicate_device_names_on_a_node_are_a_finding():
    records, diags = expand(ONE_NODE + """\
    - {driver: gpu.example.com, count: 2}
    - {driver: gpu.example.com, count: 1, attributes: {model: h100}}
""")
    [d] = diags
    assert (d.code, d.location.line, d.location.field) == ("WAS605", 10, "spec.nodePools[0].devices[1].namePattern")
    assert d.message == ("device name 'gpu-0' of driver gpu.example.com is used twice on one node; give the entries "
                         "different namePatterns")
    assert [type(r).__name__ for r in records] == ["Node"]


def test_schema_rejects_bad_device_entries():
    records, diags = expand("""\
        apiVersion: wasplan.io/v1alpha1
        kind: Cluster
        spec:
          devicePools:
          - {name: fabric, driver: nic.example.com, count: 1}
          nodePools:
          - name: gpu
            count: 1
            allocatable: {cpu: 8}
            devices:
            - {driver: gpu.example.com, count: 2, capacity: {memory: 10 Gi}}
        """)
    assert records == []
    assert [(d.code, d.location.line, d.location.field) for d in diags] == [
        ("WAS605", 5, "spec.devicePools[0]"), ("WAS601", 11, "spec.nodePools[0].devices[0].capacity.memory")]


def test_an_integer_attribute_template_must_give_an_integer():
    records, diags = expand(ONE_NODE + """\
    - {driver: gpu.example.com, count: 1, attributes: {numa: {int: "n{index}"}}}
""")
    [d] = diags
    assert (d.code, d.location.line, d.location.field) == ("WAS605", 9, "spec.nodePools[0].devices[0].attributes.numa.int")
    assert d.message == "attribute template 'n{index}' gives 'n0', not an integer"
