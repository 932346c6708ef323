"""explain's text at a fixed width: identical blocks collapse into one naming every target, pod lists fold, long
lines wrap under their own indentation; `verbose` keeps one block per target."""

from __future__ import annotations

import io

from rich.console import Console

from tests.conftest import FIXTURES
from wasplan.api.releases import default_gates, get_release
from wasplan.pipeline.explain import run_explain
from wasplan.pipeline.requests import ExplainRequest, PlanRequest
from wasplan.report.explain_text import render_explain_text

CLUSTER = str(FIXTURES / "plan-diff" / "cluster.yaml")
LONE = """\
apiVersion: v1
kind: Pod
metadata: {{name: trial-{i}, namespace: ml}}
spec:
  containers: [{{name: c, image: x, resources: {{limits: {{nvidia.com/gpu: 8}}}}}},
               {{name: d, image: x, resources: {{limits: {{nvidia.com/gpu: 8}}}}}}]
"""
# two containers: no `requests` suggestion (explain edits a request only where one container makes it), so the
# five suggested pods read alike and collapse


def _text(target, paths, width: int, verbose: bool = False) -> list[str]:
    request = PlanRequest(paths, [CLUSTER], default_gates(get_release("1.37")))
    # the exact check's own lines are tested in tests/explain/test_exact.py
    out = run_explain(ExplainRequest(request, target, exact_budget=None))
    buf = io.StringIO()
    render_explain_text(out.explanation, Console(file=buf, width=width, color_system=None), verbose)
    return buf.getvalue().splitlines()


def test_a_100_pod_job_is_one_block_with_its_pods_folded():
    lines = _text("job/sweep", [str(FIXTURES / "plan-text" / "sweep.yaml")], 80)
    assert lines[:4] == [
        "PodGroup ml/sweep-job: does not fit: can place 0 of 1: 1 short",
        "  basic: minCount 1, 100 pods exist, 0 bound, 0 placeable now: 1 short",
        "  pods ml/sweep-[0-99] (nvidia.com/gpu 16)",
        "    0/4 nodes are available: 4 Insufficient nvidia.com/gpu.",
    ]
    assert lines[7:9] == [
        "    nvidia.com/gpu: needs 1600, free 32 in the cluster, 32 on nodes it may use,",
        "        32 of it stranded on nodes too full for one pod",
    ]
    assert len(lines) == 11


def test_identical_lone_pods_collapse_into_one_block_and_verbose_splits_them(tmp_path):
    manifest = tmp_path / "trials.yaml"
    manifest.write_text("---\n".join(LONE.format(i=i) for i in range(12)))
    lines = _text(None, [str(manifest)], 120)
    # the first five targets (explain's backlog) get verified suggestions, the rest a note: two blocks
    heads = [line for line in lines if "does not fit" in line]
    assert heads == [
        "5 Pods ml/trial-[0-2], ml/trial-10, ml/trial-11: does not fit: 0/4 nodes are available: 4 Insufficient "
        "nvidia.com/gpu.",
        "7 Pods ml/trial-[3-9]: does not fit: 0/4 nodes are available: 4 Insufficient nvidia.com/gpu. preemption: "
        "0/4 nodes are"]
    assert "  pods ml/trial-[3-9] (nvidia.com/gpu 16)" in lines
    verbose = _text(None, [str(manifest)], 120, verbose=True)
    assert sum(1 for line in verbose if "does not fit" in line) == 12
