"""The plan's text view at 80, 120 and 200 columns: columns dropped by priority, node lists folded, text
wrapped between words, and pending pods of one Job with one reason printed once with a count."""

from __future__ import annotations

import io

from rich.console import Console

from tests.conftest import FIXTURES
from wasplan.api.releases import default_gates, get_release
from wasplan.pipeline.plan import run_plan
from wasplan.pipeline.requests import PlanRequest
from wasplan.report.plan_text import render_text


def _render(paths: list[str], cluster: str, width: int, verbose: bool = False) -> list[str]:
    run = run_plan(PlanRequest(paths, [cluster], default_gates(get_release("1.37"))))
    buf = io.StringIO()
    render_text(run.plan, Console(file=buf, width=width, color_system=None), verbose=verbose)
    return buf.getvalue().splitlines()


def _training(width: int) -> list[str]:
    return _render([str(FIXTURES / "examples" / "training")], str(FIXTURES / "examples" / "cluster.yaml"), width)


def _sweep(width: int, verbose: bool = False) -> list[str]:
    return _render([str(FIXTURES / "plan-text" / "sweep.yaml"), str(FIXTURES / "plan-diff" / "head")],
                   str(FIXTURES / "plan-diff" / "cluster.yaml"), width, verbose)


def test_80_columns_keep_a_topology_aware_plan_s_placement_before_its_nodes():
    assert _training(80) == [
        "Plan for Kubernetes 1.37: 19 nodes, 18 pods — 7 bound, 11 already bound, 0",
        "    pending, 0 preempted",
        "PodGroups",
        "group                               placed  result     placement",
        "ml-research/finetune-13b-evaluator  1/1     Scheduled  -",
        "ml-research/finetune-13b-trainers   2/2     Scheduled  rack=rack-0",
        "ml-research/pretrain-70b-job        4/4     Scheduled  rack=rack-1",
        "Every pod is placed.",
    ]


def test_100_columns_shorten_the_placement_key_to_keep_the_nodes():
    assert _training(100)[2:5] == [
        "group                               policy  placed  result     placement    nodes",
        "ml-research/finetune-13b-evaluator  basic   1/1     Scheduled  -            gpu-r0-3",
        "ml-research/finetune-13b-trainers   gang    2/2     Scheduled  rack=rack-0  gpu-r0-1, gpu-r0-2",
    ]


def test_a_plan_without_topology_drops_its_empty_placement_column_before_the_nodes():
    assert _sweep(52)[2:5] == [
        "PodGroups",
        "group         placed  result         nodes",
        "ml/sweep-job  0/100   Unschedulable  -",
    ]


def test_120_columns_add_policy_and_placement():
    assert _training(120)[2:4] == [
        "group                               policy  placed  result     placement                           nodes",
        "ml-research/finetune-13b-evaluator  basic   1/1     Scheduled  -                                   gpu-r0-3",
    ]


def test_200_columns_show_every_column_on_one_line_each():
    lines = _training(200)
    assert lines[0] == ("Plan for Kubernetes 1.37: 19 nodes, 18 pods — 7 bound, 11 already bound, 0 pending, "
                        "0 preempted")
    assert lines[2] == ("group                               policy  minCount  placed  result     placement      "
                        "                     nodes")
    assert lines[5] == ("ml-research/pretrain-70b-job        gang    4         4/4     Scheduled  "
                        "topology.kubernetes.io/rack=rack-1  gpu-r1-[0-3]")


def test_a_100_pod_job_pending_for_one_reason_is_one_line_at_80_columns():
    # ml/train's members that fitted are told the group's status behind upstream's "pod group is unschedulable"
    assert _sweep(80)[6:] == [
        "Pending pods (105)",
        "  job ml/sweep: 100 pods Pending: 0/4 nodes are available: 4 Insufficient",
        "      nvidia.com/gpu.",
        "  job ml/train: 4 pods Pending: pod group is unschedulable, pod group is",
        "      unschedulable, 0/1 placements are available, first placement status:",
        "      minCount (5) cannot be satisfied: 4 scheduled, 0 remaining, deallocation",
        "      and deletion of ResourceClaims completed, pod group preemption: No",
        "      preemption victims found for incoming preemptor",
        "  ml/train-4 Pending: 0/4 nodes are available: 4 Insufficient nvidia.com/gpu.",
    ]


def test_120_and_200_columns_wrap_only_what_is_longer():
    assert _sweep(120)[6:10] == [
        "  job ml/sweep: 100 pods Pending: 0/4 nodes are available: 4 Insufficient nvidia.com/gpu.",
        "  job ml/train: 4 pods Pending: pod group is unschedulable, pod group is unschedulable, 0/1 placements are available,",
        "      first placement status: minCount (5) cannot be satisfied: 4 scheduled, 0 remaining, deallocation and deletion of",
        "      ResourceClaims completed, pod group preemption: No preemption victims found for incoming preemptor",
    ]
    assert _sweep(200)[7:9] == [
        "  job ml/train: 4 pods Pending: pod group is unschedulable, pod group is unschedulable, 0/1 placements are "
        "available, first placement status: minCount (5) cannot be satisfied: 4 scheduled, 0",
        "      remaining, deallocation and deletion of ResourceClaims completed, pod group preemption: No preemption "
        "victims found for incoming preemptor"]


def test_verbose_lists_every_pending_pod():
    lines = _sweep(200, verbose=True)
    pending = [line for line in lines if line.startswith("  ml/")]
    assert len(pending) == 105
    assert pending[0] == "  ml/sweep-0 Pending: 0/4 nodes are available: 4 Insufficient nvidia.com/gpu."
