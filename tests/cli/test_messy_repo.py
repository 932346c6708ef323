"""A real repository's mix of files (fixtures/messy-repo): what every command finds, skips and exits with.

The repository holds a Helm chart (Chart.yaml, values.yaml, a templated PodGroup), a kustomization, a compose
file, GitHub workflows, a node_modules folder with broken YAML, an excluded legacy folder, and real manifests
with an annotation, an inline suppression and a stale one. Its `.wasplan.yaml` is found from the working
directory, as it would be in CI.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from tests.cli.helpers import run
from tests.conftest import FIXTURES

REPO = FIXTURES / "messy-repo"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(REPO)


def _findings(report: dict) -> list[tuple]:
    every = list(report["diagnostics"]) + [d for doc in report["documents"] for d in doc["diagnostics"]]
    return sorted((d["file"], d["line"], d["code"], d["severity"]) for d in every)


SKIPS = [
    ("charts/trainer/Chart.yaml", 1, "WAS030", "info"),
    ("charts/trainer/templates/podgroup.yaml", 4, "WAS031", "info"),
    ("charts/trainer/values.yaml", 1, "WAS030", "info"),
    ("docker-compose.yml", 1, "WAS030", "info"),
]
STALE = ("manifests/training.yaml", 93, "WAS032", "info")


def test_lint_skips_non_manifests_honours_suppressions_and_exits_0():
    result = run("lint", ".", "-o", "json", "--show-suppressed")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert _findings(report) == sorted(SKIPS + [STALE])
    assert report["summary"] == {"documents": 9, "valid": 8, "invalid": 0, "skipped": 1, "nonKubernetes": 3,
                                 "templates": 1, "kustomizePatches": 0, "unreadableFiles": 0, "suppressed": 3, "errors": 0, "warnings": 0, "infos": 5}
    assert [(s["file"], s["line"], s["code"], s["suppressedBy"]) for s in report["suppressed"]] == [
        ("kustomization.yaml", 2, "WAS010", "per-file-ignores 'kustomization.yaml'"),
        ("manifests/training.yaml", 37, "WAS405", "annotation wasplan.io/ignore at manifests/training.yaml:33"),
        ("manifests/training.yaml", 90, "WAS404", "comment at manifests/training.yaml:90"),
    ]
    files = {doc["file"] for doc in report["documents"]}
    assert not any(f.startswith((".github", "node_modules", "deploy/")) for f in files)


def test_validate_does_not_call_lint_suppressions_stale():
    result = run("validate", ".", "-o", "json")
    assert result.exit_code == 0, result.output
    assert _findings(json.loads(result.output)) == sorted(SKIPS + [STALE])


def test_text_summary_counts_skips_and_suppressions():
    result = run("lint", ".")
    assert result.exit_code == 0
    assert result.output.splitlines()[-1] == (
        "OK: 9 documents, 8 valid, 0 invalid, 1 not checked (unknown kind), 3 non-Kubernetes documents skipped, "
        "1 template file skipped; 0 errors, 0 warnings, 3 suppressed (Kubernetes 1.37)")
    assert "charts/trainer/templates/podgroup.yaml:4:9: info WAS031 template file skipped" in result.output
    assert "`helm template ... | wasplan validate -`" in result.output


def test_strict_inputs_makes_the_chart_compose_and_template_errors():
    result = run("validate", ".", "--strict-inputs", "-o", "json")
    assert result.exit_code == 1
    errors = [f for f in _findings(json.loads(result.output)) if f[3] == "error"]
    assert errors == [("charts/trainer/Chart.yaml", 1, "WAS007", "error"),
                      ("charts/trainer/templates/podgroup.yaml", 4, "WAS008", "error"),
                      ("charts/trainer/values.yaml", 1, "WAS007", "error"),
                      ("docker-compose.yml", 1, "WAS007", "error")]


def test_no_config_brings_back_the_excluded_folder_and_the_kustomization_note():
    result = run("validate", ".", "--no-config", "-o", "json")
    report = json.loads(result.output)
    assert result.exit_code == 1  # deploy/legacy holds a v1alpha1 Workload that 1.37 does not serve
    assert ("deploy/legacy/old-workload.yaml", 1, "WAS109", "error") in _findings(report)
    assert ("kustomization.yaml", 2, "WAS010", "info") in _findings(report)


def test_exclude_on_the_command_line_replaces_the_config_list():
    result = run("validate", ".", "--exclude", "charts/", "--exclude", "docker-compose.yml", "-o", "json")
    findings = _findings(json.loads(result.output))
    assert result.exit_code == 1
    assert [f for f in findings if f[2] in ("WAS030", "WAS031")] == []
    assert ("deploy/legacy/old-workload.yaml", 1, "WAS109", "error") in findings


def test_migrate_check_leaves_templates_alone():
    result = run("migrate", "--check", ".")
    assert result.exit_code == 0, result.output
    assert "0 files would be migrated, 7 left unchanged." in result.output
    assert run("migrate", "--check", ".", "--strict-inputs").exit_code == 2
    # without the config's exclude, the legacy v1alpha1 Workload needs migrating; --exclude takes it out again
    assert run("migrate", "--check", ".", "--no-config").exit_code == 1
    assert run("migrate", "--check", ".", "--no-config", "--exclude", "deploy/").exit_code == 0


def test_plan_takes_the_cluster_from_the_config_and_annotates_the_pending_gang():
    result = run("plan", "manifests", "-o", "github")
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "::error file=manifests/training.yaml,line=27,col=1,title=PodGroup ml/eval WaitingForPods::"
        "WaitingForPods: waiting for minCount pods from a gang to appear in scheduling queue",
        "::error file=manifests/training.yaml,line=83,col=1,title=Pod ml/notebook Gated::"
        "Unschedulable: waiting for pod's pod group \"shared-notebooks\" to appear in scheduling queue",
    ]


def test_plan_junit_has_a_case_per_group_and_per_pod_outside_a_group():
    result = run("plan", "manifests", "-o", "junit")
    assert result.exit_code == 1
    root = ET.fromstring(result.output)
    assert (root.tag, root.get("tests"), root.get("failures")) == ("testsuites", "3", "2")
    cases = [(c.get("classname"), c.get("name"), c.find("failure") is not None) for c in root.iter("testcase")]
    assert cases == [("manifests/training.yaml", "PodGroup ml/eval", True),
                     ("manifests/training.yaml", "PodGroup ml/finetune-trainers", False),
                     ("manifests/training.yaml", "Pod ml/notebook", True)]
    failure = root.find(".//testcase[@name='PodGroup ml/eval']/failure")
    assert failure.get("type") == "WaitingForPods"
    assert failure.get("message") == "WaitingForPods: waiting for minCount pods from a gang to appear in scheduling queue"


def test_validate_junit_has_a_case_per_document_and_skipped_cases():
    result = run("validate", ".", "-o", "junit")
    assert result.exit_code == 0
    root = ET.fromstring(result.output)
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("13", "0", "5")
    suites = {s.get("name"): int(s.get("tests")) for s in root.iter("testsuite")}
    assert suites == {"charts/trainer/Chart.yaml": 1, "charts/trainer/templates/podgroup.yaml": 1,
                      "charts/trainer/values.yaml": 1, "clusters/lab.yaml": 1, "docker-compose.yml": 1,
                      "kustomization.yaml": 1, "manifests/training.yaml": 7}
    skipped = [c.get("name") for c in root.iter("testcase") if c.find("skipped") is not None]
    assert skipped == ["non-Kubernetes document (document 1)", "template file",
                       "non-Kubernetes document (document 1)", "non-Kubernetes document (document 1)",
                       "Kustomization (document 1)"]  # read, but no schema knows the kind: not validated
    (kustomization,) = [c for c in root.iter("testcase") if c.get("classname") == "kustomization.yaml"]
    assert kustomization.find("skipped").get("message") == "not validated: no schema is known for this kind (WAS010)"


def test_junit_is_what_gitlab_and_jenkins_read():
    """GitLab keys a case by classname + name (lib/gitlab/ci/parsers/test/junit.rb) and shows the failure's
    text; Jenkins needs tests/failures/errors/skipped on every suite that add up."""
    result = run("lint", ".", "--strict-inputs", "-o", "junit")
    assert result.exit_code == 1
    root = ET.fromstring(result.output)
    cases = list(root.iter("testcase"))
    keys = [(c.get("classname"), c.get("name")) for c in cases]
    assert len(keys) == len(set(keys)) == int(root.get("tests")) == 13
    for suite in root.iter("testsuite"):
        own = list(suite.iter("testcase"))
        assert int(suite.get("tests")) == len(own)
        assert int(suite.get("failures")) == sum(c.find("failure") is not None for c in own)
    failure = root.find(".//testcase[@classname='docker-compose.yml']/failure")
    assert failure.get("type") == "WAS007"
    assert failure.get("message") == "WAS007 document has no apiVersion and no kind; a Kubernetes object needs apiVersion and kind"
    assert failure.text == ("docker-compose.yml:1:1: error WAS007 document has no apiVersion and no kind; a "
                            "Kubernetes object needs apiVersion and kind\n")
    assert root.get("failures") == "4"
