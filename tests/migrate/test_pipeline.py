"""Pipeline guarantees that need a look inside: the self-check catches a wrong edit, and the slow round-trip
parser only ever sees documents that change."""

from __future__ import annotations

from wasplan.documents import roundtrip
from wasplan.migrate import edit, steps
from wasplan.migrate.plan import Options
from wasplan.migrate.targets import Target
from wasplan.pipeline.exits import migrate_exit_code as exit_code
from wasplan.pipeline.migrate import migrate

from .harness import FIXTURES


def test_self_check_refuses_a_wrong_round_trip_edit(tmp_path, monkeypatch):
    path = tmp_path / "pg.yaml"
    text = (FIXTURES / "kubectl-list" / "input.yaml").read_text()
    path.write_text(text)
    real_mode = steps._mode

    def buggy_mode(m, p, table, ctx):  # maps every disruptionMode to "single", but only on round-trip trees
        real_mode(m, p, table, ctx)
        if hasattr(m, "ca") and isinstance(m.get("disruptionMode"), dict):
            m["disruptionMode"] = {"single": {}}

    monkeypatch.setattr(steps, "_mode", buggy_mode)
    result = migrate([str(path)], Target.parse("1.37", None), Options(), in_place=True)
    assert [d.code for d in result.all_diagnostics] == ["WAS504"]
    assert "disruptionMode" in result.all_diagnostics[0].message
    assert path.read_text() == text and result.written == []
    assert exit_code(result, check=False) == 1


def test_round_trip_parser_sees_only_documents_that_change(monkeypatch):
    seen = []
    real = roundtrip.load_yaml

    def spy(text):
        seen.append(text)
        return real(text)

    monkeypatch.setattr(edit, "load_yaml", spy)
    result = migrate([str(FIXTURES / "mixed-stream" / "input.yaml")], Target.parse("1.37", None), Options())
    assert len(result.changed) == 1
    assert len(seen) == 2  # the v1alpha2 Workload and PodGroup; not the Service, ConfigMap, Deployment, v1beta1, Job
    assert all("scheduling.k8s.io/v1alpha2" in text for text in seen)


def test_an_internal_error_is_a_diagnostic_not_a_traceback(tmp_path, monkeypatch):
    path = tmp_path / "pg.yaml"
    text = (FIXTURES / "kubectl-list" / "input.yaml").read_text()
    path.write_text(text)

    def explode(*_args, **_kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(steps, "_ref_to_new", explode)
    result = migrate([str(path)], Target.parse("1.37", None), Options(), in_place=True)
    [diag] = result.all_diagnostics
    assert diag.code == "WAS504" and "RuntimeError: boom" in diag.message and diag.location.line == 1
    assert path.read_text() == text and exit_code(result, check=False) == 1
