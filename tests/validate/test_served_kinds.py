"""A kind that a served group/version does not hold is an error naming the versions that do (WAS113), not an
info "no schema; not validated" with exit 0: the API server answers such a request with 404."""

from __future__ import annotations

from tests.cli.helpers import run

COMPOSITE_AS_BETA = """apiVersion: scheduling.k8s.io/v1beta1
kind: CompositePodGroup
metadata: {name: tree}
spec: {}
"""


def test_composite_as_v1beta1_on_137(tmp_path):
    path = tmp_path / "cpg.yaml"
    path.write_text(COMPOSITE_AS_BETA)
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert (f"{path}:2:1: error WAS113 scheduling.k8s.io/v1beta1 does not serve CompositePodGroup in Kubernetes "
            "1.37; it serves CompositePodGroup as scheduling.k8s.io/v1alpha3") in result.stdout


def test_a_version_the_release_does_not_serve_stays_was109(tmp_path):
    path = tmp_path / "cpg.yaml"
    path.write_text(COMPOSITE_AS_BETA.replace("v1beta1", "v1alpha2"))
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert "error WAS109 scheduling.k8s.io/v1alpha2 CompositePodGroup is not served by Kubernetes 1.37" in result.stdout
