"""`oracle evaluate`: each Filter plugin's verdict per node, each on its own, and the Score plugins' raw,
normalized and weighted scores, on the project's fixtures (shape: docs/oracle.md; compare
src/wasplan/engine/cycle/recorder.py node_reasons)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.oracle.conftest import run_oracle
from tests.oracle.inputs import kubernetes_cluster

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def evaluate(oracle_bin, pod, paths, cluster, version="1.37"):
    run = run_oracle(oracle_bin, ["evaluate", "--pod", pod, *map(str, paths), "--cluster", str(cluster),
                                  "--k8s-version", version, "-o", "json"])
    assert run.returncode == 0, run.stderr
    return run.json


@pytest.mark.parametrize("version", ["1.36", "1.37"])
def test_every_failing_filter_plugin_per_node(oracle_bin, version):
    here = FIXTURES / "scenarios" / "postfilter"
    doc = evaluate(oracle_bin, "default/web", [here / "web.yaml"], here / "cluster.yaml", version)
    assert doc["pod"] == "default/web" and doc["preFilter"]["code"] == "Success"
    assert {n["node"]: (n["feasible"], n["filters"]) for n in doc["nodes"]} == {
        "cp": (False, {"TaintToleration": {"code": "UnschedulableAndUnresolvable",
                                           "reasons": ["node(s) had untolerated taint(s)"]}}),
        "w1": (False, {"NodeResourcesFit": {"code": "Unschedulable", "reasons": ["Insufficient cpu"]}}),
        "w2": (False, {"NodeResourcesFit": {"code": "Unschedulable", "reasons": ["Insufficient cpu"]}}),
    }
    assert doc["scores"] == [] and doc["topNodes"] == []


def test_scores_are_raw_normalized_and_weighted(oracle_bin, tmp_path):
    cluster = kubernetes_cluster(FIXTURES / "examples" / "cluster.yaml", tmp_path)
    doc = evaluate(oracle_bin, "ml-research/finetune-13b-evaluator",
                   [FIXTURES / "examples" / "training" / "finetune.yaml"], cluster)
    nodes = {n["node"]: n for n in doc["nodes"]}
    # the inference nodes are tainted and full: both plugins say so, each on its own
    assert set(nodes["gpu-inf-0"]["filters"]) == {"NodeResourcesFit", "TaintToleration"}
    feasible = sorted(n for n, v in nodes.items() if v["feasible"])
    assert feasible and feasible == sorted(s["node"] for s in doc["scores"])
    assert doc["weights"]["TaintToleration"] == 3 and doc["weights"]["NodeResourcesFit"] == 1
    for s in doc["scores"]:
        assert s["total"] == sum(s["weighted"].values())
        for plugin, w in s["weighted"].items():
            assert w == s["normalized"][plugin] * doc["weights"][plugin]
    best = max(s["total"] for s in doc["scores"])
    assert doc["topNodes"] == sorted(s["node"] for s in doc["scores"] if s["total"] == best)


def test_bound_or_missing_pod_is_refused(oracle_bin):
    here = FIXTURES / "scenarios" / "preemption"
    run = run_oracle(oracle_bin, ["evaluate", "--pod", "default/nope", str(here / "serving.yaml"),
                                  "--cluster", str(here / "cluster.yaml")])
    assert run.returncode == 2 and "no such pod in the input" in run.stderr
    run = run_oracle(oracle_bin, ["evaluate", "--pod", "default/batch-a", str(here / "serving.yaml"),
                                  "--cluster", str(here / "cluster.yaml")])
    assert run.returncode == 2 and "already bound to node-a" in run.stderr


PINNED = """\
apiVersion: v1
kind: Pod
metadata: {name: pinned, namespace: default}
spec:
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchFields: [{key: metadata.name, operator: In, values: [w2]}]
  containers: [{name: c, image: pause, resources: {requests: {cpu: "1"}}}]
"""


@pytest.mark.parametrize("version", ["1.36", "1.37"])
def test_nodes_a_prefilter_leaves_out_report_the_framework_status(oracle_bin, tmp_path, version):
    """NodeAffinity's PreFilter names the nodes of a metadata.name term; the framework never filters the others
    and gives them "node(s) didn't satisfy plugin(s) [NodeAffinity]" (pkg/scheduler/schedule_one.go
    findNodesThatFitPod), which is what wasplan's recorder reports for them too. The other plugins still judge
    every node on their own."""
    import evaluate as per_plugin  # tests/oracle/evaluate.py (conftest.py puts its folder on the path)

    here = FIXTURES / "scenarios" / "postfilter"
    pod = tmp_path / "pinned.yaml"
    pod.write_text(PINNED)
    doc = evaluate(oracle_bin, "default/pinned", [pod], here / "cluster.yaml", version)
    assert doc["preFilter"]["nodeNames"] == ["w2"]
    absent = {"code": "UnschedulableAndUnresolvable", "reasons": ["node(s) didn't satisfy plugin(s) [NodeAffinity]"]}
    assert {n["node"]: n["filters"] for n in doc["nodes"]} == {
        "cp": {"NodeAffinity": absent, "TaintToleration": {"code": "UnschedulableAndUnresolvable",
                                                           "reasons": ["node(s) had untolerated taint(s)"]}},
        "w1": {"NodeAffinity": absent, "NodeResourcesFit": {"code": "Unschedulable", "reasons": ["Insufficient cpu"]}},
        "w2": {"NodeResourcesFit": {"code": "Unschedulable", "reasons": ["Insufficient cpu"]}},
    }
    ours = per_plugin.wasplan_verdicts(pod, here / "cluster.yaml", version, "")
    assert per_plugin.differences(ours, per_plugin.oracle_verdicts(doc)) == []
