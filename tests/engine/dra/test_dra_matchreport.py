"""The stage-by-stage device analysis (`engine.dra.matchreport`) that lint --cluster and explain share."""

from __future__ import annotations

import yaml

from drahelp import node, parsed
from wasplan.engine.dra import Allocator, SelectorCache
from wasplan.engine.dra.matchreport import cluster_devices, match_request, per_node

OBJECTS = yaml.safe_load_all("""\
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: n1-gpu}
spec:
  driver: gpu.example.com
  pool: {name: n1, generation: 1, resourceSliceCount: 1}
  nodeName: n1
  devices:
  - {name: g0, attributes: {productName: {string: NVIDIA H100 80GB HBM3}}, capacity: {memory: {value: 80Gi}}}
  - {name: g1, attributes: {productName: {string: NVIDIA H100 80GB HBM3}}, capacity: {memory: {value: 80Gi}}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: n2-gpu}
spec:
  driver: gpu.example.com
  pool: {name: n2, generation: 1, resourceSliceCount: 1}
  nodeName: n2
  devices:
  - {name: g0, attributes: {productName: {string: NVIDIA A100-SXM4-40GB}}, capacity: {memory: {value: 40Gi}}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: east-fabric-old}
spec:
  driver: gpu.example.com
  pool: {name: east, generation: 1, resourceSliceCount: 1}
  nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: region, operator: In, values: [east]}]}]}
  devices:
  - {name: stale, attributes: {productName: {string: NVIDIA H100 80GB HBM3}}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: east-fabric}
spec:
  driver: gpu.example.com
  pool: {name: east, generation: 2, resourceSliceCount: 1}
  nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: region, operator: In, values: [east]}]}]}
  devices:
  - {name: e0, attributes: {productName: {string: NVIDIA H100 80GB HBM3}}}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
""")
RECORDS = [parsed(o) for o in OBJECTS]
SLICES, CLASS = RECORDS[:4], RECORDS[4]
NODES = [node("n1", "east"), node("n2", "west")]


def request(*selectors: str, count: int = 1):
    claim = parsed({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
                    "metadata": {"name": "c", "namespace": "default"},
                    "spec": {"devices": {"requests": [{"name": "gpus", "exactly": {
                        "deviceClassName": "gpu", "count": count,
                        "selectors": [{"cel": {"expression": e}} for e in selectors]}}]}}})
    return claim.spec.requests[0].exactly


def test_devices_are_the_newest_generation_in_pool_order():
    ids = [ref.device_id for ref in cluster_devices(SLICES)]
    assert ids == [("gpu.example.com", "east", "e0"), ("gpu.example.com", "n1", "g0"), ("gpu.example.com", "n1", "g1"),
                   ("gpu.example.com", "n2", "g0")]


def test_stages_and_the_values_devices_have_closest_first():
    spec = request('device.attributes["gpu.example.com"].productName == "NVIDIA H100"')
    report = match_request(spec, CLASS, cluster_devices(SLICES), SelectorCache())
    assert [(s.source, s.index, s.reached, s.remaining) for s in report.stages] == [("class", 0, 4, 4),
                                                                                  ("request", 0, 4, 0)]
    assert report.matched == () and report.eliminating is report.stages[1]
    [values] = report.values
    assert values.field == 'device.attributes["gpu.example.com"].productName'
    assert values.values == (('"NVIDIA H100 80GB HBM3"', 3), ('"NVIDIA A100-SXM4-40GB"', 1))


def test_capacity_values_print_as_quantities_and_runtime_errors_are_counted():
    spec = request('device.capacity["gpu.example.com"].memory.compareTo(quantity("100Gi")) >= 0')
    report = match_request(spec, CLASS, cluster_devices(SLICES), SelectorCache())
    stage = report.eliminating
    assert (stage.reached, stage.remaining, stage.errors) == (4, 0, 1)  # e0 has no memory capacity
    assert stage.error.startswith("no such key")
    assert report.values[0].values == (("80Gi", 2), ("40Gi", 1))


def test_per_node_reach_counts_node_local_and_selected_network_devices():
    spec = request('device.attributes["gpu.example.com"].productName.startsWith("NVIDIA H100")')
    report = match_request(spec, CLASS, cluster_devices(SLICES), SelectorCache())
    assert [r.device_id[2] for r in report.matched] == ["e0", "g0", "g1"]
    allocator = Allocator(SLICES, [CLASS])
    assert per_node(report.matched, allocator, NODES) == [3, 0]
