"""Every record field, parsed from YAML shaped like what kubectl and users write."""

from wasplan.api import hub
from wasplan.cluster.model import (
    Affinity, HostPort, LabelSelector, NodeSelectorTerm, Owner, PodAffinityTerm, PreferredSchedulingTerm,
    Requirement, Taint, Toleration, TopologySpreadConstraint, WeightedPodAffinityTerm,
)
from wasplan.cluster.placement import DEFAULT_TOLERATIONS

from .helpers import record

FULL_POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: worker-3
  namespace: ml
  uid: 1111-2222
  creationTimestamp: "2026-11-01T10:00:00Z"
  deletionTimestamp: "2026-11-01T11:00:00Z"
  labels: {app: trainer, tier: gpu}
  ownerReferences:
  - {apiVersion: apps/v1, kind: ReplicaSet, name: other, uid: x}
  - {apiVersion: batch/v1, kind: Job, name: train, uid: y, controller: true}
spec:
  nodeName: gpu-1
  schedulerName: my-scheduler
  priorityClassName: training-high
  priority: 1000
  preemptionPolicy: Never
  schedulingGroup: {podGroupName: train-workers}
  schedulingGates: [{name: example.com/quota}]
  nodeSelector: {nvidia.com/gpu.product: H100}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: topology.kubernetes.io/zone, operator: In, values: [zone-a, zone-b]}
          matchFields:
          - {key: metadata.name, operator: NotIn, values: [gpu-9]}
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 20
        preference:
          matchExpressions:
          - {key: gpu-mem, operator: Gt, values: ["40"]}
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: trainer}}
        topologyKey: topology.kubernetes.io/rack
        matchLabelKeys: [batch.kubernetes.io/controller-uid]
        namespaceSelector: {matchExpressions: [{key: team, operator: Exists}]}
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 50
        podAffinityTerm:
          labelSelector: {matchExpressions: [{key: app, operator: In, values: [trainer]}]}
          topologyKey: kubernetes.io/hostname
          namespaces: [ml, shared]
          mismatchLabelKeys: [tenant]
  tolerations:
  - {key: gpu, operator: Equal, value: "true", effect: NoSchedule}
  - {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}
  - {operator: Exists}
  - {key: dedicated, value: ml}
  topologySpreadConstraints:
  - maxSkew: 2
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: DoNotSchedule
    labelSelector: {matchLabels: {app: trainer}}
    minDomains: 2
    matchLabelKeys: [pod-template-hash]
  - maxSkew: 1
    topologyKey: kubernetes.io/hostname
    whenUnsatisfiable: ScheduleAnyway
    nodeAffinityPolicy: Ignore
    nodeTaintsPolicy: Honor
  initContainers:
  - name: sidecar
    restartPolicy: Always
    ports: [{containerPort: 9000, hostPort: 9000}]
  - name: setup
    ports: [{containerPort: 9001, hostPort: 9001}]
  containers:
  - name: main
    ports:
    - {containerPort: 29500, hostPort: 29500, protocol: TCP, hostIP: 10.0.0.5}
    - {containerPort: 8080}
    - {containerPort: 53, hostPort: 53, protocol: UDP}
    resources:
      requests: {cpu: "4", memory: 16Gi, nvidia.com/gpu: "8"}
status:
  phase: Running
  nominatedNodeName: gpu-2
"""


def test_every_pod_field():
    pod, diags = record(FULL_POD)
    assert diags == []
    assert (pod.namespace, pod.name, pod.uid) == ("ml", "worker-3", "1111-2222")
    assert pod.key == "ml/worker-3"
    assert pod.creation_timestamp == "2026-11-01T10:00:00Z"
    assert pod.terminating is True
    assert pod.labels == {"app": "trainer", "tier": "gpu"}
    assert pod.owner == Owner("Job", "train")  # the controller reference, not the first one
    assert pod.node_name == "gpu-1" and pod.nominated_node_name == "gpu-2" and pod.phase == "Running"
    assert pod.scheduler_name == "my-scheduler"
    assert (pod.priority_class_name, pod.priority, pod.preemption_policy) == ("training-high", 1000, "Never")
    assert pod.pod_group == "train-workers"
    assert pod.scheduling_gates == ("example.com/quota",)
    assert pod.node_selector == {"nvidia.com/gpu.product": "H100"}
    assert pod.requests == {"cpu": 4000, "memory": 16 * 2**30, "nvidia.com/gpu": 8, "pods": 1}
    assert pod.host_ports == (HostPort(9000), HostPort(29500, "TCP", "10.0.0.5"), HostPort(53, "UDP"))
    assert pod.affinity == Affinity(
        node_required=(NodeSelectorTerm(
            (Requirement("topology.kubernetes.io/zone", "In", ("zone-a", "zone-b")),),
            (Requirement("metadata.name", "NotIn", ("gpu-9",)),)),),
        node_preferred=(PreferredSchedulingTerm(20, NodeSelectorTerm((Requirement("gpu-mem", "Gt", ("40",)),))),),
        pod_required=(PodAffinityTerm(
            LabelSelector((("app", "trainer"),)), "topology.kubernetes.io/rack",
            namespace_selector=LabelSelector((), (Requirement("team", "Exists"),)),
            match_label_keys=("batch.kubernetes.io/controller-uid",)),),
        anti_preferred=(WeightedPodAffinityTerm(50, PodAffinityTerm(
            LabelSelector((), (Requirement("app", "In", ("trainer",)),)), "kubernetes.io/hostname",
            namespaces=("ml", "shared"), mismatch_label_keys=("tenant",))),),
    )
    assert pod.tolerations == (
        Toleration("gpu", "Equal", "true", "NoSchedule"),
        Toleration("node.kubernetes.io/not-ready", "Exists", "", "NoExecute", 300),
        Toleration("", "Exists", "", ""),
        Toleration("dedicated", "Equal", "ml", ""),  # operator defaults to Equal
    )
    assert pod.topology_spread == (
        TopologySpreadConstraint(2, "topology.kubernetes.io/zone", "DoNotSchedule",
                                 LabelSelector((("app", "trainer"),)), 2, "Honor", "Ignore", ("pod-template-hash",)),
        TopologySpreadConstraint(1, "kubernetes.io/hostname", "ScheduleAnyway", None, None, "Ignore", "Honor"),
    )
    assert pod.source is not None and pod.source.name == "worker-3"


def test_pod_defaults():
    pod, diags = record("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\n")
    assert diags == []
    assert pod.namespace == "default" and pod.phase == "Pending" and pod.node_name is None
    assert pod.scheduler_name == "default-scheduler" and pod.pod_group is None and pod.owner is None
    assert pod.priority is None and pod.affinity is None and not pod.terminating
    assert pod.tolerations == DEFAULT_TOLERATIONS  # DefaultTolerationSeconds' not-ready and unreachable, 300 s


def test_node_from_kubectl_output():
    node, diags = record("""\
        apiVersion: v1
        kind: Node
        metadata:
          name: gpu-a-1
          labels: {kubernetes.io/hostname: gpu-a-1, topology.kubernetes.io/rack: rack-a}
        spec:
          unschedulable: true
          taints:
          - {key: nvidia.com/gpu, value: present, effect: NoSchedule}
          - {key: spot, effect: PreferNoSchedule}
        status:
          capacity: {cpu: "192", memory: 2097005592Ki, nvidia.com/gpu: "8", pods: "110"}
          allocatable: {cpu: 191500m, memory: 2035103768Ki, nvidia.com/gpu: "8", pods: "110", hugepages-1Gi: "0"}
        """)
    assert diags == []
    assert node.name == "gpu-a-1" and node.unschedulable is True
    assert node.labels["topology.kubernetes.io/rack"] == "rack-a"
    assert node.allocatable == {"cpu": 191500, "memory": 2035103768 * 1024, "nvidia.com/gpu": 8, "pods": 110,
                                "hugepages-1Gi": 0}
    assert node.taints == (Taint("nvidia.com/gpu", "present", "NoSchedule"), Taint("spot", "", "PreferNoSchedule"))


def test_node_without_allocatable_uses_capacity():
    node, _ = record("apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {capacity: {cpu: 8, pods: 10}}\n")
    assert node.allocatable == {"cpu": 8000, "pods": 10} and node.unschedulable is False and node.taints == ()


def test_priority_class():
    pc, diags = record("""\
        apiVersion: scheduling.k8s.io/v1
        kind: PriorityClass
        metadata: {name: batch-low}
        value: 1000
        globalDefault: true
        preemptionPolicy: Never
        """)
    assert diags == [] and (pc.name, pc.value, pc.global_default, pc.preemption_policy) == ("batch-low", 1000, True, "Never")
    pc, _ = record("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: x}\nvalue: -5\n")
    assert (pc.global_default, pc.preemption_policy) == (False, "PreemptLowerPriority")


def test_pod_disruption_budget():
    pdb, diags = record("""\
        apiVersion: policy/v1
        kind: PodDisruptionBudget
        metadata: {name: coredns, namespace: kube-system}
        spec:
          minAvailable: 50%
          selector: {matchLabels: {k8s-app: kube-dns}}
        status: {disruptionsAllowed: 1, currentHealthy: 2}
        """)
    assert diags == []
    assert (pdb.namespace, pdb.name, pdb.min_available, pdb.max_unavailable, pdb.disruptions_allowed) == \
        ("kube-system", "coredns", "50%", None, 1)
    assert pdb.selector == LabelSelector((("k8s-app", "kube-dns"),))


def test_scheduling_kinds_become_groups_in_any_version():
    wl, diags = record("""\
        apiVersion: scheduling.k8s.io/v1alpha2
        kind: Workload
        metadata: {name: train, namespace: ml}
        spec:
          podGroupTemplates:
          - name: workers
            schedulingPolicy: {gang: {minCount: 4}}
            disruptionMode: PodGroup
        """)
    assert diags == [] and (wl.namespace, wl.name, wl.key) == ("ml", "train", "ml/train")
    assert isinstance(wl.obj, hub.Workload)
    assert wl.obj.pod_group_templates[0].policy.min_count == 4
    assert wl.obj.pod_group_templates[0].disruption_mode is hub.DisruptionMode.ALL
    pg, _ = record("""\
        apiVersion: scheduling.k8s.io/v1beta1
        kind: PodGroup
        metadata: {name: train-workers}
        spec:
          workloadRef: {workloadName: train, templateName: workers}
          schedulingPolicy: {basic: {}}
        """)
    assert isinstance(pg.obj, hub.PodGroup) and pg.namespace == "default"
    assert pg.obj.workload_ref == hub.WorkloadRef(workload_name="train", template_name="workers")


def test_unreadable_group_is_a_finding_not_an_exception():
    group, diags = record("apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g}\n"
                          "spec: {workloadRef: {templateName: t}, schedulingPolicy: {gang: {}}}\n")
    assert group is None and [d.code for d in diags] == ["WAS608"]


def test_irrelevant_kinds_are_not_records():
    assert record("apiVersion: v1\nkind: Service\nmetadata: {name: s}\n") == (None, [])


def test_malformed_quantity_points_at_file_line_and_field():
    text = """\
apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers:
  - name: main
    resources:
      requests:
        cpu: 500m
        memory: 10 Gi
"""
    pod, diags = record(text, "team/pod.yaml")
    assert pod.requests == {"cpu": 500, "pods": 1}
    [d] = diags
    assert d.code == "WAS601" and d.severity.label == "error"
    assert (d.location.file, d.location.line, d.location.col) == ("team/pod.yaml", 11, 9)
    assert d.location.field == "spec.containers[0].resources.requests.memory"
    assert "10 Gi" in d.message


def test_wrong_types_are_reported_and_ignored():
    pod, diags = record("""\
        apiVersion: v1
        kind: Pod
        metadata: {name: p, labels: {enabled: true}}
        spec:
          containers: [{name: c}]
          tolerations: [{key: a, operator: Maybe}]
          topologySpreadConstraints: [{maxSkew: 0, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]
          priority: high
        """)
    assert pod.labels == {} and pod.tolerations == DEFAULT_TOLERATIONS and pod.priority is None
    assert pod.topology_spread[0].max_skew == 1
    assert sorted(d.location.field for d in diags) == [
        "metadata.labels.enabled", "spec.priority", "spec.tolerations[0].operator",
        "spec.topologySpreadConstraints[0].maxSkew"]
    assert {d.code for d in diags} == {"WAS602"}


POOL_NODE = "apiVersion: v1\nkind: Node\nmetadata: {{name: {name}}}\nstatus: {{allocatable: {{cpu: \"{cpu}\", pods: \"110\"}}}}\n"


def test_nodes_of_one_shape_each_get_their_own_capacities_and_every_finding():
    """Node capacities are computed once per shape (parse_core.node_capacity): every node of a pool still gets
    its own dict, and a shape with a bad quantity is reported on each node that has it, with its own line."""
    first, diags = record(POOL_NODE.format(name="a", cpu="32"))
    second, more = record(POOL_NODE.format(name="b", cpu="32"))
    assert diags == more == []
    assert first.allocatable == second.allocatable == {"cpu": 32000, "pods": 110}
    assert first.allocatable is not second.allocatable
    first.allocatable["cpu"] = 1
    assert record(POOL_NODE.format(name="c", cpu="32"))[0].allocatable["cpu"] == 32000
    for name in ("d", "e"):
        node, found = record(POOL_NODE.format(name=name, cpu="lots"), f"{name}.yaml")
        assert node.allocatable == {"pods": 110}
        assert [(d.code, d.location.file, d.location.path) for d in found] == [
            ("WAS601", f"{name}.yaml", ("status", "allocatable", "cpu"))]
