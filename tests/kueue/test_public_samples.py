"""Kueue's published samples, all queued at once against Kueue's published setups, give the verdicts Kueue
v0.17.0 gives them (fixtures/kueue-public/expected.json, recorded from the Kueue oracle and re-checked against it
in tests/oracle/test_kueue_public.py): which of the 13 workloads are admitted, to which ClusterQueue and flavors,
with which TAS domains, and Kueue's words for the ones left pending. Needs no Go."""

from __future__ import annotations

from tests.oracle.test_kueue_public import blocks, recorded, wasplan_block


def test_the_samples_get_kueues_recorded_verdicts():
    workloads, queues = blocks(wasplan_block(["fixtures/public/kueue"]))
    want_workloads, want_queues = recorded()
    assert workloads == want_workloads
    assert queues == want_queues


def test_what_the_record_says():
    """The record itself, in the words a user reads: nine admitted, four pending for cluster-queue's 9 CPUs."""
    workloads, queues = recorded()
    assert sorted(k for k, w in workloads.items() if w["status"] == "Pending") == [
        "Job default/sample-dra-extended-job-b5fbf", "Job default/sample-job-partial-admission",
        "JobSet default/jobset-tas-required", "JobSet default/sleep-job-87b44"]
    assert (queues["cluster-queue"]["admitted"], queues["cluster-queue"]["pending"]) == (7, 4)
    assert queues["tas-cluster-queue"]["usage"]["tas-flavor"]["cpu"]["used"] == "50"
