"""`wasplan lint`: cross-object findings on top of validation, including node labels from a cluster."""

from __future__ import annotations

from tests.cli.helpers import run
from tests.conftest import FIXTURES

CLUSTER = str(FIXTURES / "examples" / "cluster.yaml")


def test_lint_reports_a_pod_whose_group_is_missing(tmp_path):
    doc = tmp_path / "pods.yaml"
    doc.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: w0, namespace: ml}\n"
                   "spec:\n  schedulingGroup: {podGroupName: trainers}\n"
                   "  containers: [{name: c, image: i}]\n")
    result = run("lint", str(doc))
    assert result.exit_code == 0  # a warning: the group may exist in the cluster
    assert f"{doc}:5:21: warning WAS404" in result.output and '"trainers"' in result.output


def test_lint_with_cluster_flags_a_topology_key_no_node_carries(tmp_path):
    doc = tmp_path / "pg.yaml"
    doc.write_text("apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g, namespace: ml}\n"
                   "spec:\n  schedulingPolicy:\n    gang: {minCount: 2}\n"
                   "  schedulingConstraints:\n    topology:\n    - key: topology.kubernetes.io/rak\n")
    without = run("lint", str(doc))
    assert "WAS408" not in without.output
    result = run("lint", str(doc), "--cluster", CLUSTER)
    assert result.exit_code == 1
    assert f"{doc}:9:7: error WAS408" in result.output
    assert 'did you mean "topology.kubernetes.io/rack"?' in result.output


def test_lint_on_an_unreadable_cluster_is_a_tool_error(tmp_path):
    doc = tmp_path / "pg.yaml"
    doc.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n")
    assert run("lint", str(doc), "--cluster", str(tmp_path / "missing.yaml")).exit_code == 2
