"""The 1.38 oracle on the hierarchy cases of tests/engine/test_hierarchy_138.py: the messages, reasons and
statuses recorded there are what upstream's validatePodGroupHierarchy (schedule_one_podgroup.go of
v1.38.0-beta.0) writes, and wasplan's plan agrees with the oracle's on every pod and group of each case.
(The oracle's CompositePodGroup `message` is its harness's reading, the first failed child's; here every group
of a failed tree carries the same message, so it is compared too.)"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.oracle.conftest import oracle_plan

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from drascenes import plan  # noqa: E402  (tests/engine is not a package)
from test_hierarchy_138 import CASES, CLUSTER  # noqa: E402


def _view(plan: dict) -> dict:
    return {"pods": sorted((p["name"], p["status"], p["reason"], p["message"]) for p in plan["pods"]),
            "podGroups": sorted((g["name"], g["status"], g["condition"]["reason"], g["message"])
                                for g in plan["podGroups"]),
            "compositePodGroups": sorted((g["name"], g["status"], g["condition"]["reason"], g["message"])
                                         for g in plan["compositePodGroups"])}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_the_oracle_fails_the_tree_as_recorded(oracle_bin, tmp_path, case):
    manifests, message = CASES[case]
    (tmp_path / "m.yaml").write_text(manifests)
    (tmp_path / "c.yaml").write_text(CLUSTER)
    run = oracle_plan(oracle_bin, [tmp_path / "m.yaml"], [tmp_path / "c.yaml"], "1.38", arrival="batch")
    assert run.returncode in (0, 1), run.stderr
    theirs = _view(run.json)
    assert {p[3] for p in theirs["pods"]} == {message}
    assert _view(plan(tmp_path, CLUSTER, manifests, "1.38", arrival="batch").plan.to_dict()) == theirs


GPU_NODES = "".join(f"""---
apiVersion: v1
kind: Node
metadata: {{name: gpu-{i}, labels: {{kubernetes.io/hostname: gpu-{i}}}}}
status: {{allocatable: {{cpu: "96", memory: 768Gi, nvidia.com/gpu: "8", pods: "110"}}}}
""" for i in range(3))
NEVER = """apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: zero-never}
value: 0
preemptionPolicy: Never
---
"""


def _never(manifests: str) -> str:
    return NEVER + manifests.replace("spec:\n  workloadRef:", "spec:\n  priorityClassName: zero-never\n  workloadRef:") \
        .replace("spec:\n  schedulingGroup:", "spec:\n  priorityClassName: zero-never\n  schedulingGroup:")


def _messages(plan_json: dict) -> dict:
    return {"pods": sorted((p["name"], p["status"], p["message"]) for p in plan_json["pods"]),
            "groups": sorted((g["name"], g["message"]) for g in plan_json["podGroups"]),
            "trees": sorted((g["name"], g["condition"]["reason"], g["message"]) for g in plan_json["compositePodGroups"])}


@pytest.mark.parametrize("never", [False, True], ids=["no victims", "never preempts"])
def test_a_failed_tree_reads_as_the_oracle_says_word_for_word(oracle_bin, tmp_path, never):
    """fixtures/explain/composite/gang.yaml on three 8-GPU nodes: every group carries the root's preemption
    verdict, and the CompositePodGroup's message is the one its condition holds (the oracle reads the condition
    the 1.38 scheduler wrote, oracle/core/result.go compositeTree)."""
    manifests = (Path(__file__).resolve().parents[2] / "fixtures" / "explain" / "composite" / "gang.yaml").read_text()
    manifests = _never(manifests) if never else manifests
    (tmp_path / "m.yaml").write_text(manifests)
    (tmp_path / "c.yaml").write_text(GPU_NODES)
    run = oracle_plan(oracle_bin, [tmp_path / "m.yaml"], [tmp_path / "c.yaml"], "1.38", arrival="batch")
    assert run.returncode in (0, 1), run.stderr
    assert _messages(plan(tmp_path, GPU_NODES, manifests, "1.38", arrival="batch").plan.to_dict()) == \
        _messages(run.json)
