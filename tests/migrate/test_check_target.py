"""`migrate --check` also judges documents it would not change: a 1.37 Job that 1.37 rejects makes the check
fail (WAS114), and the summary says how many files hold such documents."""

from __future__ import annotations

from .harness import invoke

DOCS_EXAMPLE = """apiVersion: batch/v1
kind: Job
metadata: {name: docs-example, namespace: default}
spec:
  completionMode: Indexed
  completions: 2
  parallelism: 2
  scheduling:
    schedulingPolicy:
      gang: {}
    schedulingConstraints:
      key: topology.kubernetes.io/rack
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: x}]
"""


def test_check_fails_on_an_unchanged_document_the_target_rejects(tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text(DOCS_EXAMPLE)
    result = invoke(str(path), "--check")
    assert result.exit_code == 1
    assert (f"{path}:12:7: error WAS114 Kubernetes 1.37 rejects this document (it needs no migration): unknown "
            'field "spec.scheduling.schedulingConstraints.key"') in result.stderr
    assert "hint: schedulingConstraints.topology[].key" in result.stderr
    assert result.stderr.endswith(
        "0 files would be migrated, 0 left unchanged, 1 with documents that Kubernetes 1.37 rejects.\n")


def test_check_stays_green_on_valid_unchanged_documents(tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text(DOCS_EXAMPLE.replace("      key: topology", "      topology:\n      - key: topology"))
    result = invoke(str(path), "--check")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.endswith("0 files would be migrated, 1 left unchanged.\n")


def test_json_file_that_only_yaml_accepts_is_migrated_as_flow_yaml(tmp_path):
    """Single quotes and trailing commas: the reader accepts them (as YAML), so migrate edits them the same way
    instead of failing in its JSON editor (once an internal error, WAS504)."""
    path = tmp_path / "pg.json"
    path.write_text("{'apiVersion': 'scheduling.k8s.io/v1alpha2', 'kind': 'PodGroup', 'metadata': {'name': 'x',},"
                    " 'spec': {'schedulingPolicy': {'basic': {}},},}\n")
    result = invoke(str(path))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ("{'apiVersion': 'scheduling.k8s.io/v1beta1', 'kind': 'PodGroup', 'metadata': {'name': 'x'},"
                             " 'spec': {'schedulingPolicy': {'basic': {}}}}\n")


def test_job_with_metadata_of_the_wrong_type_is_a_finding(tmp_path):
    """Found by the fuzz suite: `metadata: true` on a Job once ended in an internal error (WAS504)."""
    path = tmp_path / "job.yaml"
    path.write_text(DOCS_EXAMPLE.replace("metadata: {name: docs-example, namespace: default}", "metadata: true")
                    .replace("      key: topology", "      topology:\n      - key: topology"))
    result = invoke(str(path), "--to-k8s", "1.36")
    assert "WAS504" not in result.stderr and "internal error" not in result.stderr
    assert 'error WAS103 "metadata" must be an object, not a boolean' in result.stderr
