"""`wasplan plan` on fixtures/scenarios/racks-and-trees: YAML CompositePodGroup (v1alpha3), a Workload with
compositePodGroupTemplates and PodGroups naming a parent pass through the parse layer; the JSON carries each
group's placement and the composite tree; the text view shows both. Scenario shaped after
test/integration/scheduler/topology_aware_scheduling/tas_test.go and cpg_tas_test.go (a zone-constrained
composite whose first zone has no room left)."""

import json
from pathlib import Path

from typer.testing import CliRunner

from wasplan.cli import plan_cmd  # noqa: F401
from wasplan.cli.app import app

SCENARIO = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "racks-and-trees"
ARGS = [str(SCENARIO / "manifests"), "--cluster", str(SCENARIO / "cluster.yaml")]


def test_placements_and_tree_in_json():
    result = CliRunner().invoke(app, ["plan", *ARGS, "-o", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    nodes = {p["name"]: p["node"] for p in doc["pods"]}
    assert [nodes[f"train-{i}"] for i in range(4)] == ["z0-r1-n0", "z0-r1-n1", "z0-r1-n0", "z0-r1-n1"]
    assert [nodes[f"job-{g}-{i}"] for g in "ab" for i in range(2)] == ["z1-r2-n0", "z1-r2-n1", "z1-r3-n0", "z1-r3-n1"]
    placement = {g["name"]: g["placement"] for g in doc["podGroups"]}
    assert placement == {"job-a": None, "job-b": None,
                         "train": {"topologyKey": "example.com/rack", "domain": "rack-1"}}
    assert doc["compositePodGroups"] == [{
        "namespace": "default", "name": "job", "policy": "gang", "minGroupCount": 2, "status": "Scheduled",
        "parent": None, "placement": {"topologyKey": "topology.kubernetes.io/zone", "domain": "zone-1"},
        "message": "", "children": [{"kind": "PodGroup", "name": "job-a", "result": "Scheduled", "message": ""},
                                    {"kind": "PodGroup", "name": "job-b", "result": "Scheduled", "message": ""}]}]


def test_text_view_shows_placement_and_tree():
    result = CliRunner().invoke(app, ["plan", *ARGS], terminal_width=160)
    assert result.exit_code == 0, result.output
    assert "example.com/rack=rack-1" in result.output
    assert "default/job (gang 2) Scheduled topology.kubernetes.io/zone=zone-1" in result.output
    assert "job-b Scheduled" in result.output
