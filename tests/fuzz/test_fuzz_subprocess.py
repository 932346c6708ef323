"""A few damaged inputs through the real console entry point in a child process: what the in-process runs
cannot see (the interpreter's exit, its last flush, real stdin bytes) ends with a documented code too."""

from __future__ import annotations

import json
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.strategies import FIXTURES, FUZZ_PROCESS, manifest_bytes

CLUSTER = str(FIXTURES / "examples" / "cluster.yaml")


@FUZZ_PROCESS
@given(manifest_bytes(), st.sampled_from([["validate", "-"], ["lint", "-"], ["plan", "-", "--cluster", CLUSTER],
                                          ["migrate", "-"]]))
def test_commands_on_stdin_in_a_child_process(case, args):
    done = subprocess.run([sys.executable, "-m", "wasplan", *args, "-o", "json"], input=case[0], capture_output=True)
    assert done.returncode in (0, 1, 2), done.stderr
    assert b"Traceback" not in done.stderr and b"internal error" not in done.stderr, done.stderr
    json.loads(done.stdout)
