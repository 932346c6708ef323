"""Every scenario the Kueue oracle recorded in fixtures/kueue-scenarios/expected.yaml (Kueue v0.17.0's own
scheduler on a fake client), replayed through wasplan's model without Go: the same workload names, statuses,
ClusterQueues, Kueue's reasons and messages byte for byte, flavors and counts per PodSet, preemptors, and per
ClusterQueue the same usage and counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from wasplan.kueue import KueueInputs, admit

from tests.kueue_known import marked

from .helpers import SCENARIOS, by_key, load

EXPECTED = yaml.safe_load((SCENARIOS / "expected.yaml").read_text())


def result_of(scenario: dict):
    return admit(KueueInputs.from_objects(load(*scenario.get("clusters", []), *scenario["files"])))


@pytest.mark.parametrize("name", marked(sorted(EXPECTED)))
def test_scenario_matches_the_oracle(name):
    scenario = EXPECTED[name]
    result = result_of(scenario)
    got = by_key(result)
    assert sorted(got) == sorted(scenario["workloads"])
    for wl, want in scenario["workloads"].items():
        assert {f: got[wl].get(f) for f in want} == want, wl
    queues = {cq["name"]: cq for cq in result.to_json()["clusterQueues"]}
    for cq, want in scenario.get("clusterQueues", {}).items():
        assert {f: queues[cq][f] for f in want} == want, cq
    assert result.settled and result.not_modelled == []


def test_output_is_deterministic():
    scenario = EXPECTED["preemption-within-cq"]
    first = json.dumps(result_of(scenario).to_json())
    assert all(json.dumps(result_of(scenario).to_json()) == first for _ in range(3))



ORACLE_JSON = Path(__file__).with_name("oracle-json")


@pytest.mark.parametrize("name", marked(sorted(EXPECTED)))
def test_kueue_block_is_the_oracles_byte_for_byte(name):
    """The whole `kueue` block, as the Kueue oracle printed it for the scenario (tests/kueue/oracle-json/, written
    from `oracle-kueue plan`), JSON-encoded with the same indentation."""
    want = (ORACLE_JSON / f"{name}.json").read_text()
    assert json.dumps(result_of(EXPECTED[name]).to_json(), indent=2) + "\n" == want
