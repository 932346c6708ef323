"""A dynamic Filter+Score plugin that reads other pods is one module plus one registry entry, and a facet it leaves
out can no longer make a plan wrong (docs/engine.md, "Adding a dynamic Filter and Score plugin").

The toy, ToyLimit: a pod labelled `toy.example/limit-group: G` goes to no node that already holds LIMIT pods
labelled with the same G, and prefers the nodes holding fewer of them. It reads other pods, so it is a dynamic
plugin: the framework runs it per pod (`needs`: the label), gang batching compares its `signature` (the label),
preemption re-runs its filter after each victim removal (`victims_matter`, the default), and the queue's hint
says a bound pod never helps (a pod deleted elsewhere does: every deletion requeues).

The reproductions of issue 31: a record that left `signature` out let gang batching place labelled pods by the
first unlabelled member's verdict, past the plugin's own limit; one that left `victims_matter` out let preemption
evict a pod whose removal leaves the limit where it was. Both facets now default to the safe choice, and the
tests run the record with each left out.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from tests.cli.helpers import run
from wasplan.engine.pluginapi.status import REASONS, Code
from wasplan.engine.profile import registry
from wasplan.engine.profile.registry import FILTER, PRE_FILTER, SCORE, Plugin, never

# ---- the toy plugin: what its own module would hold ------------------------------------------------------------
NAME = "ToyLimit"
LABEL = "toy.example/limit-group"
LIMIT = 2
MAX_SCORE = 100
REASON = REASONS.intern("node(s) already held the pod's limit of its group", Code.UNSCHEDULABLE)


def group_of(pod) -> str | None:
    return pod.labels.get(LABEL)


def needs(pod) -> bool:
    return group_of(pod) is not None


def held(state, group: str) -> np.ndarray:
    """How many pods of `group` each node holds (bound, assumed, or reserved by the cycle)."""
    return np.array([sum(1 for p in pods.values() if p.labels.get(LABEL) == group) for pods in state.pods_on],
                    dtype=np.int64)


def filter_reasons(ev, pod, sv, within) -> np.ndarray:
    return np.where(held(ev.state, group_of(pod)) >= LIMIT, REASON, 0).astype(np.int32)


def score(ev, pod, sv, feasible, within) -> np.ndarray:
    """Emptier nodes first: MAX_SCORE on a node holding none of the group, 0 on one holding the limit."""
    return MAX_SCORE * (LIMIT - np.minimum(held(ev.state, group_of(pod)), LIMIT)) // LIMIT


def describe(pod, nodes) -> tuple[str, ...]:
    return (f"label {LABEL}={group_of(pod)} (at most {LIMIT} per node)",)


TOY = Plugin(NAME, frozenset({PRE_FILTER, FILTER, SCORE}), needs=needs, filter=filter_reasons, score=score,
             weight=1, signature=group_of, counts_pods=needs, helped_by_bound_pod=never, describe=describe)


@pytest.fixture
def toy(request):
    """The one registry line, with the record a test asks for (`@pytest.mark.parametrize("toy", ...)`)."""
    with registry.added(getattr(request, "param", TOY), after="InterPodAffinity"):
        yield


# ---- inputs ----------------------------------------------------------------------------------------------------
def nodes(*spec: tuple[str, int]) -> list[str]:
    return [f"""\
apiVersion: v1
kind: Node
metadata: {{name: {name}}}
status: {{allocatable: {{cpu: "{cpu}", memory: {cpu * 4}Gi, pods: "110"}}}}
""" for name, cpu in spec]


def priority_classes() -> list[str]:
    return [f"""\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {{name: {name}}}
value: {value}
""" for name, value in (("low", 10), ("mid", 100), ("high", 1000))]


def a_pod(name: str, cpu: str, group: str | None = None, node: str | None = None, priority: str | None = None,
          gang: str | None = None, minute: int = 0) -> str:
    labels = f"\n  labels: {{{LABEL}: {group}}}" if group else ""
    spec = "".join([f"\n  nodeName: {node}" if node else "", f"\n  priorityClassName: {priority}" if priority else "",
                    f"\n  schedulingGroup: {{podGroupName: {gang}}}" if gang else ""])
    return f"""\
apiVersion: v1
kind: Pod
metadata:
  name: {name}
  namespace: ml
  creationTimestamp: "2026-01-01T00:{minute:02d}:00Z"{labels}
spec:{spec}
  containers:
  - name: main
    image: ghcr.io/example/app:1
    resources:
      requests: {{cpu: "{cpu}", memory: 1Gi}}
"""


def a_gang(name: str, groups: list[str | None]) -> list[str]:
    group = f"""\
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {{name: {name}, namespace: ml}}
spec:
  schedulingPolicy:
    gang: {{minCount: {len(groups)}}}
"""
    return [group, *(a_pod(f"{name}-{i}", "1", g, gang=name) for i, g in enumerate(groups))]


def plan(tmp_path: Path, cluster: list[str], manifests: list[str], command: str = "plan") -> dict:
    (tmp_path / "cluster.yaml").write_text("---\n".join(cluster))
    (tmp_path / "manifests.yaml").write_text("---\n".join(manifests))
    result = run(command, str(tmp_path / "manifests.yaml"), "--cluster", str(tmp_path / "cluster.yaml"), "-o", "json")
    return json.loads(result.stdout)


def placed(doc: dict) -> dict[str, str | None]:
    return {p["name"]: p["node"] for p in doc["pods"]}


# ---- the plan honours it: filter, score, gang batching ---------------------------------------------------------
def test_the_plan_keeps_to_the_limit_and_says_why(tmp_path, toy):
    cluster = nodes(("a", 8), ("b", 8))
    doc = plan(tmp_path, cluster, [a_pod(f"w{i}", "1", "web", minute=i) for i in range(5)])
    assert Counter(placed(doc).values()) == {"a": 2, "b": 2, None: 1}
    (pending,) = [p for p in doc["pods"] if p["status"] == "Pending"]
    assert pending["name"] == "w4"
    assert pending["message"] == "0/2 nodes are available: 2 node(s) already held the pod's limit of its group. " \
                                 "preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod."


def test_the_score_prefers_the_node_with_fewer_of_the_group(tmp_path, toy):
    # node a is the bigger one (resources alone send every pod there), but it already holds one pod of the group
    cluster = [*nodes(("a", 16), ("b", 4)), a_pod("held", "1", "web", node="a")]
    doc = plan(tmp_path, cluster, [a_pod("new", "1", "web"), a_pod("other", "1", "db")])
    assert placed(doc)["new"] == "b" and placed(doc)["other"] == "a"


GANG = [None] * 4 + ["web"] * 4  # eight members (batching needs six), the first four without the label
# the four unlabelled members and one labelled on the big node; its score sends the next labelled ones to nodes
# holding none of the group, ahead of the big node's resource score
SIGNED_PLAN = {"a": 5, "b-0": 1, "b-1": 1, "b-2": 1}


@pytest.mark.parametrize("toy", [TOY, dataclasses.replace(TOY, signature=None)], ids=["signed", "no-signature"],
                         indirect=True)
def test_gang_batching_never_places_past_the_limit_signature_given_or_left_out(tmp_path, toy):
    # resources alone send every member to node a (16 times the room of each b); batching by the first,
    # unlabelled member's verdict would put all four labelled members there, two past the limit
    doc = plan(tmp_path, nodes(("a", 64), ("b-0", 4), ("b-1", 4), ("b-2", 4)), a_gang("train", GANG))
    nodes_of = placed(doc)
    assert doc["podGroups"][0]["status"] == "Scheduled"
    assert Counter(nodes_of.values()) == SIGNED_PLAN
    assert Counter(nodes_of[f"train-{i}"] for i in range(4, 8)) == {"a": 1, "b-0": 1, "b-1": 1, "b-2": 1}


@pytest.mark.parametrize("toy", [dataclasses.replace(TOY, signature=lambda p: None)], indirect=True)
def test_a_signature_that_leaves_the_label_out_is_what_batched_past_the_limit(tmp_path, toy):
    # the reproduction of issue 31 (a signature that does not say what the plugin reads): the test above can fail
    doc = plan(tmp_path, nodes(("a", 64), ("b-0", 4), ("b-1", 4), ("b-2", 4)), a_gang("train", GANG))
    assert Counter(placed(doc).values()) == {"a": 8}


# ---- preemption ------------------------------------------------------------------------------------------------
def preemption_case() -> tuple[list[str], list[str]]:
    """Node a (4 cpu) is full: two pods of the group `web` (1 cpu each, mid priority) and one without it (2 cpu,
    low priority). A high-priority pod of `web` (1 cpu) is rejected by the limit: only evicting a `web` pod helps.
    Resources alone would reprieve both `web` pods (more important) and evict the unlabelled one: needless."""
    cluster = [*priority_classes(), *nodes(("a", 4)),
               a_pod("web-1", "1", "web", node="a", priority="mid", minute=1),
               a_pod("web-2", "1", "web", node="a", priority="mid", minute=2),
               a_pod("plain", "2", node="a", priority="low", minute=3)]
    return cluster, [a_pod("urgent", "1", "web", priority="high", minute=9)]


@pytest.mark.parametrize("toy", [TOY, dataclasses.replace(TOY, victims_matter=True)], ids=["default", "stated"],
                         indirect=True)
def test_preemption_evicts_the_victim_that_frees_the_limit(tmp_path, toy):
    doc = plan(tmp_path, *preemption_case())
    (preemption,) = doc["preemptions"]
    assert [v["name"] for v in preemption["victims"]] == ["web-2"]
    assert placed(doc)["urgent"] == "a" and placed(doc)["plain"] == "a"


@pytest.mark.parametrize("toy", [dataclasses.replace(TOY, victims_matter=False)], indirect=True)
def test_saying_victims_do_not_matter_is_what_evicted_a_needless_pod(tmp_path, toy):
    # the reproduction of issue 31, now only by stating the facet falsely: resources alone pick `plain`
    doc = plan(tmp_path, *preemption_case())
    assert doc["preemptions"][0]["victims"][0]["name"] == "plain"


# ---- requeue ---------------------------------------------------------------------------------------------------
def requeue_case(evicting: bool) -> tuple[list[str], list[str]]:
    """`waiting` (web) finds both nodes at the limit; then `urgent` (no label, high priority) needs node a's room,
    and evicting a low-priority `web` pod there is what makes room. That deletion requeues `waiting`, which then
    fits on a. Without `urgent`, nothing is deleted and `waiting` stays pending."""
    cluster = [*priority_classes(), *nodes(("a", 4), ("b", 4)),
               a_pod("web-a1", "1.5", "web", node="a", priority="low", minute=1),
               a_pod("web-a2", "1.5", "web", node="a", priority="mid", minute=2),
               a_pod("web-b1", "0.5", "web", node="b", priority="mid", minute=3),
               a_pod("web-b2", "0.5", "web", node="b", priority="mid", minute=4),
               a_pod("fill-b", "3", node="b", priority="high", minute=5)]
    manifests = [a_pod("waiting", "0.5", "web", priority="low", minute=10)]
    if evicting:
        manifests.append(a_pod("urgent", "2", priority="high", minute=11))
    return cluster, manifests


@pytest.mark.parametrize("toy", [TOY, dataclasses.replace(TOY, helped_by_bound_pod=None)], ids=["hint", "no-hint"],
                         indirect=True)
def test_a_pod_deleted_elsewhere_wakes_the_pod_the_limit_rejected(tmp_path, toy):
    doc = plan(tmp_path, *requeue_case(evicting=False))
    assert placed(doc)["waiting"] is None
    doc = plan(tmp_path, *requeue_case(evicting=True))
    assert [v["name"] for v in doc["preemptions"][0]["victims"]] == ["web-a1"]
    assert placed(doc)["urgent"] == "a" and placed(doc)["waiting"] == "a"


# ---- explain ---------------------------------------------------------------------------------------------------
def test_explain_names_the_plugin_its_reason_and_the_pods_term(tmp_path, toy):
    cluster = [*nodes(("a", 8), ("b", 8)), *(a_pod(f"old-{n}{i}", "1", "web", node=n) for n in "ab" for i in (1, 2))]
    (tmp_path / "cluster.yaml").write_text("---\n".join(cluster))
    (tmp_path / "manifests.yaml").write_text(a_pod("late", "1", "web"))
    result = run("explain", str(tmp_path / "manifests.yaml"), "--cluster", str(tmp_path / "cluster.yaml"),
                 "-o", "json")
    assert result.exit_code == 1
    (target,) = json.loads(result.stdout)["targets"]
    (shape,) = target["shapes"]
    assert shape["eliminatedBy"] == [{"plugin": NAME, "nodes": 2,
                                      "reasons": {"node(s) already held the pod's limit of its group": 2},
                                      "constraints": [f"label {LABEL}=web (at most {LIMIT} per node)"]}]
