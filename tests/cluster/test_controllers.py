"""The workload controllers' expansion record by record: names, labels, owners, groups, waits and findings
(JobSet, LeaderWorkerSet, Deployment/ReplicaSet/StatefulSet), and the snapshot rule for workloads."""

from __future__ import annotations

import hashlib

from wasplan.api import hub
from wasplan.cluster.controllers.lws import subgroup_of
from wasplan.cluster.controllers.names import Namer, safe_encode, template_hash
from wasplan.cluster.model import Group, Pod
from wasplan.engine.profile.options import EngineOptions
from wasplan.engine.simulator import simulate

from .helpers import gates, inputs

JOBSET = """\
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: train, namespace: ml}
spec:
  coordinator: {replicatedJob: driver}
  replicatedJobs:
  - name: driver
    template:
      spec:
        template:
          spec:
            containers: [{name: c, image: x}]
  - name: workers
    replicas: 2
    groupName: pool
    template:
      metadata: {labels: {team: a}}
      spec:
        parallelism: 2
        completions: 2
        completionMode: Indexed
        template:
          metadata: {labels: {app: w}}
          spec:
            priorityClassName: high
            containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
"""


def _pods(records):
    return [r for r in records if isinstance(r, Pod)]


def test_jobset_child_jobs_pods_labels_and_owner_chain():
    plan, diags = inputs(manifests=JOBSET)
    assert diags == []
    pods = _pods(plan.arrivals)
    assert [p.name for p in pods] == ["train-driver-0-0", "train-workers-0-0", "train-workers-0-1",
                                      "train-workers-1-0", "train-workers-1-1"]
    w = pods[3]
    key = hashlib.sha1(b"ml/train-workers-1").hexdigest()
    assert w.labels == {
        "app": "w", "jobset.sigs.k8s.io/jobset-name": "train", "jobset.sigs.k8s.io/replicatedjob-name": "workers",
        "jobset.sigs.k8s.io/restart-attempt": "0", "jobset.sigs.k8s.io/replicatedjob-replicas": "2",
        "jobset.sigs.k8s.io/global-replicas": "3", "jobset.sigs.k8s.io/job-index": "1",
        "jobset.sigs.k8s.io/job-key": key, "jobset.sigs.k8s.io/job-global-index": "2",
        "jobset.sigs.k8s.io/group-name": "pool", "jobset.sigs.k8s.io/group-replicas": "2",
        "jobset.sigs.k8s.io/job-group-index": "1", "jobset.sigs.k8s.io/coordinator": "train-driver-0-0.train",
        "jobset.sigs.k8s.io/priority": "1000", "batch.kubernetes.io/job-name": "train-workers-1",
        "job-name": "train-workers-1", "batch.kubernetes.io/job-completion-index": "0"}
    assert (w.owner.kind, w.owner.name, [(o.kind, o.name) for o in w.owner.chain]) == \
        ("JobSet", "train", [("Job", "train-workers-1")])
    assert pods[0].labels["jobset.sigs.k8s.io/group-name"] == "default"


def test_child_jobs_get_no_workload_in_137_but_the_implicit_gang_in_136():
    plan, _ = inputs(manifests=JOBSET)
    assert [r for r in plan.arrivals if isinstance(r, Group)] == []
    plan, _ = inputs(manifests=JOBSET, version="1.36")
    groups = [r for r in plan.arrivals if isinstance(r, Group) and isinstance(r.obj, hub.PodGroup)]
    assert [(g.name, g.obj.policy.min_count) for g in groups] == [("train-workers-0-job", 2),
                                                                  ("train-workers-1-job", 2)]
    assert {p.name: p.pod_group for p in _pods(plan.arrivals)}["train-workers-1-1"] == "train-workers-1-job"


def test_suspended_jobset_and_managed_elsewhere_are_noted():
    plan, diags = inputs(manifests=JOBSET.replace("spec:\n  coordinator", "spec:\n  suspend: true\n  coordinator"))
    assert _pods(plan.arrivals) == []
    assert [(d.code, d.message) for d in diags] == [("WAS621", (
        "JobSet ml/train creates no pods in this plan: the JobSet is suspended (spec.suspend: true): its Jobs "
        "create no pods until it is resumed"))]
    plan, diags = inputs(manifests=JOBSET.replace("spec:\n  coordinator", "spec:\n  managedBy: kueue.x-k8s.io/multikueue\n  coordinator"))
    assert _pods(plan.arrivals) == [] and diags[0].message == (
        "JobSet ml/train creates no pods in this plan: spec.managedBy is 'kueue.x-k8s.io/multikueue': the JobSet "
        "controller leaves it to that controller")


def test_jobset_depends_on_complete_is_never_created():
    text = JOBSET.replace("    replicas: 2\n", "    replicas: 2\n    dependsOn: [{name: driver, status: Complete}]\n")
    plan, _ = inputs(manifests=text)
    worker = next(p for p in _pods(plan.arrivals) if p.name == "train-workers-0-0")
    assert worker.start_after.never and "complete" in worker.start_after.reason


def test_jobset_with_generate_name_uses_the_made_name_everywhere():
    plan, diags = inputs(manifests=JOBSET.replace("{name: train, namespace: ml}", "{generateName: train-, namespace: ml}"))
    made = Namer().name("JobSet", "ml", "train-")
    assert [d.code for d in diags] == ["WAS620"] and repr(made) in diags[0].message
    assert _pods(plan.arrivals)[0].name == f"{made}-driver-0-0"


LWS = """\
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: vllm, namespace: serve}
spec:
  replicas: 2
  startupPolicy: LeaderReady
  leaderWorkerTemplate:
    size: 5
    subGroupPolicy: {subGroupSize: 2}
    leaderTemplate:
      spec: {containers: [{name: l, image: x, resources: {requests: {cpu: "2"}}}]}
    workerTemplate:
      spec: {containers: [{name: w, image: x, resources: {requests: {cpu: "1"}}}]}
"""


def test_lws_leaders_first_then_workers_with_labels_subgroups_and_leader_ready_wait():
    plan, diags = inputs(manifests=LWS)
    assert diags == []
    pods = _pods(plan.arrivals)
    assert [p.name for p in pods] == ["vllm-0", "vllm-1", "vllm-0-1", "vllm-0-2", "vllm-0-3", "vllm-0-4",
                                      "vllm-1-1", "vllm-1-2", "vllm-1-3", "vllm-1-4"]
    assert (pods[0].requests["cpu"], pods[2].requests["cpu"]) == (2000, 1000)
    worker = pods[4]
    group_key = hashlib.sha1(b"serve/vllm-0").hexdigest()
    assert {k: v for k, v in worker.labels.items() if k != "leaderworkerset.sigs.k8s.io/template-revision-hash"} == {
        "leaderworkerset.sigs.k8s.io/name": "vllm", "leaderworkerset.sigs.k8s.io/group-index": "0",
        "leaderworkerset.sigs.k8s.io/worker-index": "3", "leaderworkerset.sigs.k8s.io/group-key": group_key,
        "leaderworkerset.sigs.k8s.io/subgroup-index": "1",
        "leaderworkerset.sigs.k8s.io/subgroup-key": hashlib.sha1(b"vllm-0/1").hexdigest()}
    assert worker.start_after.pods == ("serve/vllm-0",) and pods[0].start_after is None


def test_lws_subgroup_index_follows_the_webhook():
    # size 5, sub-groups of 2: (size-1) % 2 == 0 and size % 2 != 0, so the leader is the extra pod of group 0
    assert [subgroup_of(5, 2, w, False) for w in range(5)] == [0, 0, 0, 1, 1]
    assert [subgroup_of(4, 2, w, False) for w in range(4)] == [0, 0, 1, 1]
    assert subgroup_of(5, 2, 0, True) is None


def test_deployment_name_hash_and_labels_are_deterministic():
    text = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: x}]}
"""
    plan, diags = inputs(manifests=text)
    digest = template_hash({"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "x"}]}})
    assert diags == [] and len(digest) <= 10 and set(digest) <= set(safe_encode("0123456789"))
    assert [(p.name, p.labels) for p in _pods(plan.arrivals)] == [
        (f"web-{digest}-0", {"app": "web", "pod-template-hash": digest}),
        (f"web-{digest}-1", {"app": "web", "pod-template-hash": digest})]


def test_statefulset_ordinals_start_and_labels():
    text = """\
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 2
  ordinals: {start: 5}
  podManagementPolicy: Parallel
  template:
    spec: {containers: [{name: c, image: x}]}
"""
    plan, _ = inputs(manifests=text)
    pods = _pods(plan.arrivals)
    assert [(p.name, p.labels["apps.kubernetes.io/pod-index"], p.labels["statefulset.kubernetes.io/pod-name"])
            for p in pods] == [("db-5", "5", "db-5"), ("db-6", "6", "db-6")]
    assert all(p.start_after is None for p in pods)


def test_paused_deployment_and_zero_replicas_are_noted():
    text = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  paused: true\n  template:\n"
            "    spec: {containers: [{name: c, image: x}]}\n---\napiVersion: apps/v1\nkind: StatefulSet\n"
            "metadata: {name: db}\nspec:\n  replicas: 0\n  template:\n    spec: {containers: [{name: c, image: x}]}\n")
    plan, diags = inputs(manifests=text)
    assert plan.arrivals == []
    assert [(d.code, d.message) for d in diags] == [
        ("WAS621", "Deployment default/web creates no pods in this plan: the Deployment is paused (spec.paused: "
                   "true): it creates no ReplicaSet until it is resumed"),
        ("WAS621", "StatefulSet default/db creates no pods in this plan: spec.replicas is 0")]


KUBECTL_SNAPSHOT = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 1
  template: {spec: {containers: [{name: c, image: x}]}}
status: {replicas: 1}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-5d4f
  namespace: default
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, controller: true}]
spec:
  replicas: 1
  template: {spec: {containers: [{name: c, image: x}]}}
---
apiVersion: v1
kind: Pod
metadata:
  name: web-5d4f-abcde
  namespace: default
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-5d4f, controller: true}]
spec: {nodeName: n1, containers: [{name: c, image: x}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: default}
spec:
  replicas: 1
  template: {spec: {containers: [{name: c, image: x}]}}
"""


def test_snapshot_workloads_that_already_run_are_not_expanded_again():
    plan, diags = inputs(snapshot=KUBECTL_SNAPSHOT)
    assert diags == []
    assert [p.name for p in _pods(plan.existing)] == ["web-5d4f-abcde", "db-0"]


def test_a_workload_kind_in_another_group_or_a_pod_running_crd_is_unplanned():
    text = """\
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: r, namespace: ray}
spec:
  rayClusterSpec:
    headGroupSpec:
      template: {spec: {containers: [{name: head, image: ray}]}}
---
apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {generateName: hello-}
spec:
  entrypoint: main
  templates: [{name: main, container: {image: busybox}}]
"""
    plan, diags = inputs(manifests=text)
    assert [(u.kind, u.namespace, u.name) for u in plan.unplanned] == [("RayJob", "ray", "r"),
                                                                       ("Workflow", "default", "hello-476cf")]
    assert [d.code for d in diags] == ["WAS620", "WAS622", "WAS622"]
    assert diags[2].message == ("Workflow default/hello-476cf (argoproj.io/v1alpha1) runs pods through a controller "
                                "wasplan does not model; it is not planned")


def test_job_template_scheduling_is_noted_as_ignored_for_jobset_children_in_137_only():
    text = JOBSET.replace("        completionMode: Indexed\n",
                          "        completionMode: Indexed\n        scheduling: {schedulingPolicy: {gang: {}}}\n")
    plan, diags = inputs(manifests=text)
    assert [(d.code, d.location.path, d.location.line) for d in diags] == [
        ("WAS623", ("spec", "replicatedJobs", 1, "template", "spec", "scheduling"), 22)]
    assert diags[0].message.startswith("spec.scheduling of replicated job 'workers' is ignored")
    assert [r for r in plan.arrivals if isinstance(r, Group)] == []
    _, diags = inputs(manifests=text, version="1.36")  # 1.36 child Jobs get their implicit gang instead
    assert [d.code for d in diags] == []


def test_snapshot_statefulset_that_never_started_waits_for_every_bound_pod_first():
    snapshot = """\
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 2
  template: {spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "3"}}}]}}
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: running}
spec: {nodeName: n1, containers: [{name: c, image: x, resources: {requests: {cpu: "3"}}}]}
"""
    plan_inputs, diags = inputs(snapshot=snapshot)
    plan, _ = simulate(plan_inputs, EngineOptions(gates=gates()))
    assert diags == []
    assert [(p.name, p.status, p.node) for p in plan.pods] == [
        ("db-0", "Bound", "n2"), ("db-1", "Pending", None), ("running", "AlreadyBound", "n1")]


COPY_TEMPLATE = """\
apiVersion: batch/v1
kind: Job
metadata: {name: copies, namespace: ml}
spec:
  completionMode: Indexed
  completions: 3
  parallelism: 3
  template:
    metadata: {labels: {app: w}}
    spec:
      restartPolicy: Never
      nodeSelector: {pool: a}
      tolerations: [{key: gpu, operator: Exists}]
      containers: [{name: c, image: x, resources: {requests: {cpu: 500m, memory: 1Gi}}}]
"""


def test_job_pods_are_the_template_with_their_own_name_labels_and_dicts():
    """Each pod is the template's pod with its own name, index label and owner (controllers/pods.py copy_pod),
    and shares no dict with its siblings: a change to one pod's requests or selector stays in that pod."""
    plan, diags = inputs(manifests=COPY_TEMPLATE)
    assert diags == []
    pods = _pods(plan.arrivals)
    assert [p.name for p in pods] == ["copies-0", "copies-1", "copies-2"]
    assert [p.labels["batch.kubernetes.io/job-completion-index"] for p in pods] == ["0", "1", "2"]
    assert all(p.labels["app"] == "w" and p.owner.kind == "Job" and p.owner.name == "copies" for p in pods)
    assert [(p.requests["cpu"], p.node_selector, p.source) for p in pods] == [(500, {"pool": "a"}, None)] * 3
    assert pods[0].tolerations == pods[1].tolerations and pods[0].tolerations[0].key == "gpu"
    pods[0].requests["cpu"] = 1
    pods[0].node_selector["pool"] = "b"
    pods[0].labels["app"] = "x"
    assert (pods[1].requests["cpu"], pods[1].node_selector["pool"], pods[1].labels["app"]) == (500, "a", "w")
    assert pods[1].non_zero_requests is not pods[2].non_zero_requests
