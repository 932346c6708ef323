"""Every command, fed damaged copies of the real fixtures, ends with a documented exit code and never reaches the
boundary's "internal error" line; `-o json` always leaves exactly one JSON document on stdout.

The normal suite runs a small fixed sample of each strategy (derandomized, so a failure reproduces); run
`pytest tests/fuzz --fuzz-long` (or WASPLAN_FUZZ_LONG=1) before a release for hundreds of random examples.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.strategies import (
    CLUSTERS, DRA_MANIFESTS, FIXTURES, FUZZ, SCHEDULER_CONFIGS, cluster_templates, damaged_selectors, manifest_bytes,
)
from wasplan.cli.app import app
from wasplan.cli.boundary import guarded
from wasplan.cli.lazy import load_all

load_all()
# numpy's divide-by-zero or overflow warnings are bugs too: as errors they reach the boundary and fail the check
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")

CLUSTER = str(FIXTURES / "examples" / "cluster.yaml")
TRAINING = str(FIXTURES / "examples" / "training")


def run_cli(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = guarded(app, list(args))
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def check(code: int, out: str, err: str, json_out: bool) -> None:
    assert code in (0, 1, 2), (code, err)
    assert "internal error" not in err, err
    assert "Traceback" not in err, err
    if json_out:
        json.loads(out)  # exactly one document


@contextlib.contextmanager
def written(data: bytes, suffix: str):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"input{suffix}"
        path.write_bytes(data)
        yield path


@FUZZ
@given(manifest_bytes(), st.sampled_from(["validate", "lint"]), st.sampled_from(["text", "json", "sarif"]))
def test_validate_and_lint(case, command, fmt):
    data, suffix = case
    with written(data, suffix) as path:
        code, out, err = run_cli(command, str(path), "-o", fmt)
    check(code, out, err, fmt in ("json", "sarif"))


@FUZZ
@given(st.one_of(manifest_bytes(DRA_MANIFESTS), damaged_selectors()), st.sampled_from(["1.36", "1.37"]),
       st.sampled_from(["text", "json"]))
def test_validate_dra_objects(case, release, fmt):
    """Malformed DeviceClasses, claims, templates and slices, and damaged CEL selectors in every scalar style."""
    data, suffix = case
    with written(data, suffix) as path:
        code, out, err = run_cli("validate", str(path), "--k8s-version", release, "-o", fmt)
    check(code, out, err, fmt == "json")


@FUZZ
@given(manifest_bytes(), st.sampled_from(["text", "json"]))
def test_validate_stdin(case, fmt):
    code, out, err = run_cli("validate", "-", "-o", fmt, stdin=case[0])
    check(code, out, err, fmt == "json")


@FUZZ
@given(manifest_bytes(), st.sampled_from([[], ["--check"], ["--diff"], ["-o", "json"], ["--to-k8s", "1.36"]]))
def test_migrate(case, options):
    data, suffix = case
    with written(data, suffix) as path:
        code, out, err = run_cli("migrate", str(path), *options)
    check(code, out, err, "json" in options)


@FUZZ
@given(manifest_bytes())
def test_migrate_in_place_leaves_original_or_a_readable_result(case):
    data, suffix = case
    with written(data, suffix) as path:
        code, out, err = run_cli("migrate", str(path), "--in-place")
        check(code, out, err, False)
        after = path.read_bytes()
        assert sorted(os.listdir(path.parent)) == [path.name]  # no temporary file left behind
        if after != data:
            assert code != 2
            recheck = run_cli("validate", str(path))
            assert recheck[0] in (0, 1) and "WAS004" not in recheck[2]


@FUZZ
@given(manifest_bytes(), st.sampled_from(["text", "json", "yaml"]))
def test_plan_with_bad_manifests(case, fmt):
    data, suffix = case
    with written(data, suffix) as path:
        code, out, err = run_cli("plan", str(path), "--cluster", CLUSTER, "-o", fmt)
    check(code, out, err, fmt == "json")


@FUZZ
@given(manifest_bytes(CLUSTERS), st.sampled_from(["text", "json"]))
def test_plan_with_bad_snapshots(case, fmt):
    data, suffix = case
    with written(data, suffix) as path:
        code, out, err = run_cli("plan", TRAINING, "--cluster", str(path), "-o", fmt)
    check(code, out, err, fmt == "json")


@FUZZ
@given(cluster_templates(), st.sampled_from(["plan", "lint"]))
def test_plan_with_hostile_cluster_templates(case, command):
    """Template widths and values beyond any node count or name length are findings, never a crash or a string
    wider than memory."""
    data, suffix = case
    with written(data, suffix) as path:
        code, out, err = run_cli(command, TRAINING, "--cluster", str(path), "-o", "json")
    check(code, out, err, True)


@FUZZ
@given(manifest_bytes(CLUSTERS), st.sampled_from(["lint", "explain"]))
def test_lint_and_explain_with_bad_snapshots(case, command):
    data, suffix = case
    with written(data, suffix) as path:
        code, out, err = run_cli(command, TRAINING, "--cluster", str(path), "-o", "json")
    check(code, out, err, True)


@FUZZ
@given(manifest_bytes(SCHEDULER_CONFIGS))
def test_plan_with_bad_scheduler_configs(case):
    data, suffix = case
    with written(data, suffix) as path:
        code, out, err = run_cli("plan", TRAINING, "--cluster", CLUSTER, "--scheduler-config", str(path), "-o", "json")
    check(code, out, err, True)


@FUZZ
@given(manifest_bytes(), st.sampled_from(["text", "json"]))
def test_explain(case, fmt):
    data, suffix = case
    with written(data, suffix) as path:
        code, out, err = run_cli("explain", str(path), "--cluster", CLUSTER, "-o", fmt)
    check(code, out, err, fmt == "json")


@FUZZ
@given(st.text(max_size=300), st.one_of(st.none(), st.text(max_size=300)))
def test_schema(kind, api_version):
    args = ["schema", "--", kind] if api_version is None else ["schema", "--api-version", api_version, "--", kind]
    code, out, err = run_cli(*args)
    check(code, out, err, False)
