"""The committed schemas are exactly what tools/gen_schemas.py produces from the installed upstream package."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_regeneration_is_byte_identical(tmp_path):
    pytest.importorskip("kubernetes_validate")
    subprocess.run([sys.executable, str(ROOT / "tools" / "gen_schemas.py"), "--out", str(tmp_path)],
                   check=True, capture_output=True)
    generated = {p.relative_to(tmp_path).as_posix(): p.read_bytes() for p in tmp_path.rglob("*.json")}
    committed = {p.relative_to(ROOT / "schemas").as_posix(): p.read_bytes()
                 for p in (ROOT / "schemas" / "scheduling.k8s.io").rglob("*.json")}
    assert generated.keys() == committed.keys()
    stale = [name for name in generated if generated[name] != committed[name]]
    assert not stale, f"regenerate with `python tools/gen_schemas.py`: {stale}"
