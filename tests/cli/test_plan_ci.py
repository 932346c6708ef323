"""plan's CI formats for a group a Job controller creates: it has no manifest of its own, so the GitHub
annotation and the JUnit case point at the Job's manifest."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tests.cli.helpers import run
from tests.conftest import FIXTURES

JOB = str(FIXTURES / "examples" / "training" / "pretrain-job.yaml")
SMALL = str(FIXTURES / "messy-repo" / "clusters" / "lab.yaml")  # 2 nodes x 8 GPUs: a gang of 4 x 8 cannot fit
WHY = ("Unschedulable: pod group is unschedulable, 0/1 placements are available, first placement status: minCount (4) "
       "cannot be satisfied: 2 scheduled, 1 remaining, pod group preemption: No preemption victims found for incoming "
       "preemptor")


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
    assert result.stdout == (  # each finding with the severity it has in the text view, and only once
        f"::notice file={pytorch},line=4,col=1,title=WAS010::no schema for kubeflow.org/v1 PyTorchJob; not validated\n"
        f"::warning file={pytorch},line=4,col=1,title=WAS622::PyTorchJob kubeflow/pytorch-simple (kubeflow.org/v1) "
        "runs pods through a controller wasplan does not model; it is not planned\n")
    assert result.stderr == ""  # the findings are the annotations, not a second copy as text
    (case,) = ET.fromstring(run("plan", pytorch, "--cluster", cluster, "-o", "junit", "--no-config").stdout).iter(
        "testcase")
    assert (case.get("name"), case.find("failure").get("type")) == ("PyTorchJob kubeflow/pytorch-simple", "Unplanned")
