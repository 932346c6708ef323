"""Ties that matter (issue 30): a preemption that kube-scheduler draws at random between equally scored choices
that evict different pods names every choice with its victims, in the JSON, the text, Markdown and HTML reports,
and `--fail-on preemption` counts each of them.

fixtures/scenarios/tied-blocks is the issue's reproduction: a 1.37 topology-aware gang that must preempt, three
blocks that score alike once every lower-priority pod is removed (findBestPlacement's rand.Int() in
pkg/scheduler/schedule_one_podgroup.go), and a reprieve that keeps different pods in each
(framework/preemption/podgrouppreemption.go selectVictimsOnDomain). The single-pod case follows
pickOneNodeForPreemption (framework/preemption/preemption.go): after five equal criteria, the first node of a map.
"""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wasplan.cli import plan_cmd  # noqa: F401
from wasplan.cli.app import app
from wasplan.engine.preemption.ties import consequential
from wasplan.exitcodes import ExitCode
from wasplan.api.releases import default_gates, get_release
from wasplan.pipeline.exits import plan_exit_code
from wasplan.pipeline.plan import PlanRun
from wasplan.pipeline.requests import PlanRequest
from wasplan.plan import Alternative, FailOn, GroupOutcome, GroupStatus, Plan

HERE = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "tied-blocks"
CLUSTER = ["--cluster", str(HERE / "cluster.yaml")]
TRAINING = [f"ml/training-{i:02d}" for i in range(16)]
BLOCKS = [{"placement": "example.com/block=block-0", "nodes": ["b0-n0", "b0-n1"], "victims": TRAINING,
           "chosen": True},
          {"placement": "example.com/block=block-1", "nodes": ["b1-n0", "b1-n1"], "victims": ["research/notebook"],
           "chosen": False},
          {"placement": "example.com/block=block-2", "nodes": ["b2-n0", "b2-n1"],
           "victims": ["data/etl-0", "data/etl-1"], "chosen": False}]
SENTENCE = ("tie: PodGroup ml/train: kube-scheduler picks one of 3 equally scored placements at random: block-0 "
            "evicts 16 pods (the plan's choice); block-1 evicts 1 pod: research/notebook; block-2 evicts 2 pods: "
            "data/etl-0, data/etl-1 (--fail-on preemption fails whichever is drawn)")


def plan(*args: str, width: int = 80):
    return CliRunner().invoke(app, ["plan", *args], env={"COLUMNS": str(width)})


def test_tied_blocks_json_names_every_placement_and_its_victims():
    result = plan(str(HERE / "train.yaml"), *CLUSTER, "-o", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    (group,) = doc["podGroups"]
    assert group["placement"] == {"topologyKey": "example.com/block", "domain": "block-0"}
    assert group["alternatives"] == BLOCKS
    (preemption,) = doc["preemptions"]
    assert sorted(f"{v['namespace']}/{v['name']}" for v in preemption["victims"]) == TRAINING
    assert "alternatives" not in preemption  # a group's tie is on the group
    pods = {p["name"]: p for p in doc["pods"]}
    assert [pods[f"train-{i}"]["node"] for i in range(2)] == ["b0-n0", "b0-n1"]
    assert pods["notebook"]["status"] == "AlreadyBound" and pods["etl-0"]["status"] == "AlreadyBound"


def test_tied_blocks_text_markdown_and_html_say_it_is_a_draw():
    text = plan(str(HERE / "train.yaml"), *CLUSTER, width=400)
    assert text.exit_code == 0, text.output
    assert f"  {SENTENCE}\n" in text.output
    markdown = plan(str(HERE / "train.yaml"), *CLUSTER, "-o", "markdown")
    assert "### Ties (1)" in markdown.output
    assert "- tie: PodGroup ml/train: kube-scheduler picks one of 3 equally scored placements at random: block-0 " \
           "evicts 16 pods (the plan's choice); block-1 evicts 1 pod: research/notebook;" in markdown.output
    html = plan(str(HERE / "train.yaml"), *CLUSTER, "-o", "html").output
    assert '<section id="ties"' in html
    assert ('<tr class="chosen"><td>block-0</td><td>b0-n0, b0-n1</td><td>16 pods</td><td>-</td><td>chosen</td></tr>'
            in html)
    assert "<tr><td>block-1</td><td>b1-n0, b1-n1</td><td>1 pod</td><td>research/notebook</td><td>-</td></tr>" in html


def test_fail_on_preemption_fails_on_the_draw():
    result = plan(str(HERE / "train.yaml"), *CLUSTER, "--fail-on", "preemption")
    assert result.exit_code == 1
    assert "--fail-on preemption fails whichever is drawn" in " ".join(result.output.split())


def test_136_refuses_the_constrained_group_so_there_is_no_draw():
    result = plan(str(HERE / "train-1.36.yaml"), *CLUSTER, "--k8s-version", "1.36", "-o", "json")
    assert result.exit_code == 1, result.output
    doc = json.loads(result.output)
    (group,) = doc["podGroups"]
    assert group["status"] == "Unschedulable" and "alternatives" not in group
    assert doc["preemptions"] == []
    assert {p["message"] for p in doc["pods"] if p["name"].startswith("train-")} == {
        "0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: not eligible due "
        "to placement-based pod group scheduling limitation"}


def two_nodes(a: str, b: str) -> str:
    """Two 4-CPU nodes, each running one 3-CPU priority-0 pod started at `a` and `b`."""
    head = ("apiVersion: v1\nkind: List\nitems:\n- apiVersion: scheduling.k8s.io/v1\n  kind: PriorityClass\n"
            "  metadata: {name: high}\n  value: 1000\n")
    return head + "".join(f"""\
- apiVersion: v1
  kind: Node
  metadata: {{name: node-{n}}}
  status: {{allocatable: {{cpu: "4", memory: 16Gi, pods: "110"}}}}
- apiVersion: v1
  kind: Pod
  metadata: {{name: batch-{n}, namespace: default}}
  spec:
    nodeName: node-{n}
    containers: [{{name: c, image: x, resources: {{requests: {{cpu: "3"}}}}}}]
  status: {{phase: Running, startTime: "{start}"}}
""" for n, start in (("a", a), ("b", b)))


WEB = """\
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
spec:
  priorityClassName: high
  containers: [{name: c, image: x, resources: {requests: {cpu: "2"}}}]
"""


def _single(tmp_path, a: str, b: str, version: str):
    (tmp_path / "cluster.yaml").write_text(two_nodes(a, b))
    (tmp_path / "web.yaml").write_text(WEB)
    result = plan(str(tmp_path / "web.yaml"), "--cluster", str(tmp_path / "cluster.yaml"), "--k8s-version", version,
                  "-o", "json")
    assert result.exit_code == 0, result.output
    (preemption,) = json.loads(result.output)["preemptions"]
    return preemption


@pytest.mark.parametrize("version", ["1.36", "1.37"])
def test_single_pod_tie_lists_both_nodes(tmp_path, version):
    """Equal victims' priority, count and start second: upstream takes either node, so either pod goes."""
    preemption = _single(tmp_path, "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z", version)
    chosen = preemption["victims"][0]["node"]
    assert preemption["alternatives"] == [
        {"node": "node-a", "victims": ["default/batch-a"], "chosen": chosen == "node-a"},
        {"node": "node-b", "victims": ["default/batch-b"], "chosen": chosen == "node-b"}]


def test_single_pod_without_a_tie_has_no_alternatives(tmp_path):
    """batch-a started a second later: the latest-start criterion decides (node-a), nothing is drawn."""
    preemption = _single(tmp_path, "2026-01-01T00:00:01Z", "2026-01-01T00:00:00Z", "1.37")
    assert preemption["victims"][0]["name"] == "batch-a"
    assert "alternatives" not in preemption


def test_single_pod_tie_text_line(tmp_path):
    (tmp_path / "cluster.yaml").write_text(two_nodes("2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z"))
    (tmp_path / "web.yaml").write_text(WEB)
    result = plan(str(tmp_path / "web.yaml"), "--cluster", str(tmp_path / "cluster.yaml"), width=400)
    assert ("  tie: Pod default/web: kube-scheduler picks one of 2 equally ranked preemption nodes at random: "
            "node-a evicts 1 pod: default/batch-a; node-b evicts 1 pod: default/batch-b (the plan's choice) "
            "(--fail-on preemption fails whichever is drawn)\n") in result.output


def test_a_placement_tie_without_preemption_is_not_reported():
    """racks-and-trees: racks 1-3 fit the gang alike with nothing to evict; the choice is noise, not a line."""
    scenario = HERE.parent / "racks-and-trees"
    result = plan(str(scenario / "manifests"), "--cluster", str(scenario / "cluster.yaml"), "-o", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert all("alternatives" not in g for g in doc["podGroups"])
    assert "tie:" not in plan(str(scenario / "manifests"), "--cluster", str(scenario / "cluster.yaml")).output


class _Victim:
    def __init__(self, key):
        self.key = key


def test_choices_evicting_the_same_pods_are_not_a_tie_that_matters():
    same = [_Victim("ns/a"), _Victim("ns/b")]
    assert consequential([("k=x", ("n1",), same), ("k=y", ("n2",), list(reversed(same)))], 0) == ()
    assert consequential([("k=x", ("n1",), [])], 0) == ()
    found = consequential([("k=x", ("n2", "n1", "n1"), same), ("k=y", ("n3",), [])], 1)
    assert found == (Alternative("k=x", ("n1", "n2"), ("ns/a", "ns/b"), False), Alternative("k=y", ("n3",), (), True))


def test_fail_on_preemption_counts_an_alternative_that_preempts():
    """Where the plan's own choice evicts nothing but another tied choice would, kube-scheduler may draw it."""
    alts = (Alternative("k=x", ("n1",), (), True), Alternative("k=y", ("n2",), ("ns/a",)))
    group = GroupOutcome("ns", "g", "gang", 1, GroupStatus.SCHEDULED, alternatives=alts)
    run = PlanRun(plan=Plan("1.37", 2, (), (group,)))
    gates = default_gates(get_release("1.37"))
    assert plan_exit_code(run, PlanRequest((), (), gates, fail_on=FailOn.PENDING)) == ExitCode.OK
    assert plan_exit_code(run, PlanRequest((), (), gates, fail_on=FailOn.PREEMPTION)) == ExitCode.FINDINGS
    assert run.draws_preemption


def test_a_long_tie_spells_out_five_choices_and_the_plans_own():
    from wasplan.planview.ties import tie_sentence

    alts = tuple(Alternative(None, (f"n{i}",), (f"ns/p{i}",), i == 7) for i in range(9))
    assert tie_sentence("Pod", "ns/web", alts) == (
        "tie: Pod ns/web: kube-scheduler picks one of 9 equally ranked preemption nodes at random: n0 evicts 1 pod: "
        "ns/p0; n1 evicts 1 pod: ns/p1; n2 evicts 1 pod: ns/p2; n3 evicts 1 pod: ns/p3; n7 evicts 1 pod: ns/p7 "
        "(the plan's choice); 4 more (see the JSON plan) (--fail-on preemption fails whichever is drawn)")


def test_a_tie_over_many_nodes_lists_eight_and_counts_them_all(tmp_path):
    """Forty identical nodes, each running one equal victim: every node is a draw upstream. The plan lists the
    first eight by name (its own choice among them) and says how many tied."""
    head = ("apiVersion: v1\nkind: List\nitems:\n- apiVersion: scheduling.k8s.io/v1\n  kind: PriorityClass\n"
            "  metadata: {name: high}\n  value: 1000\n")
    items = "".join(f"""\
- apiVersion: v1
  kind: Node
  metadata: {{name: node-{i:02d}}}
  status: {{allocatable: {{cpu: "4", memory: 16Gi, pods: "110"}}}}
- apiVersion: v1
  kind: Pod
  metadata: {{name: batch-{i:02d}, namespace: default}}
  spec:
    nodeName: node-{i:02d}
    containers: [{{name: c, image: x, resources: {{requests: {{cpu: "3"}}}}}}]
""" for i in range(40))
    (tmp_path / "cluster.yaml").write_text(head + items)
    (tmp_path / "web.yaml").write_text(WEB)
    result = plan(str(tmp_path / "web.yaml"), "--cluster", str(tmp_path / "cluster.yaml"), "-o", "json")
    (preemption,) = json.loads(result.output)["preemptions"]
    chosen = preemption["victims"][0]["node"]
    listed = [a["node"] for a in preemption["alternatives"]]
    assert preemption["tiedChoices"] == 40 and len(listed) == 8 and chosen in listed
    assert listed == sorted(listed) and listed[:7] == [f"node-{i:02d}" for i in range(7)]
    assert [a["node"] for a in preemption["alternatives"] if a["chosen"]] == [chosen]
    text = plan(str(tmp_path / "web.yaml"), "--cluster", str(tmp_path / "cluster.yaml"), width=400).output
    assert "picks one of 40 equally ranked preemption nodes at random" in text and "; 35 more (see the JSON plan)" in text


def test_136_members_preempting_pod_by_pod_carry_their_node_ties():
    """1.36 without workload-aware preemption: each member's DefaultPreemption is a draw among the nodes whose
    one equal victim has no start time (all count as started "now" upstream)."""
    from builders import gang, node, pod, pods
    from enginehelp import run

    cluster = [*(node(f"n{i}", cpu="4") for i in range(4)),
               *(pod(f"low-{i}", cpu="4", priority=0, node_name=f"n{i}") for i in range(4))]
    plan_ = run(cluster, [gang("g", 2, priority=100), *pods("g", 2, cpu="4", priority=100, group="g")],
                version="1.36", gates="WorkloadAwarePreemption=false")
    ties = [(p.preemptor_name, [(a.nodes[0], a.victims, a.chosen) for a in p.alternatives]) for p in plan_.preemptions]
    assert ties == [("g-1", [(f"n{i}", (f"default/low-{i}",), i == 3) for i in range(4)]),
                    ("g-0", [(f"n{i}", (f"default/low-{i}",), i == 2) for i in range(3)])]
