"""The CLI entry pauses the cyclic garbage collector for the run and leaves what the run built out of the
collection at exit (wasplan.cli.collector); library calls do neither."""

from __future__ import annotations

import gc
import sys

import pytest

from tests.conftest import FIXTURES
from wasplan.api.releases import default_gates, get_release
from wasplan.cli.app import main
from wasplan.pipeline.validate import validate_paths


def test_a_command_run_pauses_the_collector_and_freezes_its_objects_at_exit(monkeypatch, capsys):
    assert gc.isenabled() and gc.get_freeze_count() == 0
    monkeypatch.setattr(sys, "argv", ["wasplan", "validate", str(FIXTURES / "manifests" / "training-1.37.yaml")])
    try:
        with pytest.raises(SystemExit) as done:
            main()
        assert done.value.code == 0 and not gc.isenabled()
        assert gc.get_freeze_count() > 0  # the finalization's collection has nothing left to walk
    finally:
        gc.unfreeze()
        gc.enable()
    assert "OK: " in capsys.readouterr().out


def test_a_library_call_leaves_the_collector_alone():
    report = validate_paths([str(FIXTURES / "manifests" / "training-1.37.yaml")], default_gates(get_release("1.37")))
    assert report.counts()["invalid"] == 0 and gc.isenabled() and gc.get_freeze_count() == 0
