"""`wasplan plan` on every Kueue scenario of fixtures/kueue-scenarios/, held to what Kueue v0.17.0 decided for it
(expected.yaml, recorded from the Kueue oracle; tests/oracle/test_kueue_oracle.py keeps the oracle to it). No Go
is needed: this is what a user relies on, the plan JSON's `kueue` block from the real CLI (docs/plan-json.md) on
manifests modelled on Kueue's own table tests, grouped by theme (the part of the scenario's name before `/`).

Per workload, every fact expected.yaml records (Kueue's name for it, status, ClusterQueue, reason and message,
borrowing, flavors and counts per PodSet, preemptor, TAS domains as a multiset); per ClusterQueue its cohort,
usage and counts. A scenario without a `clusters` entry is planned on setup/nodes.yaml (wasplan plan needs a
cluster; Kueue's quota decisions do not read nodes outside TAS).

Scenarios whose objects Kueue's API server would refuse (tests/cli/test_plan_kueue.py's REFUSED: recorded from
the oracle, which has no API server) must make `plan` exit 2 naming the rule instead. tests/kueue_known.py's NOT_YET lists the scenarios wasplan does not match yet, each with the cause: they run as
strict expected failures, so a listed scenario that starts to match fails the run until it leaves the list,
and one that is not listed must match.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import yaml

from tests.cli.helpers import run
from tests.cli.test_plan_kueue import REFUSED
from tests.kueue_known import NOT_YET, marked
from tests.oracle.kueuecompare import comparable, domains, key, queue_facts

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "fixtures" / "kueue-scenarios"
EXPECTED = yaml.safe_load((SCENARIOS / "expected.yaml").read_text())
DEFAULT_CLUSTER = "fixtures/kueue-scenarios/setup/nodes.yaml"



def theme(name: str) -> str:
    return name.split("/")[0] if "/" in name else "basic"


def plan(scenario: dict):
    clusters = scenario.get("clusters") or [DEFAULT_CLUSTER]
    args = ["plan", *[str(ROOT / f) for f in scenario["files"]]]
    for cluster in clusters:
        args += ["--cluster", str(ROOT / cluster)]
    return run(*args, "-o", "json")


def mismatches(scenario: dict, block: dict) -> list[str]:
    """What differs between wasplan's kueue block and the recorded facts (only the fields recorded)."""
    out = []
    got = {key(w): comparable(w) for w in block["workloads"]}
    if sorted(got) != sorted(scenario["workloads"]):
        out.append(f"workloads: wasplan {sorted(got)}, Kueue {sorted(scenario['workloads'])}")
    for wl, want in scenario["workloads"].items():
        if wl not in got:
            continue
        if "topology" in want:
            want = {**want, "topology": {ps: domains(t) for ps, t in want["topology"].items() if t}}
        for field, value in want.items():
            if got[wl].get(field) != value:
                out.append(f"{wl}: {field}: wasplan {got[wl].get(field)!r}, Kueue {value!r}")
    queues = {cq["name"]: queue_facts(cq) for cq in block["clusterQueues"]}
    for cq, want in scenario.get("clusterQueues", {}).items():
        if {f: (queues.get(cq) or {}).get(f) for f in want} != want:
            out.append(f"ClusterQueue {cq}: wasplan {queues.get(cq)!r}, Kueue {want!r}")
    return out


@pytest.mark.parametrize("name", marked(EXPECTED))
def test_wasplan_admits_as_kueue_does(name):
    scenario = EXPECTED[name]
    result = plan(scenario)
    if name in REFUSED:  # objects Kueue's API server would refuse: plan says so (tests/cli/test_plan_kueue.py)
        assert result.exit_code == 2 and REFUSED[name] in result.output
        return
    assert result.exit_code in (0, 1), result.output[-2000:]
    out = json.loads(result.stdout)
    assert "kueue" in out, "the inputs hold a ClusterQueue, so the plan must carry a kueue block"
    problems = mismatches(scenario, out["kueue"])
    assert problems == [], f"{name} ({theme(name)}):\n  " + "\n  ".join(problems)


def test_every_listed_scenario_exists_and_themes_are_covered():
    assert set(NOT_YET) <= set(EXPECTED)
    themes = Counter(theme(name) for name in EXPECTED)
    assert {"quota", "flavors", "cohort", "hierarchy", "preemption", "tas", "partial", "stop", "jobset"} <= set(themes)
    assert sum(themes.values()) - themes["basic"] >= 30
