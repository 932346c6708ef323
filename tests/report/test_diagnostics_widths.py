"""Findings for a person wrap between words at the width they are given (80, 120, 200 columns), the quoted
source line stays as it is; `migrate --check` wraps its listing the same way."""

from __future__ import annotations

import os

import pytest

from tests.cli.helpers import run
from tests.conftest import FIXTURES

HINT = "    hint: a Workload has no minMatch: the gang threshold is set per template, in"


@pytest.fixture
def in_manifests():
    before = os.getcwd()
    os.chdir(FIXTURES / "manifests")
    yield
    os.chdir(before)


@pytest.mark.parametrize("width, expected", [
    (80, ['broken-from-a-blog.yaml:8:3: error WAS101 unknown field "spec.minMatch":',
          "    scheduling.k8s.io/v1beta1 Workload has no such field",
          "      minMatch: 8                  # not a field: the threshold lives on each template",
          "      ^", HINT,
          "          spec.podGroupTemplates[].schedulingPolicy.gang.minCount"]),
    (120, ['broken-from-a-blog.yaml:8:3: error WAS101 unknown field "spec.minMatch": scheduling.k8s.io/v1beta1 '
           'Workload has no such',
           "    field",
           "      minMatch: 8                  # not a field: the threshold lives on each template",
           "      ^", HINT,
           "          spec.podGroupTemplates[].schedulingPolicy.gang.minCount"]),
    (200, ['broken-from-a-blog.yaml:8:3: error WAS101 unknown field "spec.minMatch": scheduling.k8s.io/v1beta1 '
           'Workload has no such field',
           "      minMatch: 8                  # not a field: the threshold lives on each template",
           "      ^",
           HINT + " spec.podGroupTemplates[].schedulingPolicy.gang.minCount"]),
])
def test_validate_findings_wrap_to_the_width(in_manifests, width, expected):
    out = run("validate", "broken-from-a-blog.yaml", env={"COLUMNS": str(width)}).stdout.splitlines()
    assert out[:len(expected)] == expected


def test_without_a_terminal_or_columns_each_finding_stays_on_one_line(in_manifests):
    out = run("validate", "broken-from-a-blog.yaml", env={"COLUMNS": ""}).stdout.splitlines()
    assert out[0] == ('broken-from-a-blog.yaml:8:3: error WAS101 unknown field "spec.minMatch": '
                      "scheduling.k8s.io/v1beta1 Workload has no such field")


def test_migrate_check_listing_wraps_at_80_columns():
    case = FIXTURES / "migrate" / "v1alpha1-workload"
    before = os.getcwd()
    os.chdir(case)
    try:
        result = run("migrate", "--to-k8s", "1.37", "--check", "input.yaml", env={"COLUMNS": "80"})
    finally:
        os.chdir(before)
    assert result.stderr.splitlines()[:3] == [
        "would migrate input.yaml (4 changes)",
        "    input.yaml:2: apiVersion: set scheduling.k8s.io/v1alpha1 ->",
        "        scheduling.k8s.io/v1beta1",
    ]
