"""A new Filter plugin is one module plus one registry entry: a toy plugin, written here, registered with one line
(`registry.added`), is honoured by the plan, by gang batching, by the recorder and explain's evidence, and by the
exact check, with no other file touched (docs/engine.md walks through it).

The toy, ToyRack: a pod labelled `toy.example/avoid-rack: X` does not go to a node labelled `rack: X`. It reads
only the pod and the node object, so it is a static plugin: its verdict is computed once per pod shape, and the
label it reads is its part of the shape key (which is what keeps gang batching from treating a labelled pod like
an unlabelled one).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from tests.builders import node, pod
from tests.cli.helpers import run
from tests.engine.enginehelp import make_state
from wasplan.engine.cycle import recorder
from wasplan.engine.profile import registry
from wasplan.engine.profile.config import Profile
from wasplan.engine.cycle.framework import Evaluator
from wasplan.engine.profile.registry import FILTER, Plugin
from wasplan.engine.pluginapi.status import REASONS, Code

# ---- the toy plugin: what its own module would hold ------------------------------------------------------------
NAME = "ToyRack"
LABEL = "toy.example/avoid-rack"
REASON = REASONS.intern("node(s) were on a rack the pod avoids", Code.UNRESOLVABLE)


def avoided(pod) -> str | None:
    return pod.labels.get(LABEL)


def evaluate_static(nodes, pod, out) -> None:
    rack = avoided(pod)
    if rack is not None:
        out.by_plugin[NAME][:] = [REASON if n.labels.get("rack") == rack else 0 for n in nodes.state.nodes]


def describe(pod, nodes) -> tuple[str, ...]:
    return (f"label {LABEL}={avoided(pod)}",) if avoided(pod) else ()


TOY = Plugin(NAME, frozenset({FILTER}), static=True, shape=avoided, evaluate=evaluate_static, describe=describe)


@pytest.fixture(autouse=True)
def toy_registered():
    with registry.added(TOY, after="NodeAffinity"):  # the one registry line
        yield


# ---- inputs ----------------------------------------------------------------------------------------------------
CLUSTER = """\
apiVersion: wasplan.io/v1alpha1
kind: Cluster
metadata: {name: racks}
spec:
  nodePools:
  - name: a
    count: 3
    labels: {rack: a}
    allocatable: {cpu: 8, memory: 64Gi}
  - name: b
    count: 3
    labels: {rack: b}
    allocatable: {cpu: 8, memory: 64Gi}
"""


def gang(name: str, labelled: list[bool], cpu: int) -> str:
    docs = [f"""\
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: {name}, namespace: ml}}
spec:
  schedulingPolicy:
    gang: {{minCount: {len(labelled)}}}
"""]
    for i, avoid in enumerate(labelled):
        labels = f"\n  labels: {{{LABEL}: a}}" if avoid else ""
        docs.append(f"""\
apiVersion: v1
kind: Pod
metadata:
  name: {name}-{i}
  namespace: ml{labels}
spec:
  schedulingGroup: {{podGroupName: {name}}}
  containers:
  - name: main
    image: ghcr.io/example/trainer:1
    resources:
      requests: {{cpu: "{cpu}", memory: 1Gi}}
""")
    return "---\n".join(docs)


def files(tmp_path: Path, manifest: str) -> tuple[str, str]:
    (tmp_path / "cluster.yaml").write_text(CLUSTER)
    (tmp_path / "gang.yaml").write_text(manifest)
    return str(tmp_path / "gang.yaml"), str(tmp_path / "cluster.yaml")


def plan(tmp_path: Path, manifest: str) -> dict:
    path, cluster = files(tmp_path, manifest)
    result = run("plan", path, "--cluster", cluster, "-o", "json")
    return json.loads(result.stdout)


def explain(tmp_path: Path, manifest: str) -> dict:
    path, cluster = files(tmp_path, manifest)
    result = run("explain", path, "--cluster", cluster, "-o", "json")
    assert result.exit_code == 1
    return json.loads(result.stdout)["targets"][0]


# ---- what honours it -------------------------------------------------------------------------------------------
def test_the_registry_places_the_toy_in_filter_order_and_keeps_it_out_afterwards():
    assert registry.STATIC_FILTERS == ("NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", NAME)
    assert registry.STAGE[NAME] == 4 and registry.STAGE["NodeResourcesFit"] == 6
    with registry.added(Plugin("Other", frozenset({FILTER}), static=True, shape=avoided,
                               evaluate=evaluate_static), after=NAME):
        assert registry.STATIC_FILTERS[-1] == "Other"
    assert registry.STATIC_FILTERS[-1] == NAME


def test_plan_keeps_labelled_pods_off_the_avoided_rack_and_says_why(tmp_path):
    doc = plan(tmp_path, gang("train", [True] * 4, cpu=4))  # rack b holds 6 pods of 4 cpu; rack a none of them
    nodes = {p["name"]: p["node"] for p in doc["pods"]}
    assert len(nodes) == 4 and all(n.startswith("b-") for n in nodes.values())
    assert doc["podGroups"][0]["status"] == "Scheduled"
    doc = plan(tmp_path, gang("train", [True] * 8, cpu=4))
    assert doc["podGroups"][0]["status"] == "Unschedulable"
    messages = {p["name"]: p["message"] for p in doc["pods"] if p["status"] == "Pending"}
    assert len(messages) == 8  # the seventh member is the one that found no node
    assert messages["train-6"] == "0/6 nodes are available: 3 Insufficient cpu, 3 node(s) were on a rack the pod avoids."


def test_gang_batching_does_not_take_a_labelled_member_for_an_unlabelled_one(tmp_path):
    # eight members (batching needs six): the first four unlabelled, the rest labelled. A signature without the
    # toy's label would batch them all with the first member's verdict and put labelled pods on rack a (its nodes
    # sort first), so the labelled ones landing on rack b only is the toy's part of the signature at work
    labelled = [False] * 4 + [True] * 4
    doc = plan(tmp_path, gang("mixed", labelled, cpu=2))
    nodes = {p["name"]: p["node"] for p in doc["pods"]}
    assert all(nodes[f"mixed-{i}"].startswith("b-") for i in range(4, 8))
    assert any(nodes[f"mixed-{i}"].startswith("a-") for i in range(4))
    # all labelled: one signature, one batch, still off rack a and spread as find_node spreads them
    doc = plan(tmp_path, gang("same", [True] * 8, cpu=2))
    assert Counter(p["node"] for p in doc["pods"]) == {"b-0": 3, "b-1": 3, "b-2": 2}


def test_the_recorder_and_explains_evidence_name_the_toy_and_the_pods_term(tmp_path):
    t = explain(tmp_path, gang("train", [True] * 8, cpu=4))
    (shape,) = t["shapes"]
    toy = next(e for e in shape["eliminatedBy"] if e["plugin"] == NAME)
    assert toy == {"plugin": NAME, "nodes": 3, "reasons": {"node(s) were on a rack the pod avoids": 3},
                   "constraints": [f"label {LABEL}=a"]}


def test_the_recorder_evaluates_the_toy_on_its_own():
    nodes = [node(f"{r}-0", labels={"rack": r}) for r in "ab"]
    verdicts = recorder.record(Evaluator(make_state(nodes), Profile()), pod("p", cpu="1", labels={LABEL: "b"}))
    assert np.array_equal(verdicts.single[NAME] != 0, [False, True])
    assert verdicts.node_reasons(1) == {NAME: ["node(s) were on a rack the pod avoids"]}


def test_the_exact_check_proves_the_gang_cannot_fit_only_with_the_toy(tmp_path):
    t = explain(tmp_path, gang("train", [True] * 8, cpu=4))
    exact = t["exact"]
    assert exact["verdict"] == "DoesNotFit"
    answer = exact["answer"]
    assert (answer["needed"], answer["bound"]) == (8, 6)
    assert answer["proof"]["allowedNodes"] == 3  # the toy's verdict is in the allowed nodes: rack b only
