"""The one exception boundary (cli/boundary.py): exit codes for closed and full outputs, one line for an
internal error (a traceback only with --debug), and one JSON document on stdout whenever -o json is asked."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys

import pytest

from tests.conftest import FIXTURES
from wasplan.cli.app import app
from wasplan.cli.boundary import guarded
from wasplan.cli.lazy import load_all

load_all()
CLUSTER = str(FIXTURES / "examples" / "cluster.yaml")
TRAINING = str(FIXTURES / "examples" / "training")
BROKEN = str(FIXTURES / "manifests" / "broken-from-a-blog.yaml")


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = guarded(app, list(args))
    return code, out.getvalue(), err.getvalue()


def wasplan(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wasplan", *args], capture_output=True, text=True, **kwargs)


@pytest.fixture
def explode(monkeypatch):
    import wasplan.pipeline.validate as pipeline

    def boom(*_args, **_kwargs):
        raise KeyError("spec")

    monkeypatch.setattr(pipeline, "check_documents", boom)


def test_internal_error_is_one_line_with_exit_2(explode):
    code, out, err = cli("validate", TRAINING)
    assert code == 2 and out == ""
    assert err == "wasplan: internal error: KeyError: 'spec' (run with --debug for the traceback)\n"


def test_debug_shows_the_traceback(explode):
    code, _, err = cli("validate", TRAINING, "--debug")
    assert code == 2
    assert "Traceback (most recent call last)" in err and err.endswith(
        "wasplan: internal error: KeyError: 'spec' (run with --debug for the traceback)\n")


def test_internal_error_with_json_output_is_still_one_document(explode):
    code, out, _ = cli("validate", TRAINING, "-o", "json")
    assert code == 2
    assert json.loads(out) == {"apiVersion": "wasplan.io/v1alpha1", "kind": "Failure", "command": "validate",
                               "exitCode": 2, "message": "internal error: KeyError: 'spec'", "diagnostics": []}


@pytest.mark.parametrize("args", [
    ["plan", BROKEN, "--cluster", CLUSTER],
    ["explain", BROKEN, "--cluster", CLUSTER],
    ["plan", TRAINING, "--cluster", CLUSTER, "--scheduler-config", "/nonexistent.yaml"],
    ["migrate", TRAINING, "--to", "v9"],
    ["validate", "/nonexistent"],
    ["lint", "/nonexistent"],
])
def test_json_output_is_one_document_when_the_inputs_are_invalid(args):
    code, out, err = cli(*args, "-o", "json")
    assert code == 2, err
    doc = json.loads(out)
    assert doc["kind"] in ("Failure", "ValidationReport")
    if doc["kind"] == "Failure":
        assert doc["exitCode"] == 2 and doc["command"] == args[0]


def test_invalid_plan_inputs_are_listed_in_the_failure_document():
    _, out, _ = cli("plan", BROKEN, "--cluster", CLUSTER, "-o", "json")
    doc = json.loads(out)
    assert doc["message"] == "the inputs are invalid; nothing was planned"
    assert doc["diagnostics"] and all(d["file"] for d in doc["diagnostics"])


def test_closed_pipe_ends_quietly_with_exit_2():
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first byte: `wasplan plan ... | head -0`
    try:
        proc = subprocess.run([sys.executable, "-m", "wasplan", "plan", TRAINING, "--cluster", CLUSTER],
                              stdout=write_end, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(write_end)
    assert (proc.returncode, proc.stderr) == (2, "")


def test_full_device_is_one_line_with_exit_2():
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "wasplan", "plan", TRAINING, "--cluster", CLUSTER, "-o", "json"],
                              stdout=full, stderr=subprocess.PIPE, text=True)
    assert (proc.returncode, proc.stderr) == (2, "wasplan: error: <stdout>: No space left on device\n")


def test_closed_stdout_is_exit_2():
    proc = wasplan("validate", TRAINING, stdout=None, preexec_fn=lambda: os.close(1))
    assert (proc.returncode, proc.stderr) == (2, "wasplan: error: stdout is closed; nothing can be written\n")


def test_emit_snapshot_into_a_missing_directory_or_full_device(tmp_path):
    missing = tmp_path / "nodir" / "after.yaml"
    for target, reason in ((missing, "No such file or directory"), ("/dev/full", "No space left on device")):
        code, out, err = cli("plan", TRAINING, "--cluster", CLUSTER, "--emit-snapshot", str(target), "-o", "json")
        assert code == 2
        assert json.loads(out)["diagnostics"][0]["message"] == f"cannot write {target}: {reason}"
        assert f"error WAS011 cannot write {target}: {reason}" in err


def test_schema_export_onto_a_file(tmp_path):
    target = tmp_path / "afile"
    target.write_text("")
    code, _, err = cli("schema", "--export", str(target))
    assert code == 2
    assert err.startswith(f"wasplan: error: cannot write {target}/config.kueue.x-k8s.io/") and "Not a directory" in err


def test_plan_on_a_directory_without_manifests_exits_2_like_validate(tmp_path):
    for command in (["validate"], ["plan", "--cluster", CLUSTER]):
        code, _, err = cli(command[0], str(tmp_path), *command[1:])
        assert code == 2, err
        assert f"error WAS009 no manifests (*.yaml, *.yml, *.json) found in {tmp_path}" in err + _


def test_usage_error_keeps_exit_2_and_json():
    code, out, _ = cli("plan", TRAINING, "-o", "json")  # --cluster is required
    assert code == 2
    assert json.loads(out)["kind"] == "Failure"
