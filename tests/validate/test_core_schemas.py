"""Upstream strict schemas for core kinds, through wasplan.validate.core_schemas."""

from __future__ import annotations

import pytest

from wasplan.validate.core_schemas import core_validator, definitions, schema_file_name

pytest.importorskip("kubernetes_validate")


def pod(**spec_extra):
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "worker-0"},
            "spec": {"containers": [{"name": "main", "image": "trainer:1"}], **spec_extra}}


def job(**spec_extra):
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "training"},
            "spec": {"parallelism": 4, "completions": 4, "completionMode": "Indexed",
                     "template": {"spec": {"restartPolicy": "Never",
                                           "containers": [{"name": "main", "image": "trainer:1"}]}},
                     **spec_extra}}


def test_pod_unknown_field_rejected_in_137():
    v = core_validator("1.37", "v1", "Pod")
    assert v.is_valid(pod())
    assert not v.is_valid(pod(gangSize=4))


@pytest.mark.parametrize("release", ["1.36", "1.37"])
def test_pod_scheduling_group_accepted(release):
    assert core_validator(release, "v1", "Pod").is_valid(pod(schedulingGroup={"podGroupName": "training-workers"}))


def test_job_scheduling_block_only_in_137():
    scheduling = {"scheduling": {"schedulingPolicy": {"gang": {"minCount": 4}}}}
    assert not core_validator("1.36", "batch/v1", "Job").is_valid(job(**scheduling))
    assert core_validator("1.37", "batch/v1", "Job").is_valid(job(**scheduling))
    assert core_validator("1.36", "batch/v1", "Job").is_valid(job())


def test_kinds_upstream_does_not_know_have_no_validator():
    assert core_validator("1.37", "example.com/v1", "Widget") is None
    assert core_validator("1.37", "scheduling.k8s.io/v1beta1", "CompositePodGroup") is None
    assert core_validator("1.36", "scheduling.k8s.io/v1alpha3", "Workload") is None


def test_unsupported_release_is_an_error():
    with pytest.raises(KeyError):
        core_validator("1.20", "v1", "Pod")


def test_file_names_follow_kubernetes_validate():
    assert schema_file_name("v1", "Pod") == "pod-v1.json"
    assert schema_file_name("scheduling.k8s.io/v1beta1", "PodGroup") == "podgroup-scheduling-v1beta1.json"
    assert schema_file_name("rbac.authorization.k8s.io/v1", "ClusterRole") == "clusterrole-rbac-v1.json"


def test_definitions_are_loaded_once_and_validators_cached():
    assert definitions("1.37") is definitions("1.37")
    assert definitions("1.36") is not definitions("1.37")
    assert core_validator("1.37", "v1", "Node") is core_validator("1.37", "v1", "Node")


def test_int32_fields_of_core_kinds_are_bounded(tmp_path):
    """Upstream marks int32 fields only with `format`; the API server rejects values beyond the Go type."""
    from tests.cli.helpers import run

    path = tmp_path / "job.yaml"
    path.write_text("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  parallelism: 99999999999\n"
                    "  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: x}]\n")
    result = run("validate", str(path))
    assert result.exit_code == 1
    assert f'{path}:5:3: error WAS105 "spec.parallelism" is 99999999999; it must be at most 2147483647' in result.stdout


def test_a_kind_never_becomes_a_path():
    from wasplan.validate.core_schemas import core_validator

    for kind in ("K" * 300, "../pod", "_definitions"):
        assert core_validator("1.37", "v1", kind) is None


def test_required_int32_fields_are_bounded_too(tmp_path):
    """Required fields are typed ["integer"] (optional ones ["integer", "null"]): both get the int32 bounds."""
    from tests.cli.helpers import run

    path = tmp_path / "pod.yaml"
    path.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n"
                    "  containers: [{name: c, image: x, ports: [{containerPort: 99999999999}]}]\n")
    result = run("validate", str(path))
    assert ('error WAS105 "spec.containers[0].ports[0].containerPort" is 99999999999; it must be at most 2147483647'
            in result.stdout)
