"""The CLI's cache of the code dataclasses generate (wasplan.cli.codecache): classes made through it are the
classes dataclasses makes, a second process compiles nothing, and a damaged, foreign or unwritable cache only
means compiling as before."""

from __future__ import annotations

import dataclasses
import inspect
import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from wasplan.cli import codecache


def _classes():
    """One frozen slotted keyword-only class and one mutable class with a factory default, made afresh."""

    @dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
    class Claim:
        name: str
        count: int = 1
        labels: tuple[str, ...] = ()
        note: str = dataclasses.field(default="", compare=False, repr=False)

    @dataclasses.dataclass
    class Tally:
        seen: list[int] = dataclasses.field(default_factory=list)
        total: int = 0

    return Claim, Tally


def _behaviour(claim_type, tally_type) -> list:
    a, b = claim_type(name="gpu", count=2), claim_type(name="gpu", count=2, note="other")
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.count = 3
    tally = tally_type()
    tally.seen.append(1)
    return [a == b, hash(a) == hash(b), repr(a), str(inspect.signature(claim_type)),
            claim_type.__init__.__annotations__, repr(tally), tally_type() == tally_type(),
            tally_type().seen is not tally.seen, [f.name for f in dataclasses.fields(claim_type)],
            dataclasses.replace(a, count=5).count]


def test_classes_made_through_the_cache_behave_as_dataclasses_makes_them(monkeypatch):
    expected = _behaviour(*_classes())
    monkeypatch.setattr(codecache, "_codes", {})
    monkeypatch.setattr(codecache, "_new", {})
    monkeypatch.setattr(dataclasses, "exec", codecache._exec, raising=False)
    compiled = codecache.compiled
    assert _behaviour(*_classes()) == expected  # compiled through the hook
    assert codecache.compiled > compiled and codecache._new
    again = codecache.compiled
    assert _behaviour(*_classes()) == expected  # the same texts, now taken from the cache
    assert codecache.compiled == again


_PROBE = """
import contextlib, io, json, sys
sys.argv = ["wasplan", *json.loads(sys.argv[1])]
from wasplan.cli import app, codecache
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        app.main()
    except SystemExit as exc:
        code = exc.code
print(json.dumps({"code": code, "compiled": codecache.compiled, "cached": len(codecache._codes),
                  "out": out.getvalue()}))
"""
_PLAN = ["plan", str(FIXTURES / "examples" / "training"), "--cluster", str(FIXTURES / "examples" / "cluster.yaml"),
         "-o", "json"]


def _env(prefix: Path, write: bool = True) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(prefix)  # the cache goes where bytecode goes
    if not write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _run(prefix: Path, write: bool = True) -> dict:
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(_PLAN)], capture_output=True, text=True,
                          check=True, env=_env(prefix, write))
    return json.loads(done.stdout)


def _cache_file(prefix: Path) -> Path:
    done = subprocess.run([sys.executable, "-c", "from wasplan.cli import codecache; print(codecache.cache_file())"],
                          capture_output=True, text=True, check=True, env=_env(prefix))
    path = Path(done.stdout.strip())
    assert path.is_relative_to(prefix) and path.name == f"dataclass_methods.{sys.implementation.cache_tag}.marshal"
    return path


def test_a_second_run_compiles_no_generated_method_and_plans_the_same(tmp_path):
    first = _run(tmp_path)
    assert first["code"] == 0 and first["compiled"] > 100 and _cache_file(tmp_path).is_file()
    second = _run(tmp_path)
    assert second["compiled"] == 0 and second["cached"] == first["cached"]
    assert second["out"] == first["out"]


def test_a_damaged_or_foreign_cache_is_compiled_afresh_and_replaced(tmp_path):
    reference = _run(tmp_path / "clean")
    for n, content in enumerate((b"not marshal at all", marshal.dumps((b"magic", {})), marshal.dumps("a string"))):
        prefix = tmp_path / str(n)
        path = _cache_file(prefix)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        damaged = _run(prefix)
        assert damaged["code"] == 0 and damaged["out"] == reference["out"] and damaged["compiled"] > 100
        assert _run(prefix)["compiled"] == 0  # written again, whole


def test_a_damaged_entry_is_compiled_again(tmp_path):
    _run(tmp_path)
    path = _cache_file(tmp_path)
    stamp, codes = marshal.loads(path.read_bytes())
    key = next(iter(codes))
    codes[key] = b"\x00 not code"
    path.write_bytes(marshal.dumps((stamp, codes)))
    assert _run(tmp_path)["compiled"] == 1


def test_no_cache_is_written_where_python_writes_no_bytecode(tmp_path):
    assert _run(tmp_path, write=False)["compiled"] > 100
    assert not _cache_file(tmp_path).exists()
    assert _run(tmp_path, write=False)["compiled"] > 100


def test_a_cache_that_cannot_be_written_only_means_compiling(tmp_path):
    _cache_file(tmp_path).mkdir(parents=True)  # a directory where the file would go: the rename fails
    assert _run(tmp_path)["code"] == 0
    assert _run(tmp_path)["compiled"] > 100
