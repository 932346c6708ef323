"""The compact Cluster kind: its schema, and its deterministic expansion into records."""

import json

import jsonschema
import pytest
import yaml

from wasplan.cluster.cluster_kind import expand_cluster, schema_path
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Node, Pod, PriorityClass, Taint
from .helpers import read
from .helpers import FIXTURES

GI = 2**30


def validator():
    schema = json.loads(schema_path().read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def expand(text: str):
    doc = read(text, "cluster.yaml").documents[0]
    ctx = Ctx(doc)
    return expand_cluster(doc.obj, ctx), ctx.diags


RACKS = """\
apiVersion: wasplan.io/v1alpha1
kind: Cluster
metadata: {name: lab}
spec:
  priorityClasses:
  - {name: high, value: 1000, preemptionPolicy: Never}
  nodePools:
  - name: train
    count: 8
    namePattern: "gpu-r{index // 4}-{index % 4}"
    labels:
      topology.kubernetes.io/rack: "rack-{index // 4}"
      topology.kubernetes.io/zone: "zone-{index % 2}"
      static: "yes"
    taints:
    - {key: gpu, value: "true", effect: NoSchedule}
    allocatable: {cpu: 96, memory: 768Gi, nvidia.com/gpu: 8}
  - name: cpu
    count: 2
    allocatable: {cpu: "16", memory: 64Gi, pods: 50}
    unschedulable: true
  pods:
  - name: "serve-{index1}"
    namespace: serving
    count: 3
    node: "gpu-r1-{index}"
    priorityClassName: high
    podGroupName: serve
    labels: {app: serve, shard: "s{index}"}
    requests: {cpu: 8, nvidia.com/gpu: 4}
  - name: worker
    count: 2
    requests: {memory: 1Gi}
"""


def test_pools_expand_in_order_with_per_index_names_and_labels():
    records, diags = expand(RACKS)
    assert diags == []
    nodes = [r for r in records if isinstance(r, Node)]
    assert [n.name for n in nodes] == ["gpu-r0-0", "gpu-r0-1", "gpu-r0-2", "gpu-r0-3",
                                       "gpu-r1-0", "gpu-r1-1", "gpu-r1-2", "gpu-r1-3", "cpu-0", "cpu-1"]
    n5 = nodes[5]
    assert n5.labels == {"kubernetes.io/hostname": "gpu-r1-1", "wasplan.io/node-pool": "train",
                         "topology.kubernetes.io/rack": "rack-1", "topology.kubernetes.io/zone": "zone-1",
                         "static": "yes"}
    assert n5.allocatable == {"cpu": 96000, "memory": 768 * GI, "nvidia.com/gpu": 8, "pods": 110}
    assert n5.taints == (Taint("gpu", "true", "NoSchedule"),) and not n5.unschedulable
    assert nodes[8].allocatable == {"cpu": 16000, "memory": 64 * GI, "pods": 50} and nodes[8].unschedulable
    assert nodes[8].labels["kubernetes.io/hostname"] == "cpu-0"


def test_priority_classes_and_pods():
    records, _ = expand(RACKS)
    assert records[0] == PriorityClass("high", 1000, False, "Never", records[0].source)
    pods = [r for r in records if isinstance(r, Pod)]
    assert [(p.namespace, p.name, p.node_name, p.phase) for p in pods] == [
        ("serving", "serve-1", "gpu-r1-0", "Running"), ("serving", "serve-2", "gpu-r1-1", "Running"),
        ("serving", "serve-3", "gpu-r1-2", "Running"),
        ("default", "worker-0", None, "Pending"), ("default", "worker-1", None, "Pending")]
    serve = pods[1]
    assert serve.labels == {"app": "serve", "shard": "s1"}
    assert serve.requests == {"cpu": 8000, "nvidia.com/gpu": 4, "pods": 1}
    assert serve.non_zero_requests == {"cpu": 8000, "memory": 200 * 2**20}
    assert (serve.priority_class_name, serve.pod_group) == ("high", "serve")
    assert pods[3].non_zero_requests == {"cpu": 100, "memory": GI}


def test_expansion_is_deterministic():
    first, _ = expand(RACKS)
    second, _ = expand(RACKS)
    assert [(type(r).__name__, r.name, getattr(r, "labels", None)) for r in first] == \
        [(type(r).__name__, r.name, getattr(r, "labels", None)) for r in second]


def test_bad_template_is_reported_at_its_field():
    records, diags = expand("""\
apiVersion: wasplan.io/v1alpha1
kind: Cluster
spec:
  nodePools:
  - name: a
    count: 2
    namePattern: "n-{index // (index - 1)}"
    allocatable: {cpu: 1}
  - name: b
    count: 1
    namePattern: "m-{rack}"
    allocatable: {cpu: 1}
""")
    # pool a: index 0 renders (0 // -1 == 0), index 1 divides by zero and stops the pool; pool b never starts
    assert [r.name for r in records] == ["n-0"]
    assert [(d.code, d.location.field, d.location.line) for d in diags] == [
        ("WAS605", "spec.nodePools[0].namePattern", 7), ("WAS605", "spec.nodePools[1].namePattern", 11)]



VALID = [
    {"apiVersion": "wasplan.io/v1alpha1", "kind": "Cluster", "spec": {}},
    {"apiVersion": "wasplan.io/v1alpha1", "kind": "Cluster", "metadata": {"name": "x"},
     "spec": {"nodePools": [{"name": "p", "count": 0, "allocatable": {"cpu": 0.5, "memory": "1.5Gi"}}]}},
    {"apiVersion": "wasplan.io/v1alpha1", "kind": "Cluster",
     "spec": {"pods": [{"name": "p-{index}", "count": 3, "node": "n", "requests": {"cpu": "1e3"}}],
              "priorityClasses": [{"name": "x", "value": -10, "globalDefault": True}]}},
]

INVALID = [
    ({"apiVersion": "wasplan.io/v1alpha1", "kind": "Cluster"}, "spec"),
    ({"apiVersion": "wasplan.io/v1", "kind": "Cluster", "spec": {}}, "apiVersion"),
    ({"apiVersion": "wasplan.io/v1alpha1", "kind": "Cluster", "spec": {"nodes": []}}, "nodes"),
    ({"apiVersion": "wasplan.io/v1alpha1", "kind": "Cluster",
      "spec": {"nodePools": [{"name": "p", "count": 1}]}}, "allocatable"),
    ({"apiVersion": "wasplan.io/v1alpha1", "kind": "Cluster",
      "spec": {"nodePools": [{"name": "p", "count": -1, "allocatable": {}}]}}, "count"),
    ({"apiVersion": "wasplan.io/v1alpha1", "kind": "Cluster",
      "spec": {"nodePools": [{"name": "P_1", "count": 1, "allocatable": {}}]}}, "name"),
    ({"apiVersion": "wasplan.io/v1alpha1", "kind": "Cluster",
      "spec": {"nodePools": [{"name": "p", "count": 1, "allocatable": {"cpu": "10 Gi"}}]}}, "cpu"),
    ({"apiVersion": "wasplan.io/v1alpha1", "kind": "Cluster",
      "spec": {"nodePools": [{"name": "p", "count": 1, "allocatable": {}, "taints": [{"key": "k", "effect": "Never"}]}]}},
     "effect"),
    ({"apiVersion": "wasplan.io/v1alpha1", "kind": "Cluster", "spec": {"pods": [{"node": "n"}]}}, "name"),
    ({"apiVersion": "wasplan.io/v1alpha1", "kind": "Cluster",
      "spec": {"pods": [{"name": "p", "tolerations": []}]}}, "tolerations"),
    ({"apiVersion": "wasplan.io/v1alpha1", "kind": "Cluster",
      "spec": {"priorityClasses": [{"name": "x", "value": 2000000001}]}}, "value"),
]


@pytest.mark.parametrize("doc", VALID)
def test_schema_accepts(doc):
    assert list(validator().iter_errors(doc)) == []


@pytest.mark.parametrize("doc,where", INVALID)
def test_schema_rejects(doc, where):
    errors = list(validator().iter_errors(doc))
    assert errors
    assert any(where in (list(map(str, e.absolute_path)) + [e.message]) or where in e.message for e in errors)


def test_bundled_example_cluster_is_valid():
    doc = yaml.safe_load((FIXTURES / "examples" / "cluster.yaml").read_text())
    assert list(validator().iter_errors(doc)) == []


def test_schema_violation_yields_findings_and_no_records():
    records, diags = expand("""\
apiVersion: wasplan.io/v1alpha1
kind: Cluster
spec:
  nodePools:
  - name: p
    count: 2
    allocatable: {cpu: 1.5.5}
    color: blue
""")
    assert records == []
    assert sorted((d.code, d.location.field) for d in diags) == [
        ("WAS601", "spec.nodePools[0].allocatable.cpu"), ("WAS605", "spec.nodePools[0]")]


def test_integral_float_count_expands_like_an_integer():
    nodes, diags = expand("apiVersion: wasplan.io/v1alpha1\nkind: Cluster\nmetadata: {name: t}\nspec:\n  nodePools:\n"
                          "  - {name: a, count: 2.0, allocatable: {cpu: 4}}\n"
                          "  pods:\n  - {name: p, count: 2.0, node: a-0}\n")
    assert diags == []
    assert [r.name for r in nodes if isinstance(r, Node)] == ["a-0", "a-1"]
    assert [r.name for r in nodes if isinstance(r, Pod)] == ["p-0", "p-1"]
