"""Kueue's own published samples (fixtures/public/kueue, sources in fixtures/public/README.md), inputs nobody on
this project wrote, through `wasplan plan` and through the Kueue oracle (Kueue v0.17.0's own code), queued against
Kueue's published setups: its single-ClusterQueue setup (fixtures/kueue-scenarios/setup/) and its TAS setup with
16 labelled nodes (fixtures/kueue-public/). Each sample alone, then all of them at once (they compete for the
9 CPUs of `cluster-queue`): the two `kueue` blocks must agree per workload (kueuecompare.comparable: status,
ClusterQueue, reason and message, flavors, counts, borrowing, TAS domains) and per ClusterQueue. The result of the
run with all samples is recorded in fixtures/kueue-public/expected.json, which tests/kueue/test_public_samples.py
holds wasplan to without Go.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import run

from .kueuecompare import comparable, key, queue_facts
from .test_kueue_oracle import kueue_oracle, run_plan  # noqa: F401  (the fixture: the binary, or a skip)

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "fixtures/public/kueue").glob("*.yaml"))
SETUP = ["fixtures/kueue-scenarios/setup/single-clusterqueue-setup.yaml", "fixtures/kueue-public/tas-queues.yaml",
         "fixtures/kueue-public/tas-nodes.yaml"]


def blocks(block: dict) -> tuple[dict, dict]:
    return ({key(w): comparable(w) for w in block["workloads"]},
            {cq["name"]: queue_facts(cq) for cq in block["clusterQueues"]})


def wasplan_block(paths: list[str]) -> dict:
    args = [str(ROOT / p) for p in paths]
    for cluster in SETUP:
        args += ["--cluster", str(ROOT / cluster)]
    result = run("plan", *args, "-o", "json")
    return json.loads(result.stdout)["kueue"]


@pytest.mark.parametrize("paths", [[s] for s in SAMPLES] + [["fixtures/public/kueue"]],
                         ids=[Path(s).stem for s in SAMPLES] + ["all-at-once"])
def test_kueue_samples_get_kueues_own_admission(kueue_oracle, paths):
    proc = run_plan(kueue_oracle, paths, SETUP)
    assert proc.returncode == 0, proc.stderr
    oracle = blocks(json.loads(proc.stdout)["kueue"])
    assert blocks(wasplan_block(paths)) == oracle
    if paths == ["fixtures/public/kueue"]:
        assert oracle == recorded(), "Kueue's verdict moved from fixtures/kueue-public/expected.json: re-record it"


def recorded() -> tuple[dict, dict]:
    data = json.loads((ROOT / "fixtures/kueue-public/expected.json").read_text())
    return data["workloads"], data["clusterQueues"]
