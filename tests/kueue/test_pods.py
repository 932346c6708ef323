"""Workloads of Kueue's pod-based integrations and LeaderWorkerSet (wasplan/kueue/pods.py), without Go: names,
owners, PodSets (role hashes for pod groups), counts, priorities and statuses, and the pod groups Kueue refuses
with its own messages. Every expected value was printed by the Kueue oracle (oracle/kueue017, which builds these
Workloads through Kueue v0.17.0's integrations) on the same files."""

from __future__ import annotations

import textwrap

import pytest

from wasplan.kueue import KueueInputs, admit
from wasplan.kueue.pods import role_hash, stored_spec

from .helpers import load, run_text

PODS = "tests/kueue/pods"


def summary(result) -> list[tuple]:
    return [(w["name"], w["owner"]["kind"], w["owner"]["name"], w["priority"], w["status"],
             [(p["name"], p["count"]) for p in w["podSets"]]) for w in result.to_json()["workloads"]]


def test_each_integration_builds_the_workloads_kueue_builds():
    inputs = KueueInputs.from_objects(load(f"{PODS}/setup.yaml", f"{PODS}/pod-group-roles.yaml", f"{PODS}/kinds.yaml"))
    result = admit(inputs)
    assert summary(result) == [
        ("leaderworkerset-flat-0-d0155", "LeaderWorkerSet", "flat", 1000, "Admitted", [("main", 4)]),
        ("pod-rs-0-d9087", "Pod", "rs-0", 7, "Admitted", [("main", 1)]),
        ("pod-tmpl-0-1-662d8", "Pod", "tmpl-0-1", 7, "Admitted", [("main", 1)]),
        ("pod-web-5f6c86bc94-0-684a5", "Pod", "web-5f6c86bc94-0", 500, "Admitted", [("main", 1)]),
        ("pod-web-5f6c86bc94-1-cc12d", "Pod", "web-5f6c86bc94-1", 500, "Admitted", [("main", 1)]),
        ("rich", "Pod", "r-1", 1000, "Pending", [("ae7b3902", 1), ("c4841c30", 2), ("e0f60373", 1)]),
        ("statefulset-db-3cb88", "StatefulSet", "db", 500, "Inadmissible", [("main", 2)]),
    ]
    rich = next(w for w in result.workloads if w.name == "rich")
    assert rich.message == "couldn't assign flavors to pod set ae7b3902: resource memory unavailable in ClusterQueue"
    assert (result.not_built, result.not_modelled) == ([], [])
    # which pods each Workload stands for: the pipeline hands each its own Workload's flavors
    assert inputs.members[("default", "rich")] == (("r-1", "ae7b3902"), ("r-2", "c4841c30"), ("r-3", "c4841c30"),
                                                   ("r-4", "e0f60373"))
    assert inputs.members[("default", "leaderworkerset-flat-0-d0155")] == tuple(
        (name, "main") for name in ("flat-0", "flat-0-1", "flat-0-2", "flat-0-3"))
    assert inputs.members[("kube-system", "statefulset-db-3cb88")] == (("db-3", "main"), ("db-4", "main"))


def test_a_leader_worker_set_is_one_workload_per_group():
    result = run_text(QUEUE + textwrap.dedent("""
        ---
        apiVersion: leaderworkerset.x-k8s.io/v1
        kind: LeaderWorkerSet
        metadata: {name: llm, labels: {kueue.x-k8s.io/queue-name: q}}
        spec:
          replicas: 3
          leaderWorkerTemplate:
            size: 3
            leaderTemplate: {spec: {containers: [{name: l, image: x, resources: {requests: {cpu: "1"}}}]}}
            workerTemplate: {spec: {containers: [{name: w, image: x, resources: {requests: {cpu: "1"}}}]}}
        """))
    assert summary(result) == [
        ("leaderworkerset-llm-0-fac1b", "LeaderWorkerSet", "llm", 0, "Admitted", [("leader", 1), ("worker", 2)]),
        ("leaderworkerset-llm-1-f99eb", "LeaderWorkerSet", "llm", 0, "Admitted", [("leader", 1), ("worker", 2)]),
        ("leaderworkerset-llm-2-d23e9", "LeaderWorkerSet", "llm", 0, "Pending", [("leader", 1), ("worker", 2)]),
    ]


def test_kueues_samples_deployment_and_pod_group():
    """fixtures/kueue: the pod group is one Workload named after the group; each pod of the Deployment whose pod
    template carries the queue label is a plain pod to Kueue, a single-pod Workload."""
    result = admit(KueueInputs.from_objects(load("fixtures/kueue-scenarios/setup/single-clusterqueue-setup.yaml",
                                                 "fixtures/kueue")))
    assert summary(result) == [
        ("job-sample-job-588b9-82251", "Job", "sample-job-588b9", 0, "Pending", [("main", 3)]),
        ("pod-nginx-deployment-7f86767c64-0-c17ba", "Pod", "nginx-deployment-7f86767c64-0", 0, "Admitted", [("main", 1)]),
        ("pod-nginx-deployment-7f86767c64-1-7c5e2", "Pod", "nginx-deployment-7f86767c64-1", 0, "Pending", [("main", 1)]),
        ("pod-nginx-deployment-7f86767c64-2-c7639", "Pod", "nginx-deployment-7f86767c64-2", 0, "Pending", [("main", 1)]),
        ("sample-group", "Pod", "sample-pod-948c7", 0, "Admitted", [("41800529", 2)]),
    ]


QUEUE = textwrap.dedent("""
    apiVersion: kueue.x-k8s.io/v1beta2
    kind: ResourceFlavor
    metadata: {name: a}
    ---
    apiVersion: kueue.x-k8s.io/v1beta2
    kind: ClusterQueue
    metadata: {name: cq}
    spec:
      namespaceSelector: {}
      resourceGroups: [{coveredResources: [cpu], flavors: [{name: a, resources: [{name: cpu, nominalQuota: "7"}]}]}]
    ---
    apiVersion: kueue.x-k8s.io/v1beta2
    kind: LocalQueue
    metadata: {name: q, namespace: default}
    spec: {clusterQueue: cq}
    """)


def group_pod(name: str, group: str, total: str, queue: str = "q", cpu: str = "100m") -> str:
    return textwrap.dedent(f"""
        ---
        apiVersion: v1
        kind: Pod
        metadata:
          name: {name}
          labels: {{kueue.x-k8s.io/queue-name: {queue}, kueue.x-k8s.io/pod-group-name: {group}}}
          annotations: {{kueue.x-k8s.io/pod-group-total-count: "{total}"}}
        spec: {{containers: [{{name: c, image: x, resources: {{requests: {{cpu: {cpu}}}}}}}]}}
        """)


@pytest.mark.parametrize(("pods", "why"), [
    (group_pod("a1", "g", "3") + group_pod("a2", "g", "3"), "'g' group has fewer runnable pods than expected"),
    (group_pod("b1", "g", "2") + group_pod("b2", "g", "2", queue="other"),
     "pods 'b1' and 'b2' has different queue names: q!=other"),
    (group_pod("e1", "g", "2") + group_pod("e2", "g", "3"),
     "pods 'e1' and 'e2' has different 'kueue.x-k8s.io/pod-group-total-count' values: 2!=3"),
    ("".join(group_pod(f"d{i}", "g", "9", cpu=f"{i}00m") for i in range(1, 10)),
     "pod group can't include more than 8 roles"),
])
def test_a_pod_group_kueue_refuses_builds_no_workload(pods, why):
    result = run_text(QUEUE + pods)
    assert (result.workloads, result.not_built) == ([], [f"pod group default/g: {why}"])


def test_excess_pods_of_a_group_are_the_newest():
    inputs = KueueInputs.from_objects(load_text(QUEUE + group_pod("c1", "g", "2") + group_pod("c3", "g", "2")
                                                + group_pod("c2", "g", "2")))
    [wl] = admit(inputs).to_json()["workloads"]
    assert (wl["name"], wl["status"], [(p["name"], p["count"]) for p in wl["podSets"]]) == \
        ("g", "Admitted", [("8863905e", 2)])
    assert inputs.members[("default", "g")] == (("c1", "8863905e"), ("c3", "8863905e"))


def test_plain_pods_in_kube_system_are_not_managed():
    result = run_text(QUEUE + textwrap.dedent("""
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: sys, namespace: kube-system, labels: {kueue.x-k8s.io/queue-name: q}}
        spec: {containers: [{name: c, image: x}]}
        """))
    assert (result.workloads, result.not_built) == ([], [])


def test_role_hash_reads_the_stored_pod():
    """The API server's defaults change the hash: a port's protocol, a request from a limit, the priority."""
    spec = {"containers": [{"name": "c", "image": "busybox", "resources": {"requests": {"cpu": 3}}}]}
    assert role_hash(stored_spec(spec, 0)) == "41800529"  # Kueue's sample pod group, as the oracle named its PodSet
    assert role_hash(stored_spec(spec, 1)) != "41800529"
    limits = {"containers": [{"name": "c", "resources": {"limits": {"cpu": "3"}}}]}
    assert role_hash(stored_spec(limits, 0)) == "41800529"
    assert role_hash(spec) != "41800529"  # without spec.priority, as no API server stores a pod


def load_text(text: str) -> list[dict]:
    import yaml
    return [d for d in yaml.safe_load_all(text) if d]
