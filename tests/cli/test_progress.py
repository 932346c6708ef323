"""The phases the progress bar names, as the pipeline reports them, and the bar's absence off a terminal."""

from __future__ import annotations

from tests.conftest import FIXTURES
from wasplan.api.releases import default_gates, get_release
from wasplan.cli.progress import phase_bar
from wasplan.pipeline.explain import run_explain
from wasplan.pipeline.plan import run_plan
from wasplan.pipeline.requests import ExplainRequest, PlanRequest

DIFF = FIXTURES / "plan-diff"


def _phases(events):
    return list(dict.fromkeys(phase for phase, _, _ in events))


def test_plan_reports_reading_checking_building_and_scheduling_with_counts():
    events = []
    run_plan(PlanRequest([str(DIFF / "head")], [str(DIFF / "cluster.yaml")], default_gates(get_release("1.37"))),
             lambda *e: events.append(e))
    assert _phases(events) == ["reading", "checking", "building the cluster", "scheduling"]
    assert ("checking", 3, 3) in events  # the Cluster document, the Job and the Pod
    assert events[-1][0] == "scheduling" and events[-1][1] == events[-1][2]


def test_explain_counts_verification_re_runs_out_of_the_run_budget():
    events = []
    request = PlanRequest([str(DIFF / "head")], [str(DIFF / "cluster.yaml")], default_gates(get_release("1.37")))
    run_explain(ExplainRequest(request, "job/train", verify_budget=3), lambda *e: events.append(e))
    verifying = [e for e in events if e[0] == "verifying suggestions"]
    assert _phases(events)[-1] == "verifying suggestions"
    assert verifying[0] == ("verifying suggestions", 0, 3) and verifying[-1][1] >= 1
    assert {total for _, _, total in verifying} == {3}


def test_no_bar_off_a_terminal(capsys):
    with phase_bar() as report:
        assert report is None
    assert capsys.readouterr().err == ""


def test_a_large_snapshot_is_reported_by_name_and_bytes(tmp_path, monkeypatch):
    from wasplan.documents import sources

    monkeypatch.setattr(sources, "CHUNK", 4096)
    cluster = tmp_path / "snapshot.yaml"
    cluster.write_text((DIFF / "cluster.yaml").read_text() + "\n" + "# padding\n" * 2000)
    size = cluster.stat().st_size
    events = []
    run_plan(PlanRequest([str(DIFF / "head")], [str(cluster)], default_gates(get_release("1.37"))),
             lambda *e: events.append(e))
    reading = [e for e in events if e[0] == f"reading {cluster}"]
    assert reading[0] == (f"reading {cluster}", 4096, size) and reading[-1] == (f"reading {cluster}", size, size)
    assert _phases(events)[:2] == ["reading", f"reading {cluster}"]


def test_the_count_is_in_megabytes_while_a_file_is_read():
    from wasplan.cli.progress import count_text, is_byte_phase

    assert is_byte_phase("reading dump.json") and not is_byte_phase("reading") and not is_byte_phase("checking")
    assert count_text(120_400_000, 397_000_000, True) == "120.4/397.0 MB"
    assert count_text(12, 40, False) == "12/40"
    assert count_text(3, None, False) == "3"
