"""build_inputs: snapshots as kubectl prints them, ordering, what is dropped, and what either side may hold."""

import json

import yaml

from wasplan.cluster.model import Group, Node, Pod, PriorityClass
from wasplan.cluster.snapshot import build_inputs
from wasplan.documents import ReadResult, read_paths, read_text

from .helpers import FIXTURES, gates, inputs, names

SNAPSHOT = FIXTURES / "clusters" / "kubectl-snapshot.yaml"


def test_kubectl_snapshot_is_ordered_by_creation_and_drops_finished_pods():
    result = read_paths([str(SNAPSHOT)])
    assert result.diagnostics == []
    plan, diags = build_inputs(result, ReadResult(), gates())
    assert diags == []
    assert names(plan.existing) == [
        "Node:cp-1", "PriorityClass:system-cluster-critical", "Pod:coredns-7c65d6cfc9-x8k2p",
        "PodDisruptionBudget:coredns", "Node:gpu-a-0", "Node:gpu-a-1", "PriorityClass:training-high",
        "PriorityClass:batch-low", "Group:pretrain-7b", "Group:pretrain-7b-workers", "Pod:pretrain-7b-0-q2w8r",
        "Pod:notebook-alice",
    ]  # nightly-eval (Succeeded) is gone
    assert plan.arrivals == []
    by_name = {r.name: r for r in plan.existing}
    running = by_name["pretrain-7b-0-q2w8r"]
    assert running.node_name == "gpu-a-0" and running.pod_group == "pretrain-7b-workers"
    assert running.requests == {"cpu": 90500, "memory": 900 * 2**30 + 256 * 2**20, "nvidia.com/gpu": 8, "pods": 1}
    assert running.priority == 100000 and running.host_ports[0].port == 29500
    pending = by_name["notebook-alice"]
    assert pending.node_name is None and pending.phase == "Pending"
    assert pending.requests == {"cpu": 4000, "memory": 32 * 2**30, "nvidia.com/gpu": 1, "pods": 1}
    assert by_name["gpu-a-1"].unschedulable and by_name["cp-1"].allocatable["memory"] == 15896020 * 1024
    assert by_name["coredns"].disruptions_allowed == 1
    assert by_name["batch-low"].global_default


def test_json_snapshot_reads_the_same_as_yaml(tmp_path):
    path = tmp_path / "snapshot.json"
    path.write_text(json.dumps(yaml.safe_load(SNAPSHOT.read_text()), indent=2))
    from_json, _ = build_inputs(read_paths([str(path)]), ReadResult(), gates())
    from_yaml, _ = build_inputs(read_paths([str(SNAPSHOT)]), ReadResult(), gates())
    assert names(from_json.existing) == names(from_yaml.existing)
    assert [getattr(r, "requests", None) for r in from_json.existing] == \
        [getattr(r, "requests", None) for r in from_yaml.existing]


def pod(name, ts=None, extra=""):
    stamp = f", creationTimestamp: '{ts}'" if ts else ""
    return f"apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}{stamp}}}\nspec: {{containers: [{{name: c}}]{extra}}}\n"


def test_objects_without_timestamp_follow_in_input_order():
    snap = "---\n".join([pod("late", "2026-05-01T00:00:00Z"), pod("none-1"), pod("early", "2026-01-01T00:00:00+02:00"),
                         pod("none-2"), pod("frac", "2026-01-01T00:00:00.5Z")])
    plan, diags = inputs(snapshot=snap)
    assert diags == []
    assert names(plan.existing) == ["Pod:early", "Pod:frac", "Pod:late", "Pod:none-1", "Pod:none-2"]


def test_bad_timestamp_is_a_warning_and_orders_like_none():
    plan, diags = inputs(snapshot=pod("odd", "yesterday") + "---\n" + pod("dated", "2026-01-01T00:00:00Z"))
    assert names(plan.existing) == ["Pod:dated", "Pod:odd"]
    [d] = diags
    assert (d.code, d.severity.label, d.location.field) == ("WAS604", "warning", "metadata.creationTimestamp")


def test_irrelevant_kinds_are_ignored_silently():
    plan, diags = inputs(manifests="""\
apiVersion: v1
kind: Service
metadata: {name: s}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c}
data: {a: b}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: i}
spec: {rules: [{host: example.com}]}
""")
    assert (plan.existing, plan.arrivals, plan.unplanned, diags) == ([], [], [], [])


def test_unserved_scheduling_versions_still_parse():
    plan, diags = inputs(manifests="""\
apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata: {name: g}
spec:
  podGroupTemplateRef: {workload: {workloadName: w, podGroupTemplateName: t}}
  schedulingPolicy: {gang: {minCount: 2}}
""", version="1.37")
    [group] = plan.arrivals
    assert diags == [] and isinstance(group, Group) and group.obj.policy.min_count == 2


def test_any_object_may_come_from_either_side():
    node = "apiVersion: v1\nkind: Node\nmetadata: {name: extra}\nstatus: {allocatable: {cpu: 8}}\n"
    plan, _ = inputs(snapshot=pod("pending"), manifests=node)
    assert isinstance(plan.existing[0], Pod) and plan.existing[0].node_name is None
    assert isinstance(plan.arrivals[0], Node)
    cluster = (FIXTURES / "examples" / "cluster.yaml").read_text()
    plan, diags = inputs(manifests=cluster)
    assert diags == [] and sum(isinstance(r, Node) for r in plan.arrivals) == 19


def test_duplicates_keep_the_first():
    plan, diags = inputs(snapshot=pod("a") + "---\n" + pod("a", extra=", nodeName: n1"), manifests=pod("a"))
    assert names(plan.existing) == ["Pod:a"] and plan.existing[0].node_name is None
    assert plan.arrivals == []
    assert [(d.code, d.location.file) for d in diags] == [("WAS606", "snapshot.yaml"), ("WAS606", "manifests.yaml")]


def test_same_name_in_other_namespace_or_kind_is_not_a_duplicate():
    other_ns = pod("a").replace("{name: a}", "{name: a, namespace: other}")
    pg = "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: a}\nspec: {schedulingPolicy: {basic: {}}}\n"
    plan, diags = inputs(manifests="---\n".join([pod("a"), other_ns, pg]))
    assert diags == [] and len(plan.arrivals) == 3


def test_unnamed_objects_are_reported():
    plan, diags = inputs(manifests="apiVersion: v1\nkind: Pod\nmetadata: {labels: {a: b}}\nspec: {containers: []}\n")
    assert plan.arrivals == []
    [d] = diags
    assert (d.code, d.message) == ("WAS603", "Pod has no metadata.name; it was left out of the plan")


def test_generate_name_gets_a_deterministic_name_and_a_note():
    two = "apiVersion: v1\nkind: Pod\nmetadata: {generateName: web-}\nspec: {containers: []}\n"
    plan, diags = inputs(manifests=two + "---\n" + two)
    assert [p.name for p in plan.arrivals] == ["web-98c77", "web-cc558"]
    assert [(d.code, d.location.path, d.message) for d in diags] == [
        ("WAS620", ("metadata", "generateName"), "Pod has only metadata.generateName 'web-'; it is planned as "
         "'web-98c77', and the API server will pick a different random name"),
        ("WAS620", ("metadata", "generateName"), "Pod has only metadata.generateName 'web-'; it is planned as "
         "'web-cc558', and the API server will pick a different random name")]


JOB = """\
apiVersion: batch/v1
kind: Job
metadata: {name: etl, namespace: data, creationTimestamp: "2026-02-01T00:00:00Z"}
spec:
  parallelism: 2
  template:
    spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}
"""


def test_snapshot_job_with_its_pods_listed_is_not_expanded_again():
    own = pod("etl-abcde", "2026-02-01T00:00:01Z").replace(
        "{name: etl-abcde,", "{name: etl-abcde, namespace: data, labels: {batch.kubernetes.io/job-name: etl},")
    plan, _ = inputs(snapshot=JOB + "---\n" + own, gate_spec="WorkloadWithJob=false")
    assert names(plan.existing) == ["Pod:etl-abcde"]


def test_snapshot_job_that_already_ran_is_not_expanded():
    plan, _ = inputs(snapshot=JOB + "status: {succeeded: 2, completionTime: '2026-02-01T01:00:00Z'}\n")
    assert plan.existing == []


def test_hand_written_snapshot_job_is_expanded():
    plan, _ = inputs(snapshot=JOB, gate_spec="WorkloadWithJob=false")
    assert names(plan.existing) == ["Pod:etl-0", "Pod:etl-1"]


def test_priority_classes_from_a_cluster_kind_snapshot():
    plan, _ = inputs(snapshot=(FIXTURES / "examples" / "cluster.yaml").read_text())
    pcs = [r for r in plan.existing if isinstance(r, PriorityClass)]
    assert [(p.name, p.value) for p in pcs] == [("inference-critical", 1000000), ("training-high", 100000),
                                                ("batch-low", 1000)]
    running = [r for r in plan.existing if isinstance(r, Pod)]
    assert len(running) == 11 and all(p.node_name for p in running)


def test_bundled_training_example_plans_in_one_command():
    snap = read_paths([str(FIXTURES / "examples" / "cluster.yaml")])
    mani = read_paths([str(FIXTURES / "examples" / "training")])
    plan, diags = build_inputs(snap, mani, gates("1.37"))
    assert diags == []
    assert names(plan.arrivals) == [
        "Group:finetune-13b", "Group:finetune-13b-trainers", "Group:finetune-13b-evaluator",
        "Pod:finetune-13b-trainer-0", "Pod:finetune-13b-trainer-1", "Pod:finetune-13b-evaluator",
        "Group:pretrain-70b", "Group:pretrain-70b-job",
        "Pod:pretrain-70b-0", "Pod:pretrain-70b-1", "Pod:pretrain-70b-2", "Pod:pretrain-70b-3",
    ]
    gang = plan.arrivals[7].obj
    assert gang.policy.min_count == 4 and gang.topology_keys == ("topology.kubernetes.io/rack",)


def test_read_text_documents_work_without_global_order():
    """Documents read with read_text all have order 0; input order comes from their position instead."""
    result = read_text("s.yaml", pod("b") + "---\n" + pod("a"))
    plan, _ = build_inputs(result, ReadResult(), gates())
    assert names(plan.existing) == ["Pod:b", "Pod:a"]


def test_garbage_collector_state_is_restored():
    import gc

    assert gc.isenabled()
    inputs(snapshot=pod("a"))
    assert gc.isenabled()
    gc.disable()
    try:
        inputs(snapshot=pod("a"))
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_duplicate_nodes_from_overlapping_pools():
    plan, diags = inputs(snapshot="""\
apiVersion: wasplan.io/v1alpha1
kind: Cluster
spec:
  nodePools:
  - {name: a, count: 2, namePattern: "n-{index}", allocatable: {cpu: 1}}
  - {name: b, count: 2, namePattern: "n-{index + 1}", allocatable: {cpu: 2}}
""")
    assert names(plan.existing) == ["Node:n-0", "Node:n-1", "Node:n-2"]
    assert plan.existing[1].allocatable["cpu"] == 1000  # the first definition wins
    assert [d.code for d in diags] == ["WAS606"]
