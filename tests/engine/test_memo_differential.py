"""The engine's memoisation of unchanged cluster states (EngineOptions.memo: framework.py's "no node fits" memo
per pod shape, cycles.py's placed members per group, preemption/driver.py's victim scans, groupcycle.py's one
FitError for the members of a batch after the first that finds no node) changes no plan: the
Plan JSON and the emitted snapshot are byte-identical with `memo=False`, over every fixture that comes with a
cluster (scenarios, explain cases, examples, workloads, plan-diff) in 1.36 and 1.37, and over random small
clusters with many pending pods: basic groups and gangs (upstream re-attempts every queued member at each
arrival, pkg/scheduler/schedule_one_podgroup.go), priorities and preemption, topology keys, plain pods, arrivals
one by one or in a batch, and DRA claims (per pod and per PodGroup)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from builders import basic, gang, node, pod, priority_class
from hypothesis import given, settings
from hypothesis import strategies as st

from wasplan.api.releases import get_release, parse_gates
from wasplan.cluster.model import PlanInputs
from wasplan.engine.cycle.framework import Evaluator
from wasplan.engine.profile.options import EngineOptions
from wasplan.engine.simulator import simulate
from wasplan.engine.pluginapi.status import reason_table
from wasplan.pipeline.plan import prepare_plan
from wasplan.pipeline.requests import PlanRequest
from wasplan.report.plan_json import render_plan_json, render_snapshot

from tests.conftest import FIXTURES
from tests.engine import drascenes


def _outputs(inputs, options: EngineOptions, memo: bool) -> tuple[str, str]:
    with reason_table():
        plan, final = simulate(inputs, dataclasses.replace(options, memo=memo))
        return render_plan_json(plan), render_snapshot(final, options.gates.release)


def assert_same_with_and_without_memo(inputs, options: EngineOptions) -> str:
    memo = _outputs(inputs, options, True)
    reference = _outputs(inputs, options, False)
    assert memo[0] == reference[0]
    assert memo[1] == reference[1]
    return memo[0]


def _corpus() -> list[tuple[Path, Path]]:
    """(cluster, manifests) for every directory of fixtures/ holding a cluster.yaml: each other YAML file and each
    subdirectory beside it is one set of manifests."""
    out = []
    for cluster in sorted(FIXTURES.rglob("cluster.yaml")):
        if "messy-repo" in cluster.parts:
            continue
        for entry in sorted(cluster.parent.iterdir()):
            if entry != cluster and (entry.is_dir() or entry.suffix in (".yaml", ".yml")):
                out.append((cluster, entry))
    return out


CORPUS = _corpus()


def test_the_corpus_covers_the_scenario_fixtures():
    names = {str(m.relative_to(FIXTURES)) for _, m in CORPUS}
    assert {"scenarios/competing-gangs/manifests", "scenarios/preemption/serving.yaml",
            "scenarios/racks-and-trees/manifests", "examples/training", "examples/dra/workloads",
            "explain/gpu-short/train.yaml", "workloads/jobset-tas.yaml"} <= names


@pytest.mark.parametrize("version", ["1.36", "1.37", "1.38"])
@pytest.mark.parametrize(("cluster", "manifests"), CORPUS, ids=[str(m.relative_to(FIXTURES)) for _, m in CORPUS])
def test_fixture_plans_are_byte_identical_without_the_memo(cluster, manifests, version):
    prepared = prepare_plan(PlanRequest([str(manifests)], [str(cluster)], parse_gates(get_release(version), None)))
    if prepared.inputs is None:
        pytest.skip(f"not plannable in {version}")
    assert_same_with_and_without_memo(prepared.inputs, prepared.options)


@st.composite
def pending_clusters(draw):
    """A few nodes (one of them tainted, racks as a topology key) already running low-priority pods, then
    groups and plain pods that ask for more than fits."""
    count = draw(st.integers(1, 5))
    existing: list = [priority_class("low", 10), priority_class("high", 1000)]
    existing += [node(f"n{i}", cpu=str(draw(st.sampled_from([2, 4, 8]))), pods=draw(st.sampled_from([4, 6, 110])),
                      labels={"rack": f"r{i % 2}"}, taints=("dedicated=infra:NoSchedule",) if i == 3 else ())
                 for i in range(count)]
    for k in range(draw(st.integers(0, 6))):
        existing.append(pod(f"run-{k}", cpu=draw(st.sampled_from(["500m", "1"])), priority_class="low",
                            node_name=f"n{draw(st.integers(0, count - 1))}"))
    arrivals: list = []
    for g in range(draw(st.integers(1, 3))):
        size = draw(st.integers(2, 14))
        prio = draw(st.sampled_from(["low", "high"]))
        keys = ("rack",) if draw(st.integers(0, 3)) == 0 else ()
        group = gang(f"g{g}", draw(st.integers(1, size)), topology_keys=keys, priority_class=prio) \
            if draw(st.booleans()) else basic(f"g{g}", topology_keys=keys, priority_class=prio)
        arrivals.append(group)
        shapes = draw(st.lists(st.sampled_from(["250m", "500m", "1", "3"]), min_size=1, max_size=2))
        arrivals += [pod(f"g{g}-{k:02d}", cpu=shapes[k % len(shapes)], group=f"g{g}", priority_class=prio)
                     for k in range(size)]
    for k in range(draw(st.integers(0, 8))):
        arrivals.insert(draw(st.integers(0, len(arrivals))),
                        pod(f"solo-{k}", cpu=draw(st.sampled_from(["500m", "2"])),
                            priority_class=draw(st.sampled_from(["low", "high"]))))
    return existing, arrivals


@settings(max_examples=60, deadline=None)
@given(pending_clusters(), st.sampled_from(["1.36", "1.37"]), st.sampled_from(["sequential", "batch"]),
       st.booleans())
def test_random_pending_plans_are_byte_identical_without_the_memo(cluster, version, arrival, preemption):
    options = EngineOptions(gates=parse_gates(get_release(version), None), arrival=arrival, preemption=preemption)
    assert_same_with_and_without_memo(PlanInputs(*cluster), options)


PLAIN = """\
---
apiVersion: v1
kind: Pod
metadata: {{name: {name}, namespace: default}}
spec:{group}
  containers: [{{name: main, image: app:1, resources: {{requests: {{cpu: "{cpu}"}}}}}}]
"""


def _dra_manifests(draw) -> str:
    """Pods with a claim from the template (per pod) or a PodGroup's shared claim, more than the devices, and
    pods without claims (the memoised common case) between them."""
    text = drascenes.TEMPLATE
    groups = draw(st.integers(0, 2))
    for g in range(groups):
        text += (f"---\napiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {{name: g{g}}}\n"
                 "spec:\n  schedulingPolicy: {basic: {}}\n"
                 "  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]\n")
    for k in range(draw(st.integers(1, 12))):
        group = draw(st.sampled_from([None, *(f"g{g}" for g in range(groups))]))
        cpu = draw(st.sampled_from(["1", "3"]))
        if draw(st.booleans()):
            text += drascenes.pod(f"p{k}", "- {name: gpu, resourceClaimTemplateName: one-gpu}", group=group, cpu=cpu)
        else:
            text += PLAIN.format(name=f"p{k}", cpu=cpu, group=f"\n  schedulingGroup: {{podGroupName: {group}}}"
                                 if group else "")
    return text


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_random_dra_plans_are_byte_identical_without_the_memo(tmp_path_factory, data):
    tmp = tmp_path_factory.mktemp("dra")
    devices = data.draw(st.integers(1, 3))
    (tmp / "cluster.yaml").write_text(drascenes.CLUSTER + drascenes.slice_for(
        "worker", *(f"gpu-{i}" for i in range(devices))))
    (tmp / "change.yaml").write_text(_dra_manifests(data.draw))
    prepared = prepare_plan(PlanRequest([str(tmp / "change.yaml")], [str(tmp / "cluster.yaml")],
                                        parse_gates(get_release("1.37"), "DRAWorkloadResourceClaims=true")))
    assert prepared.inputs is not None, prepared.run.diagnostics
    assert_same_with_and_without_memo(prepared.inputs, prepared.options)


@pytest.mark.parametrize(("memo", "diagnoses"), [(True, 1), (False, 105)])
def test_re_attempts_on_an_unchanged_cluster_are_answered_from_the_memo(monkeypatch, memo, diagnoses):
    """14 members of a basic group stay pending; each later arrival re-attempts all pending members (1 + 2 + ...
    + 14 = 105 attempts). Nothing changes the cluster after the first failure, so one diagnosis serves all."""
    made = []
    real = Evaluator._diagnose
    monkeypatch.setattr(Evaluator, "_diagnose", lambda self, *a, **k: made.append(1) or real(self, *a, **k))
    existing = [node("n0", pods=8), node("n1", pods=8)]
    arrivals = [basic("job"), *(pod(f"job-{k:02d}", cpu="100m", group="job") for k in range(30))]
    simulate(PlanInputs(existing, arrivals), EngineOptions(memo=memo))
    assert len(made) == diagnoses


def test_a_pending_basic_group_plans_the_same_and_says_why():
    """The repro's shape, small: 30 pods of a basic group on two nodes of 8 pods; 14 stay pending with the
    FitError every re-attempt gives."""
    existing = [node("n0", pods=8), node("n1", pods=8)]
    arrivals = [basic("job"), *(pod(f"job-{k:02d}", cpu="100m", group="job") for k in range(30))]
    text = assert_same_with_and_without_memo(PlanInputs(existing, arrivals), EngineOptions())
    assert text.count('"status": "Pending"') == 14
    assert text.count('"message": "0/2 nodes are available: 2 Too many pods."') == 14


def test_a_group_whose_members_are_preempted_is_no_longer_pinned_to_their_rack():
    """A low-priority basic group kept to one rack runs two members on n0 (rack r0), a third waits; a
    high-priority pod for rack r0 preempts both. The waiting member's next cycle sees no member placed (the
    placed-members memo starts over when the evictions change the state), so it may go to rack r1."""
    existing = [priority_class("low", 10), priority_class("high", 1000),
                node("n0", cpu="2", labels={"rack": "r0"}), node("n1", cpu="2", labels={"rack": "r1"})]
    arrivals = [basic("lo", topology_keys=("rack",), priority_class="low"),
                *(pod(f"lo-{k}", cpu="1", group="lo", priority_class="low") for k in range(3)),
                pod("hi", cpu="2", priority_class="high", node_selector={"rack": "r0"})]
    text = assert_same_with_and_without_memo(PlanInputs(existing, arrivals), EngineOptions())
    assert '"message": "Successfully assigned default/lo-2 to n1"' in text
    assert text.count('"message": "Preempted by pod default/hi on node n0"') == 2


@pytest.mark.parametrize(("memo", "searches"), [(True, 40), (False, 121)])
def test_later_members_of_a_batch_take_the_first_failures_fit_error(monkeypatch, memo, searches):
    """groupcycle._run_entity: once a member of a one-signature batch finds no node, the later members of that
    cycle are told the same FitError without a find_node each. 30 pods of a 1.37 basic group on two nodes of 8
    pods: 16 bind, 14 stay pending, and their plan is the one every member's own find_node gives. Searches: 16
    for the arrivals that bind; then 1 + 2 + ... + 14 = 105 re-attempts without the memo, but with it the cycles
    of 1 to 5 pending members (below gangbatch.MIN_MEMBERS, no batch) search for each (15), those of 6 to 14
    once (9)."""
    calls = []
    real = Evaluator.find_node
    monkeypatch.setattr(Evaluator, "find_node", lambda self, *a, **k: calls.append(1) or real(self, *a, **k))
    existing = [node("n0", pods=8), node("n1", pods=8)]
    arrivals = [basic("job"), *(pod(f"job-{k:02d}", cpu="100m", group="job") for k in range(30))]
    options = EngineOptions(gates=parse_gates(get_release("1.37"), ""))
    text = assert_same_with_and_without_memo(PlanInputs(existing, arrivals), options)
    calls.clear()
    simulate(PlanInputs(existing, arrivals), dataclasses.replace(options, memo=memo))
    assert len(calls) == searches
    assert text.count('"message": "0/2 nodes are available: 2 Too many pods."') == 14


def test_a_member_of_another_size_after_a_failed_one_gets_its_own_verdict():
    """Members of two request sizes form no batch, so a member that finds no node says nothing about the next:
    the 8-CPU members fit nowhere on 4-CPU nodes, the 1-CPU members after them still bind."""
    existing = [node("n0", cpu="4"), node("n1", cpu="4")]
    arrivals = [basic("job"), *(pod(f"big-{k}", cpu="8", group="job") for k in range(4)),
                *(pod(f"small-{k}", cpu="1", group="job") for k in range(4))]
    options = EngineOptions(gates=parse_gates(get_release("1.37"), ""))
    text = assert_same_with_and_without_memo(PlanInputs(existing, arrivals), options)
    assert text.count('"message": "0/2 nodes are available: 2 Insufficient cpu."') == 4
    assert text.count('"message": "Successfully assigned default/small-') == 4
