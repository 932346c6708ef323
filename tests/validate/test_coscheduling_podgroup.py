"""scheduler-plugins' Coscheduling PodGroup is named as not modelled (issue 30), in validate, lint and plan alike.

The fixture is scheduler-plugins' own install walkthrough (doc/install.md, source in the file's header): before,
each PodGroup got only WAS010 "no schema, not validated" and the plan said nothing about the gang it meant.
"""

from __future__ import annotations

import re

import pytest

from tests.cli.helpers import run
from tests.conftest import FIXTURES

PODGROUPS = FIXTURES / "scheduler-config" / "coscheduling-podgroup.yaml"
CLUSTER = FIXTURES / "examples" / "cluster.yaml"


@pytest.mark.parametrize("command", [("validate",), ("lint",), ("plan", "--cluster", str(CLUSTER))])
def test_each_coscheduling_podgroup_is_a_not_modelled_warning(command):
    result = run(*command, str(PODGROUPS))
    assert result.exit_code == 0, result.stderr
    text = result.stdout + result.stderr
    found = re.findall(r"podgroup\.yaml:(\d+):\d+: (\w+) (WAS010|WAS434)", text)
    assert found == [("5", "warning", "WAS434"), ("13", "warning", "WAS434")]


def test_the_message_says_what_is_not_modelled():
    result = run("validate", str(PODGROUPS))
    assert ("podgroup.yaml:5:1: warning WAS434 scheduling.sigs.k8s.io/v1alpha1 PodGroup is scheduler-plugins' "
            "Coscheduling gang, which kube-scheduler's in-tree plugins ignore and wasplan does not model: its pods "
            "are planned one by one, without minMember; not validated") in result.stdout + result.stderr


def test_strict_fails_on_it():
    assert run("validate", "--strict", str(PODGROUPS)).exit_code == 1
