"""validate and lint on the workload kinds wasplan expands: JobSet and LeaderWorkerSet against the CRD skeleton whose
templates are the release's strict core schemas (no maintained package ships their CRD schemas), and the pod
template rules (schedulingGroup, quantities) in JobSet, LeaderWorkerSet, Deployment, ReplicaSet and StatefulSet."""

from __future__ import annotations

from pathlib import Path

from tests.cluster.helpers import gates, read
from wasplan.validate.checker import check_document
from wasplan.validate.lint import lint

WORKLOADS = Path(__file__).resolve().parents[2] / "fixtures" / "workloads"

BAD = """\
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: bad}
spec:
  replicatedJobs:
  - name: w
    replicas: -1
    template:
      spec:
        paralelism: 2
        template:
          spec:
            containers: [{name: c, image: x, resources: {requests: {cpu: 1.5.5}}}]
---
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: bad}
spec:
  leaderWorkerTemplate:
    size: 0
    workerTemplate:
      spec:
        containers: [{name: c, image: x}]
        schedulingGroup: {podGroupName: Bad_Name}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: bad}
spec:
  selector: {matchLabels: {a: b}}
  template:
    metadata: {labels: {a: b}}
    spec:
      containers: [{name: c, image: x, resources: {limits: {memory: 10 Gi}}}]
"""


def _findings(text: str, version: str = "1.37"):
    return [[(d.code, d.location.line, d.location.path) for d in check_document(doc, gates(version)).diagnostics]
            for doc in read(text).documents]


def test_template_mistakes_are_positioned_in_each_workload_kind():
    jobset, lws, deployment = _findings(BAD)
    assert jobset == [("WAS105", 7, ("spec", "replicatedJobs", 0, "replicas")),
                      ("WAS101", 10, ("spec", "replicatedJobs", 0, "template", "spec", "paralelism")),
                      ("WAS107", 13, ("spec", "replicatedJobs", 0, "template", "spec", "template", "spec",
                                      "containers", 0, "resources", "requests", "cpu"))]
    assert lws == [("WAS105", 20, ("spec", "leaderWorkerTemplate", "size")),
                   ("WAS107", 24, ("spec", "leaderWorkerTemplate", "workerTemplate", "spec", "schedulingGroup",
                                   "podGroupName"))]
    assert deployment == [("WAS107", 34, ("spec", "template", "spec", "containers", 0, "resources", "limits",
                                          "memory"))]


def test_the_projects_published_examples_are_valid():
    for name in ("jobset-exclusive-placement.yaml", "jobset-startup-in-order.yaml", "jobset-parallel-jobs.yaml",
                 "lws.yaml", "lws-exclusive-placement.yaml", "lws-multi-template.yaml", "deployment.yaml",
                 "replicaset.yaml", "statefulset.yaml"):
        for doc in read((WORKLOADS / name).read_text()).documents:
            result = check_document(doc, gates())
            assert (name, result.verdict, result.diagnostics) == (name, "valid", [])
    for name in ("jobset-gang.yaml", "jobset-tas.yaml"):
        for doc in read((WORKLOADS / name).read_text()).documents:
            assert check_document(doc, gates("1.36")).verdict == "valid"


def test_lint_counts_jobset_and_lws_pods_that_join_a_podgroup():
    text = (WORKLOADS / "jobset-gang.yaml").read_text().replace("minCount: 6", "minCount: 8") + """\
---
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: serve}
spec:
  replicas: 2
  leaderWorkerTemplate:
    size: 3
    leaderTemplate:
      spec: {schedulingGroup: {podGroupName: leaders}, containers: [{name: c, image: x}]}
    workerTemplate:
      spec: {schedulingGroup: {podGroupName: workerz}, containers: [{name: c, image: x}]}
"""
    found = [(d.code, d.message) for d in lint(read(text).documents, gates("1.36"))]
    assert found == [
        ("WAS405", 'PodGroup "js-abc-workers-def" needs 8 pods (gang minCount) but the inputs hold only 6 member '
                   "pods; the gang waits for its quorum forever unless more pods arrive"),
        ("WAS404", 'LeaderWorkerSet "serve" pods name PodGroup "leaders", which is not among the inputs in namespace '
                   "default; they stay Pending until the PodGroup exists"),
        ("WAS404", 'LeaderWorkerSet "serve" pods name PodGroup "workerz", which is not among the inputs in namespace '
                   "default; they stay Pending until the PodGroup exists")]
