"""DRA records back to API objects (`dra_objects`): what `--emit-snapshot` writes reads back to the same records,
and the objects are what `kubectl get -o yaml` shows (canonical quantities, no empty fields)."""

import textwrap

import pytest
import yaml

from wasplan.cluster.cluster_kind import expand_cluster
from wasplan.cluster.devices import ResourceSlice
from wasplan.cluster.dra_objects import dra_object
from wasplan.cluster.issues import Ctx
from wasplan.cluster.parse_dra import parse_dra_record
from .dra_samples import CLAIM, FULL_SLICE
from .helpers import read
from .test_cluster_devices import GPU_CLUSTER

PER_DEVICE_SLICE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: parts}
spec:
  driver: gpu.example.com
  pool: {name: p, generation: 0, resourceSliceCount: 1}
  perDeviceNodeSelection: true
  devices:
  - {name: a, nodeName: node-1}
  - name: b
    nodeSelector:
      nodeSelectorTerms:
      - matchExpressions: [{key: rack, operator: In, values: [r1]}]
        matchFields: [{key: metadata.name, operator: In, values: [node-2]}]
  - {name: c, allNodes: true}
"""
TEMPLATE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu, namespace: ml}
spec:
  metadata: {labels: {team: ml}, annotations: {note: x}}
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: gpu, allocationMode: ExactCount, count: 1}}]
"""
CLASS = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu, creationTimestamp: "2026-01-02T03:04:05Z"}
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
  config: [{opaque: {driver: gpu.example.com, parameters: {sharing: time-slicing}}}]
  extendedResourceName: example.com/gpu
"""


def parse(obj: dict):
    ctx = Ctx(None)
    record = parse_dra_record(obj, ctx)
    assert ctx.diags == []
    return record


@pytest.mark.parametrize("text", [FULL_SLICE, PER_DEVICE_SLICE, CLAIM, TEMPLATE, CLASS],
                         ids=["slice", "per-device-slice", "claim", "template", "class"])
def test_objects_are_written_as_read(text):
    original = yaml.safe_load(textwrap.dedent(text))
    assert dra_object(parse(original)) == original


def test_cluster_kind_slices_round_trip():
    doc = read(GPU_CLUSTER, "cluster.yaml").documents[0]
    slices = [r for r in expand_cluster(doc.obj, Ctx(doc)) if isinstance(r, ResourceSlice)]
    for s in (slices[0], slices[-2], slices[-1]):
        obj = dra_object(s)
        assert dra_object(parse(obj)) == obj
    assert dra_object(slices[-2])["spec"]["nodeSelector"] == {
        "nodeSelectorTerms": [{"matchExpressions": [{"key": "topology.kubernetes.io/rack", "operator": "In",
                                                     "values": ["rack-0"]}]}]}
    assert dra_object(slices[0])["spec"]["devices"][0] == {
        "name": "gpu-0", "capacity": {"memory": {"value": "80Gi"}},
        "attributes": {"model": {"string": "a100"}, "numa": {"int": 0}, "pcieRoot": {"string": "pci-0"},
                       "driverVersion": {"version": "1.2.3"}}}
