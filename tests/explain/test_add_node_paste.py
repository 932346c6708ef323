"""explain's "add nodes like X" prints the Node objects to add, and they paste back (issue 30): on a kind
snapshot as `kubectl get nodes -o yaml` writes it (fixtures/explain/kind-add-node, with uid, providerID,
addresses, nodeInfo and images on its Nodes), the YAML under the suggestion, copied from the text output and
pasted into the snapshot as a new document, is read by `wasplan plan --cluster` without a finding and places
the gang. explain/node_manifest.py builds it; the DRA case (a List with the node's ResourceSlices) is in
test_dra_gangs.py."""

from __future__ import annotations

import json
import textwrap

import yaml

from tests.cli.helpers import run
from tests.conftest import FIXTURES

CASE = FIXTURES / "explain" / "kind-add-node"
GANG = str(CASE / "gang.yaml")
WIDE = {"COLUMNS": "200"}


def _printed_manifest(text: str) -> str:
    """The YAML block under the addNodes change, as a person selects it in the terminal."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "Node/kind-worker: add (paste into" in line) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("       ")), len(lines))
    return textwrap.dedent("\n".join(lines[start:end])) + "\n"


def test_the_printed_nodes_paste_into_the_snapshot_and_place_the_gang(tmp_path):
    explained = run("explain", GANG, "--cluster", str(CASE / "cluster.yaml"), "--no-exact", env=WIDE)
    assert explained.exit_code == 1
    assert "  2. add 2 nodes like kind-worker\n" in explained.stdout
    pasted = _printed_manifest(explained.stdout)
    snapshot = tmp_path / "cluster.yaml"
    snapshot.write_text((CASE / "cluster.yaml").read_text() + pasted)
    before = run("plan", GANG, "--cluster", str(CASE / "cluster.yaml"), "-o", "json")
    after = run("plan", GANG, "--cluster", str(snapshot), "-o", "json")
    assert before.exit_code == 1
    assert after.exit_code == 0, after.output
    assert after.stderr == ""  # no finding: the pasted objects are valid Nodes
    plan = json.loads(after.stdout)
    assert [(g["name"], g["status"]) for g in plan["podGroups"]] == [("train-workers", "Scheduled")]
    assert sorted({p["node"] for p in plan["pods"]}) == ["kind-worker", "kind-worker-added-0",
                                                         "kind-worker-added-1"]


def test_the_new_nodes_keep_what_scheduling_reads_and_drop_what_is_the_template_s_own():
    explained = run("explain", GANG, "--cluster", str(CASE / "cluster.yaml"), "--no-exact", "-o", "json")
    [value] = [c["value"] for s in json.loads(explained.stdout)["targets"][0]["suggestions"]
               if s["kind"] == "addNodes" for c in s["changes"]]
    assert (value["apiVersion"], value["kind"]) == ("v1", "List")
    first = value["items"][0]
    assert first["metadata"] == {"name": "kind-worker-added-0", "labels": {
        "beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": "kind-worker-added-0", "kubernetes.io/os": "linux"}}
    assert "spec" not in first  # providerID and podCIDRs are the template's own; it has no taints
    assert sorted(first["status"]) == ["allocatable", "capacity", "conditions"]
    text = run("explain", GANG, "--cluster", str(CASE / "cluster.yaml"), "--no-exact", env=WIDE).stdout
    assert yaml.safe_load(_printed_manifest(text)) == value  # the text and the JSON are the same objects
