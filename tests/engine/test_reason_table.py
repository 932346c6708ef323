"""Reasons a run makes up from its input (a taint, a resource name) live in that run's table and are dropped
with it (engine/status.py `reason_table`): planning many inputs in one process does not grow a global table."""

from __future__ import annotations

from tests.conftest import FIXTURES
from wasplan.api.releases import default_gates, get_release
from wasplan.engine import status
from wasplan.pipeline.explain import run_explain
from wasplan.pipeline.plan import run_plan

TAINT = FIXTURES / "explain" / "taint"


def _inputs(tmp_path, key: str):
    cluster = tmp_path / "cluster.yaml"
    cluster.write_text((TAINT / "cluster.yaml").read_text().replace("key: dedicated", f"key: {key}"))
    return [str(TAINT / "gang.yaml")], [str(cluster)]


def test_plan_and_explain_leave_no_reason_behind(tmp_path):
    gates = default_gates(get_release("1.37"))
    before = list(status.REASONS.text)
    for i, run in enumerate((run_plan, lambda p, c, g: run_explain(None, None, p, c, g).run)):
        paths, cluster = _inputs(tmp_path, f"reason-table-{i}")
        plan = run(paths, cluster, gates).plan
        assert any(f"untolerated taint {{reason-table-{i}: training}}" in p.message for p in plan.pods)
    assert status.REASONS.text == before

