"""Verdicts of the API server's create path that `wasplan validate` missed, found by the oracle's mutation-fuzzed
comparison (tests/oracle/test_validate_oracle.py) and each checked against the oracle on v1.36.5 and v1.37.2:
the finding, its file, line, field and message. Upstream: pkg/apis/core/validation (containers, lists,
tolerations, node field selectors), apimachinery ValidateOwnerReferences, pkg/apis/batch/validation (restart
policy, Indexed parallelism), pkg/apis/resource/validation (ResourceSlice node selection and counter sets) and
the registry strategies and defaults behind the objects it accepts."""

from __future__ import annotations

import textwrap

import pytest

from wasplan.api.releases import get_release, parse_gates
from wasplan.diagnostics import Severity
from wasplan.documents import read_paths
from wasplan.pipeline.validate import validate_read

POD = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
JOB = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n"


def errors(tmp_path, text: str, release: str = "1.37", gates: str | None = None) -> list[tuple]:
    path = tmp_path / "doc.yaml"
    path.write_text(textwrap.dedent(text))
    report = validate_read(read_paths([str(path)]), parse_gates(get_release(release), gates))
    return [(d.code, d.location.file == str(path), d.location.line, d.location.field, d.message)
            for r in report.results for d in r.diagnostics if d.severity is Severity.ERROR]


@pytest.mark.parametrize("release", ["1.36", "1.37"])
@pytest.mark.parametrize("spec, expected", [
    ("  containers: [{name: c, image: x, resources: {requests: {cpu: false}}}]\n",
     ("WAS103", 5, "spec.containers[0].resources.requests.cpu",
      '"spec.containers[0].resources.requests.cpu" must be a string or a number, not a boolean')),
    ("  containers: []\n", ("WAS102", 5, "spec.containers", "a pod needs at least one container in containers")),
    ("  containers: [{name: c}]\n", ("WAS102", 5, "spec.containers[0].image", "container 'c' names no image")),
    ("  initContainers: [{name: i}]\n  containers: [{name: c, image: x}]\n",
     ("WAS102", 5, "spec.initContainers[0].image", "container 'i' names no image")),
    ("  containers:\n  - name: c\n    image: x\n    volumeMounts: [{name: v, mountPath: /data}, {name: w, mountPath: /data}]\n"
     "  volumes: [{name: v, emptyDir: {}}, {name: w, emptyDir: {}}]\n",
     ("WAS202", 8, "spec.containers[0].volumeMounts[1].mountPath", 'mountPath "/data" is used twice in this list')),
    ("  containers: [{name: c, image: x, ports: [{name: web, containerPort: 80}, {name: web, containerPort: 81}]}]\n",
     ("WAS202", 5, "spec.containers[0].ports[1].name", 'port name "web" is used twice in this list')),
    ("  containers:\n  - {name: c, image: x, ports: [{containerPort: 80, hostPort: 8080}]}\n"
     "  - {name: d, image: x, ports: [{containerPort: 81, hostPort: 8080, protocol: TCP}]}\n",
     ("WAS202", 7, "spec.containers[1].ports[0].hostPort", 'host port "TCP//8080" is used twice in this list')),
    ("  containers: [{name: c, image: x}]\n  schedulingGates: [{name: example.com/hold}, {name: example.com/hold}]\n",
     ("WAS202", 6, "spec.schedulingGates[1]", 'scheduling gate "example.com/hold" is used twice in this list')),
    ("  containers: [{name: c, image: x}]\n  tolerations: [{key: 'bad key', operator: Exists}]\n",
     ("WAS107", 6, "spec.tolerations[0].key", "toleration key 'bad key' is not a valid label key ([prefix/]name, "
      "the name at most 63 letters, digits, '-', '_' or '.')")),
    ("  containers: [{name: c, image: x}]\n  tolerations: [{operator: Equal, value: x}]\n",
     ("WAS107", 6, "spec.tolerations[0].operator",
      "a toleration without a key matches every taint and needs operator Exists")),
    ("  containers: [{name: c, image: x}]\n"
     "  tolerations: [{key: a, operator: Exists, effect: NoSchedule, tolerationSeconds: 5}]\n",
     ("WAS107", 6, "spec.tolerations[0].effect",
      "tolerationSeconds applies to NoExecute taints only: the effect must be NoExecute")),
    ("  containers: [{name: c, image: x}]\n  tolerations: [{key: b, operator: Exists, value: 'on'}]\n",
     ("WAS107", 6, "spec.tolerations[0].operator", "a toleration with operator Exists takes no value")),
    ("  containers: [{name: c, image: x}]\n  affinity:\n    nodeAffinity:\n"
     "      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n"
     "        - matchFields: [{key: metadata.name, operator: In, values: [n1, n2]}]\n",
     ("WAS107", 10, "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
      ".matchFields[0].values", "matchFields with operator In takes exactly one value, got 2")),
    ("  containers: [{name: c, image: x}]\n  affinity:\n    nodeAffinity:\n"
     "      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n"
     "        - matchExpressions: [{key: 'bad key!', operator: Exists}]\n",
     ("WAS107", 10, "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
      ".matchExpressions[0].key", "node selector key 'bad key!' is not a valid label key")),
    ("  containers: [{name: c, image: x}]\n  affinity:\n    nodeAffinity:\n"
     "      preferredDuringSchedulingIgnoredDuringExecution:\n"
     "      - {weight: 1, preference: {matchExpressions: [{key: zone, operator: Gt, values: ['1', '2']}]}}\n",
     ("WAS107", 9, "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference"
      ".matchExpressions[0].values", "operator Gt takes exactly one value, got 2")),
])
def test_pod_rules_the_server_enforces(tmp_path, release, spec, expected):
    code, line, field, message = expected
    assert errors(tmp_path, POD + spec, release) == [(code, True, line, field, message)]


@pytest.mark.parametrize("spec", [
    # a host port once per init container and once among the app containers; another protocol is another port
    "  initContainers: [{name: i, image: x, ports: [{containerPort: 80, hostPort: 8080}]}]\n"
    "  containers: [{name: c, image: x, ports: [{containerPort: 80, hostPort: 8080}]}]\n",
    "  containers: [{name: c, image: x, ports: [{containerPort: 80, hostPort: 8080}, "
    "{containerPort: 80, hostPort: 8080, protocol: UDP}]}]\n",
    # port names are unique per container, not per pod
    "  containers:\n  - {name: c, image: x, ports: [{name: web, containerPort: 80}]}\n"
    "  - {name: d, image: x, ports: [{name: web, containerPort: 81}]}\n",
    "  containers: [{name: c, image: x}]\n  tolerations: [{operator: Exists}, {key: k, operator: Exists, "
    "effect: NoExecute, tolerationSeconds: 0}]\n",
])
def test_pods_the_server_accepts(tmp_path, spec):
    assert errors(tmp_path, POD + spec) == []


def test_only_one_owner_is_the_controller(tmp_path):
    found = errors(tmp_path, """\
        apiVersion: v1
        kind: Pod
        metadata:
          name: p
          ownerReferences:
          - {apiVersion: batch/v1, kind: Job, name: a, uid: u1, controller: true}
          - {apiVersion: batch/v1, kind: Job, name: b, uid: u2, controller: true}
        spec:
          containers: [{name: c, image: x}]
        """)
    assert found == [("WAS107", True, 5, "metadata.ownerReferences",
                      "only one owner reference may be the controller; Job/a and Job/b both say controller: true")]


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_job_restart_policy_and_indexed_parallelism(tmp_path, release):
    found = errors(tmp_path, JOB + "  completionMode: Indexed\n  completions: 200000\n  parallelism: 100001\n"
                   "  template:\n    spec:\n      containers: [{name: c, image: x}]\n", release)
    assert found == [
        ("WAS105", True, 7, "spec.parallelism",
         "an Indexed Job runs at most 100000 pods at once: spec.parallelism 100001 is too high"),
        ("WAS102", True, 9, "spec.template.spec.restartPolicy",
         "a Job's pod template needs restartPolicy OnFailure or Never")]
    always = errors(tmp_path, JOB + "  template:\n    spec:\n      restartPolicy: Always\n"
                    "      containers: [{name: c, image: x}]\n", release)
    assert always == [("WAS104", True, 7, "spec.template.spec.restartPolicy",
                       "a Job's pod template needs restartPolicy OnFailure or Never, not Always")]


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_resource_slice_node_selection_and_counter_sets(tmp_path, release):
    found = errors(tmp_path, """\
        apiVersion: resource.k8s.io/v1
        kind: ResourceSlice
        metadata: {name: counters}
        spec:
          driver: gpu.example.com
          pool: {name: p, generation: 1, resourceSliceCount: 1}
          sharedCounters:
          - {name: gpu-0, counters: {memory: {value: 8Gi}}}
          - {name: gpu-0, counters: {memory: {value: 8Gi}}}
          - {name: Gpu_1, counters: {memory: {value: 8Gi}}}
        """, release)
    assert found == [
        ("WAS223", True, 4, "spec",
         "ResourceSlice spec must set exactly one of nodeName, nodeSelector, allNodes, perDeviceNodeSelection"),
        ("WAS223", True, 9, "spec.sharedCounters[1]", "counter set name 'gpu-0' is used twice in this slice"),
        ("WAS223", True, 10, "spec.sharedCounters[2].name",
         "counter set name 'Gpu_1' is not a DNS label (lowercase letters, digits and '-', at most 63 characters)")]


@pytest.mark.parametrize("release", ["1.36", "1.37"])
@pytest.mark.parametrize("text", [
    # ExactCount with count 0 is "not specified": defaulted to 1 (SetDefaults_ExactDeviceRequest)
    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: t}\n"
    "spec: {spec: {devices: {requests: [{name: gpus, exactly: {deviceClassName: gpu, count: 0}}]}}}\n",
    # an empty spec validates (the 1.36 strict schema says required)
    "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: bare}\n",
    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: bare}\n",
    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: bare}\nspec: {}\n",
])
def test_dra_objects_the_server_accepts(tmp_path, release, text):
    assert errors(tmp_path, text, release) == []


def test_composite_fields_dropped_with_their_gate_decide_nothing(tmp_path):
    """With CompositePodGroup off the 1.37 server drops parentCompositePodGroupName and
    compositePodGroupTemplates on create, so neither WAS208 nor the template union refuses the object."""
    off = "CompositePodGroup=false,TopologyAwareWorkloadScheduling=false"
    podgroup = """\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: PodGroup
        metadata: {name: child}
        spec:
          parentCompositePodGroupName: root
          schedulingPolicy: {basic: {}}
        """
    assert errors(tmp_path, podgroup, gates=off) == []
    assert [e[0] for e in errors(tmp_path, podgroup)] == ["WAS208"]
    workload = """\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: Workload
        metadata: {name: w}
        spec:
          podGroupTemplates: [{name: a, schedulingPolicy: {basic: {}}}]
          compositePodGroupTemplates:
          - name: c
            schedulingPolicy: {basic: {}}
            podGroupTemplates: [{name: b, schedulingPolicy: {basic: {}}}]
        """
    assert errors(tmp_path, workload, gates=off) == []
    assert [e[0] for e in errors(tmp_path, workload)] == ["WAS108"]
