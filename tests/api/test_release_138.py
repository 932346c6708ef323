"""Kubernetes 1.38 (modelled on v1.38.0-beta.0) as a release: its gates, served versions, the upstream version the
plan names and the one line text output gives for a pre-release. Facts: ../shared/reference/release-1.38.md §1-3
(pkg/features/kube_features.go, pkg/registry/scheduling/rest/storage_scheduling.go of v1.38.0-beta.0)."""

from __future__ import annotations

import json

import pytest

from tests.cli.helpers import run
from wasplan.api import served
from wasplan.api.releases import (
    DEFAULT_RELEASE, SUPPORTED_RELEASES, GateError, default_gates, get_release, parse_gates,
)
from wasplan.config.keys import parse_release

R138 = get_release("1.38")
NOTE = "1.38 is modelled on v1.38.0-beta.0, a pre-release"

POD = """\
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec:
  containers: [{name: c, image: app:1, resources: {requests: {cpu: "1"}}}]
"""
CLUSTER = """\
apiVersion: wasplan.io/v1alpha1
kind: Cluster
metadata: {name: one}
spec:
  nodePools:
  - {name: n, count: 1, allocatable: {cpu: "4", memory: 8Gi}}
"""


def test_1_38_is_supported_and_the_default_stays_1_37():
    assert SUPPORTED_RELEASES == ("1.36", "1.37", "1.38")
    assert DEFAULT_RELEASE == "1.37"
    assert parse_release(1.38) == "1.38"


@pytest.mark.parametrize("gate", ["PodGroupPreemptionPolicy", "DynamicResourceAllocation"])
def test_a_removed_gate_is_refused_with_upstreams_message_and_reads_as_on(gate):
    with pytest.raises(GateError) as err:
        parse_gates(R138, f"{gate}=true")
    assert str(err.value) == (f"unrecognized feature gate: {gate} (removed in Kubernetes 1.38, where its feature "
                              "is always on)")
    gates = default_gates(R138)
    assert gate not in gates.values and gates.enabled(gate)
    assert gate in get_release("1.37").gates  # still a gate one release earlier


def test_gate_stages_of_1_38():
    g = R138.gates
    assert (g["TopologyAwareWorkloadScheduling"].stage, g["CompositePodGroup"].stage) == ("Beta", "Beta")
    assert not g["CompositePodGroup"].default and not g["TopologyAwareWorkloadScheduling"].default
    for name in ("DRAPartitionableDevices", "DRADeviceBindingConditions", "DRADeviceTaints", "DRADeviceTaintRules"):
        assert (g[name].stage, g[name].default, g[name].locked) == ("GA", True, True), name
    assert (g["DRAConsumableCapacity"].stage, g["DRAConsumableCapacity"].locked) == ("GA", False)
    assert (g["DRAWorkloadResourceClaims"].stage, g["DRAWorkloadResourceClaims"].default) == ("Beta", False)
    with pytest.raises(GateError, match="feature is locked to true"):
        parse_gates(R138, "DRAPartitionableDevices=false")
    assert parse_gates(get_release("1.37"), "DRAPartitionableDevices=false").values["DRAPartitionableDevices"] is False


def test_composite_pod_group_is_served_as_v1beta1_and_resource_v1beta1_is_gone():
    assert R138.serves("scheduling.k8s.io/v1beta1", "CompositePodGroup")
    assert not get_release("1.37").serves("scheduling.k8s.io/v1beta1", "CompositePodGroup")
    assert R138.preferred["CompositePodGroup"] == "scheduling.k8s.io/v1beta1"
    assert "resource.k8s.io/v1beta1" not in served.BUILTIN["1.38"]
    assert "resource.k8s.io/v1beta1" in served.BUILTIN["1.37"]


def test_upstream_versions_and_the_prerelease_note():
    assert [get_release(r).upstream_version for r in SUPPORTED_RELEASES] == ["v1.36.5", "v1.37.2", "v1.38.0-beta.0"]
    assert R138.prerelease_note == NOTE
    assert get_release("1.37").prerelease_note == ""


def test_cli_refuses_a_removed_gate(tmp_path):
    (tmp_path / "pod.yaml").write_text(POD)
    result = run("validate", str(tmp_path / "pod.yaml"), "--no-config", "--k8s-version", "1.38",
                 "--feature-gates", "PodGroupPreemptionPolicy=true")
    assert result.exit_code == 2
    assert "unrecognized feature gate: PodGroupPreemptionPolicy" in result.output


def test_text_output_says_once_that_1_38_is_a_prerelease(tmp_path):
    (tmp_path / "pod.yaml").write_text(POD)
    (tmp_path / "cluster.yaml").write_text(CLUSTER)
    for args in (("validate",), ("plan", "--cluster", str(tmp_path / "cluster.yaml"))):
        new = run(*args, str(tmp_path / "pod.yaml"), "--no-config", "--k8s-version", "1.38")
        assert new.output.count(NOTE) == 1, args
        old = run(*args, str(tmp_path / "pod.yaml"), "--no-config", "--k8s-version", "1.37")
        assert "pre-release" not in old.output, args


def test_plan_json_names_the_upstream_version(tmp_path):
    (tmp_path / "pod.yaml").write_text(POD)
    (tmp_path / "cluster.yaml").write_text(CLUSTER)
    result = run("plan", str(tmp_path / "pod.yaml"), "--cluster", str(tmp_path / "cluster.yaml"), "--no-config",
                 "--k8s-version", "1.38", "-o", "json")
    produced = json.loads(result.output)["producedBy"]
    assert (produced["k8sVersion"], produced["upstreamVersion"], produced["prerelease"]) == (
        "1.38", "v1.38.0-beta.0", True)
    assert "PodGroupPreemptionPolicy" not in produced["featureGates"]


def test_the_markdown_and_html_reports_say_it_too(tmp_path):
    (tmp_path / "pod.yaml").write_text(POD)
    (tmp_path / "cluster.yaml").write_text(CLUSTER)
    for release, expected in (("1.38", 1), ("1.37", 0)):
        md, html = tmp_path / f"{release}.md", tmp_path / f"{release}.html"
        result = run("plan", str(tmp_path / "pod.yaml"), "--cluster", str(tmp_path / "cluster.yaml"), "--no-config",
                     "--k8s-version", release, "-o", "json", "--report", str(md), "--report", str(html))
        assert result.exit_code == 0
        assert md.read_text().count(f"_{NOTE}_") == expected
        assert html.read_text().count(f'<p class="prerelease">{NOTE}</p>') == expected
