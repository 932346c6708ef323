"""Malformed objects among the inputs of a plan with Kueue's admission: a message naming file, line and field,
exit 2, never a fault inside the admission model, which reads Kueue's objects, pods and owners before the
cluster is built (pipeline/kueue_stage.py). A snapshot object's metadata is held to the API server's types
(validate/checker.py `_stored_metadata`), a snapshot's Kueue objects to their CRD's structure, a
LeaderWorkerSet's or JobSet's metadata to ObjectMeta. Found by mutating every field of fixtures/kueue-plan and
its eviction fixtures (960 + 820 mutations, each now a finding or a plan)."""

from __future__ import annotations

import pytest

from tests.cli.helpers import run
from tests.conftest import FIXTURES

EVICT = FIXTURES / "kueue-plan" / "evict"
PLAN = FIXTURES / "kueue-plan"
SNAPSHOT = (EVICT / "snapshot.yaml").read_text()
POD_LABELS = "labels: {batch.kubernetes.io/job-name: batch, kueue.x-k8s.io/queue-name: queue}"
WORKLOAD_OWNER = ("  ownerReferences:\n  - {apiVersion: batch/v1, kind: Job, name: batch, uid: uid-default-batch, "
                  "controller: true, blockOwnerDeletion: true}\nspec:\n  queueName")


def _line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


@pytest.mark.parametrize("old, new, finding", [
    (POD_LABELS, "labels: [batch]", "error WAS103 metadata.labels must be a map of strings, got array"),
    (POD_LABELS, "labels: {batch.kubernetes.io/job-name: batch, replicas: 2}",
     "error WAS103 metadata.labels must be a map of strings, got object"),
    (WORKLOAD_OWNER, "  ownerReferences: batch\nspec:\n  queueName",
     "error WAS103 metadata.ownerReferences must be a list, got string"),
    ("  namespace: default\n  labels: {batch", "  namespace: [default]\n  labels: {batch",
     "error WAS103 metadata.namespace must be a string, got array"),
])
def test_a_malformed_snapshot_object_is_a_finding_not_a_fault(tmp_path, old, new, finding):
    text = SNAPSHOT.replace(old, new, 1)
    assert text != SNAPSHOT
    snapshot = tmp_path / "snapshot.yaml"
    snapshot.write_text(text)
    result = run("plan", str(EVICT / "urgent.yaml"), str(EVICT / "setup.yaml"), "--cluster", str(snapshot),
                 "-o", "json")
    assert result.exit_code == 2
    line = _line_of(text, new.split("\n")[0].strip())
    assert f"{snapshot}:{line}:3: {finding}" in result.stderr
    assert "the inputs are invalid (1 error); nothing was planned" in result.stderr


def test_a_snapshot_workload_of_the_wrong_shape_is_held_to_kueues_crd(tmp_path):
    text = SNAPSHOT.replace("  podSets:\n  - name: main\n    count: 2", "  podSets:\n  - name: main\n    count: two", 1)
    assert text != SNAPSHOT
    snapshot = tmp_path / "snapshot.yaml"
    snapshot.write_text(text)
    result = run("plan", str(EVICT / "urgent.yaml"), str(EVICT / "setup.yaml"), "--cluster", str(snapshot))
    assert result.exit_code == 2
    assert f"{snapshot}:{_line_of(text, 'count: two')}:" in result.stderr and "WAS103" in result.stderr


def test_a_leaderworkerset_with_malformed_metadata_is_refused_before_kueue_reads_it(tmp_path):
    text = (PLAN / "pods.yaml").read_text()
    start = text.index("kind: LeaderWorkerSet")
    meta = text.index("metadata:", start)
    mutated = text[:meta] + "metadata:\n  labels: queued\n  name: llm\n" + text[text.index("\nspec:", meta) + 1:]
    pods = tmp_path / "pods.yaml"
    pods.write_text(mutated)
    result = run("plan", str(pods), str(PLAN / "setup.yaml"), "--cluster", str(PLAN / "cluster.yaml"))
    assert result.exit_code == 2
    assert (f'{pods}:{_line_of(mutated, "labels: queued")}:3: error WAS103 "metadata.labels" must be an object, '
            "not a string") in result.stderr
