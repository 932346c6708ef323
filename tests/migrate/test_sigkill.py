"""`migrate --in-place` killed with SIGKILL leaves every file byte-identical or completely converted, and no
temporary file behind.

Kill points are exact: the child process patches `os.fsync` (called once a file's new contents are written,
before its rename) and `os.replace` (the rename itself) to SIGKILL itself on the n-th call, so every step of
every file is hit; a few timed kills of the unpatched command are added on top.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import FIXTURES

SOURCE = FIXTURES / "migrate" / "training-bundle" / "input.yaml"
CONVERTED = (FIXTURES / "migrate" / "training-bundle" / "expected.yaml").read_bytes()
ORIGINAL = SOURCE.read_bytes()
FILES = 6

CHILD = """
import os, signal, sys
calls = {"n": 0}
target, which = int(sys.argv[1]), sys.argv[2]
real = getattr(os, which)
def patched(*args, **kwargs):
    calls["n"] += 1
    if calls["n"] == target and which == "fsync":
        os.kill(os.getpid(), signal.SIGKILL)
    result = real(*args, **kwargs)
    if calls["n"] == target and which == "replace":
        os.kill(os.getpid(), signal.SIGKILL)
    return result
setattr(os, which, patched)
sys.argv = ["wasplan", "migrate", "--in-place", sys.argv[3]]
from wasplan.cli.app import main
main()
"""


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "manifests"
    root.mkdir(parents=True)
    for i in range(FILES):
        shutil.copyfile(SOURCE, root / f"f{i}.yaml")
    return root


def _check(root: Path) -> int:
    """Every file is the original or the full conversion; nothing else is in the directory. Returns how many
    files were converted."""
    names = sorted(p.name for p in root.iterdir())
    assert names == [f"f{i}.yaml" for i in range(FILES)], names
    contents = [(root / name).read_bytes() for name in names]
    assert all(c in (ORIGINAL, CONVERTED) for c in contents)
    return sum(c == CONVERTED for c in contents)


def test_the_fixture_really_changes():
    assert ORIGINAL != CONVERTED


@pytest.mark.parametrize("which", ["fsync", "replace"])
def test_sigkill_at_every_write_step(tmp_path, which):
    converted = []
    # fsync runs twice per file (its data, then its directory after the rename); replace once per file
    for n in ((1, 2, 5, 8, 11) if which == "fsync" else (1, 2, 4, 6)):
        root = _tree(tmp_path / f"{which}-{n}")
        proc = subprocess.run([sys.executable, "-c", CHILD, str(n), which, str(root)], capture_output=True)
        assert proc.returncode == -signal.SIGKILL
        converted.append(_check(root))
    assert converted == sorted(converted) and converted[0] < FILES  # later kills leave more files converted


def test_timed_sigkill(tmp_path):
    for i, delay in enumerate((0.05, 0.3, 0.6, 0.9)):
        root = _tree(tmp_path / f"t{i}")
        proc = subprocess.Popen([sys.executable, "-m", "wasplan", "migrate", "--in-place", str(root)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        _check(root)


def test_read_only_target_is_a_finding_and_stays_unchanged(tmp_path):
    root = _tree(tmp_path)
    locked = root / "f0.yaml"
    os.chmod(locked, 0o444)
    proc = subprocess.run([sys.executable, "-m", "wasplan", "migrate", "--in-place", str(root)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert f"{locked}: error WAS011 {locked} is read-only; it was not rewritten" in proc.stderr
    assert locked.read_bytes() == ORIGINAL and _check(root) == FILES - 1
