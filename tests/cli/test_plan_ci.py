"""plan's CI formats for a group a Job controller creates: it has no manifest of its own, so the GitHub
annotation and the JUnit case point at the Job's manifest."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tests.cli.helpers import run
from tests.conftest import FIXTURES

JOB = str(FIXTURES / "examples" / "training" / "pretrain-job.yaml")
SMALL = str(FIXTURES / "messy-repo" / "clusters" / "lab.yaml")  # 2 nodes x 8 GPUs: a gang of 4 x 8 cannot fit
WHY = ("Unschedulable: 0/1 placements are available, first placement status: minCount (4) cannot be satisfied: "
       "2 scheduled, 1 remaining")


def test_github_annotation_sits_on_the_jobs_line():
    result = run("plan", JOB, "--cluster", SMALL, "-o", "github", "--no-config")
    assert result.exit_code == 1
    assert result.output == (f"::error file={JOB},line=7,col=1,title=PodGroup ml-research/pretrain-70b-job "
                             f"Unschedulable::{WHY}\n")


def test_junit_case_for_the_jobs_group_fails_with_the_reason():
    result = run("plan", JOB, "--cluster", SMALL, "-o", "junit", "--no-config")
    assert result.exit_code == 1
    (case,) = ET.fromstring(result.output).iter("testcase")
    assert (case.get("classname"), case.get("name"), case.get("file")) == (JOB, "PodGroup ml-research/pretrain-70b-job", JOB)
    assert case.find("failure").get("message") == WHY


def test_a_plan_that_fits_has_no_annotations_and_passing_cases():
    cluster = str(FIXTURES / "examples" / "cluster.yaml")
    assert run("plan", JOB, "--cluster", cluster, "-o", "github", "--no-config").output == ""
    root = ET.fromstring(run("plan", JOB, "--cluster", cluster, "-o", "junit", "--no-config").output)
    assert (root.get("tests"), root.get("failures")) == ("1", "0")


def test_an_unplanned_workload_fails_on_its_own_manifest():
    pytorch = str(FIXTURES / "workloads" / "pytorchjob.yaml")
    cluster = str(FIXTURES / "workloads" / "cluster.yaml")
    result = run("plan", pytorch, "--cluster", cluster, "-o", "github", "--no-config")
    assert result.exit_code == 1
    assert result.stdout == (f"::error file={pytorch},line=3,col=1,title=PyTorchJob kubeflow/pytorch-simple not "
                             "planned::not planned: wasplan has no model of its controller, so its pods are not in "
                             "the plan\n")
    (case,) = ET.fromstring(run("plan", pytorch, "--cluster", cluster, "-o", "junit", "--no-config").stdout).iter(
        "testcase")
    assert (case.get("name"), case.find("failure").get("type")) == ("PyTorchJob kubeflow/pytorch-simple", "Unplanned")
