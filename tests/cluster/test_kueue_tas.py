"""Kueue's Topology Aware Scheduling is not modelled, and a plan made with `--assume-admitted` says so (WAS626,
cluster/kueue.py `tas_annotations`): on Kueue's own TAS samples (fixtures/kueue-tas, sources in its README) each
`kueue.x-k8s.io/podset-*-topology` annotation is a warning at its line, naming the key, the level and what the plan
does instead. Without `--assume-admitted` the pods wait for Kueue (WAS624) and no topology warning is needed."""

from __future__ import annotations

from tests.cli.helpers import run
from tests.conftest import FIXTURES
from wasplan.cluster.kueue import tas_annotations

TAS = FIXTURES / "kueue-tas"
CLUSTER = str(FIXTURES / "workloads" / "cluster.yaml")
REQUIRED = str(TAS / "sample-job-required.yaml")


def _warnings(result) -> list[str]:
    return [line for line in result.stderr.splitlines() if " WAS626 " in line]


def test_required_topology_is_named_as_not_honoured_under_assume_admitted():
    result = run("plan", REQUIRED, "--cluster", CLUSTER, "--assume-admitted", env={"COLUMNS": "400"})
    assert result.exit_code == 0
    assert _warnings(result) == [
        f"{REQUIRED}:14:9: warning WAS626 Job default/tas-sample-requiredff4cf: kueue.x-k8s.io/podset-required-topology: "
        "cloud.provider.com/topology-rack is not honoured: Kueue's Topology Aware Scheduling is not modelled, so "
        "its pods are planned without the topology domain Kueue would assign"]


def test_each_sample_gets_its_own_warning_and_waiting_pods_get_none():
    admitted = run("plan", str(TAS), "--cluster", CLUSTER, "--assume-admitted", env={"COLUMNS": "400"})
    assert [line.split(" WAS626 ")[1].split(" is not honoured")[0] for line in _warnings(admitted)] == [
        "Job default/tas-sample-preferred6cc6f: kueue.x-k8s.io/podset-preferred-topology: "
        "cloud.provider.com/topology-block",
        "Job default/tas-sample-requiredff4cf: kueue.x-k8s.io/podset-required-topology: "
        "cloud.provider.com/topology-rack"]
    waiting = run("plan", str(TAS), "--cluster", CLUSTER, env={"COLUMNS": "400"})
    assert waiting.exit_code == 1 and _warnings(waiting) == []
    assert waiting.stderr.count(" WAS624 ") == 2


def test_annotations_are_found_in_nested_pod_templates_only_under_kueue_s_prefix():
    jobset = {"kind": "JobSet", "metadata": {"annotations": {"kueue.x-k8s.io/podset-required-topology": "rack"}},
              "spec": {"replicatedJobs": [{"name": "w", "template": {"spec": {"template": {"metadata": {
                  "annotations": {"kueue.x-k8s.io/podset-slice-required-topology": "host",
                                  "kueue.x-k8s.io/podset-slice-size": "2", "example.com/other": "x"}}}}}}]}}
    assert tas_annotations(jobset) == [
        (("metadata", "annotations", "kueue.x-k8s.io/podset-required-topology"),
         "kueue.x-k8s.io/podset-required-topology", "rack"),
        (("spec", "replicatedJobs", 0, "template", "spec", "template", "metadata", "annotations",
          "kueue.x-k8s.io/podset-slice-required-topology"), "kueue.x-k8s.io/podset-slice-required-topology", "host"),
        (("spec", "replicatedJobs", 0, "template", "spec", "template", "metadata", "annotations",
          "kueue.x-k8s.io/podset-slice-size"), "kueue.x-k8s.io/podset-slice-size", "2")]
