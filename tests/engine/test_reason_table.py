"""Reasons a run makes up from its input (a resource name) live in that run's table and are dropped
with it (engine/pluginapi/status.py `reason_table`): planning many inputs in one process does not grow a global table."""

from __future__ import annotations

from wasplan.api.releases import default_gates, get_release
from wasplan.engine.pluginapi import status
from wasplan.pipeline.explain import run_explain
from wasplan.pipeline.plan import run_plan
from wasplan.pipeline.requests import ExplainRequest, PlanRequest

CLUSTER = """\
apiVersion: v1
kind: Node
metadata: {name: n0, labels: {kubernetes.io/hostname: n0}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
"""


def _inputs(tmp_path, resource: str):
    (tmp_path / "cluster.yaml").write_text(CLUSTER)
    (tmp_path / "pod.yaml").write_text(f"""\
apiVersion: v1
kind: Pod
metadata: {{name: p, namespace: default}}
spec:
  containers: [{{name: main, image: app:1, resources: {{requests: {{{resource}: "1"}}, limits: {{{resource}: "1"}}}}}}]
""")
    return [str(tmp_path / "pod.yaml")], [str(tmp_path / "cluster.yaml")]


def test_plan_and_explain_leave_no_reason_behind(tmp_path):
    gates = default_gates(get_release("1.37"))
    before = list(status.REASONS.text)
    for i, run in enumerate((run_plan, lambda request: run_explain(ExplainRequest(request)).run)):
        paths, cluster = _inputs(tmp_path, f"example.com/reason-table-{i}")
        plan = run(PlanRequest(paths, cluster, gates)).plan
        assert any(f"Insufficient example.com/reason-table-{i}" in p.message for p in plan.pods)
    assert status.REASONS.text == before

