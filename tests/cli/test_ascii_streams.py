"""Output to a stream that cannot encode a name (`PYTHONIOENCODING=ascii`, a C-locale CI log) escapes it.

The seeded hostile-input run ended one case in "internal error: UnicodeEncodeError": a file whose name and
contents carry `é`, printed by `validate` to an ASCII stdout. Every command runs here as a real process under
`LC_ALL=C` and `PYTHONIOENCODING=ascii`, in text and JSON, on such a file: each ends with its documented exit code,
names the file and the offending name (escaped, or as a JSON `\\u00e9`), and never reports an internal error.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import FIXTURES

CLUSTER = str(FIXTURES / "examples" / "cluster.yaml")
ASCII_ENV = {"LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "ascii"}

# command, extra arguments, exit code (1: findings; 2: the invalid name stops plan and explain)
COMMANDS = [
    ("validate", [], 1),
    ("lint", [], 1),
    ("plan", ["--cluster", CLUSTER], 2),
    ("explain", ["--cluster", CLUSTER], 2),
    ("migrate", ["--to-k8s", "1.36"], 1),
]


@pytest.fixture(scope="module")
def accented(tmp_path_factory):
    """The training Workload from the examples, in a file named `trainé.yaml`, with `é` in the Workload's name."""
    folder = tmp_path_factory.mktemp("ascii")
    text = (FIXTURES / "examples" / "training" / "finetune.yaml").read_text(encoding="utf-8")
    target = folder / "train\u00e9.yaml"
    target.write_text(text.replace("name: finetune-13b\n", "name: finetune-13b\u00e9\n", 1), encoding="utf-8")
    return target


def run(*args: str, cwd) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_CTYPE", "COLUMNS")} | ASCII_ENV
    return subprocess.run([sys.executable, "-m", "wasplan", *args], capture_output=True, cwd=cwd, env=env)


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize(("command", "extra", "code"), COMMANDS, ids=[c[0] for c in COMMANDS])
def test_every_command_escapes_a_name_an_ascii_stream_cannot_hold(accented, command, extra, code, fmt):
    proc = run(command, accented.name, *extra, "-o", fmt, cwd=accented.parent)
    out, err = proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")
    assert "internal error" not in err and "UnicodeEncodeError" not in out + err
    assert proc.returncode == code, err
    shown = out + err
    if fmt == "json":
        document = json.loads(out)
        assert "finetune-13b\u00e9" in json.dumps(document, ensure_ascii=False)
    # the name and the file are there, escaped where the stream is ASCII (click's echo writes UTF-8 instead)
    assert "finetune-13b\\xe9" in shown or "finetune-13b\u00e9" in shown or "finetune-13b\\u00e9" in shown
    assert "train\\xe9.yaml" in shown or "train\u00e9.yaml" in shown or "train\\u00e9.yaml" in shown


def test_validate_text_escapes_rather_than_crashing(accented):
    """The exact case the hostile-input run found: the finding's line names file and value, escaped."""
    proc = run("validate", accented.name, cwd=accented.parent)
    out = proc.stdout.decode("ascii")  # nothing but ASCII reaches the stream
    assert proc.returncode == 1
    assert out.startswith("train\\xe9.yaml:9:3: error WAS107 \"metadata.name\" is 'finetune-13b\\xe9'")


def test_config_shows_a_setting_an_ascii_stream_cannot_hold(tmp_path):
    shutil.copy(FIXTURES / "examples" / "cluster.yaml", tmp_path / "\u00e9quipe.yaml")
    (tmp_path / ".wasplan.yaml").write_text("cluster: [\u00e9quipe.yaml]\n", encoding="utf-8")
    for fmt in ("text", "json"):
        proc = run("config", "-o", fmt, cwd=tmp_path)
        out = proc.stdout.decode("utf-8")
        assert proc.returncode == 0, proc.stderr
        assert "\u00e9quipe" in out or "\\xe9quipe" in out or "\\u00e9quipe" in out
