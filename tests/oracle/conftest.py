"""The upstream oracle (oracle/, docs/oracle.md) for the tests in tests/oracle.

The binary is `$WASPLAN_ORACLE` when set, else `<repo>/oracle/bin/oracle` (built by `oracle/build`, which needs
Go). Without it every oracle test is skipped, and the session ends with one line saying why, also under `-q`:
nothing is skipped silently. `--oracle-long` (or WASPLAN_ORACLE_LONG=1) asks for the long runs; `oracle_long`
tells a test which one it is in.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import pytest

ROOT = Path(__file__).resolve().parents[2]
# the differential tests' own modules (gen/, compare.py, evaluate.py) import each other by their plain names
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
DEFAULT_BINARY = ROOT / "oracle" / "bin" / "oracle"
TIMEOUT_S = 300

_skipped: list[str] = []


def oracle_path() -> Path:
    env = os.environ.get("WASPLAN_ORACLE")
    return Path(env) if env else DEFAULT_BINARY


def missing_reason() -> str | None:
    """Why the oracle cannot run here, or None."""
    path = oracle_path()
    if not path.is_file():
        if os.environ.get("WASPLAN_ORACLE"):
            return f"no oracle binary at {path} (named by WASPLAN_ORACLE)"
        return f"no oracle binary at {path}; build it with oracle/build (needs Go)"
    if not os.access(path, os.X_OK):
        return f"{path} is not executable"
    return None


@dataclass(frozen=True)
class OracleRun:
    returncode: int
    stdout: str
    stderr: str

    @property
    def json(self) -> dict:
        return json.loads(self.stdout)


def run_oracle(binary: Path, args: Sequence[str], timeout: float = TIMEOUT_S) -> OracleRun:
    """Run the oracle with `args` (e.g. ["plan", "m.yaml", "--cluster", "c.yaml", "--k8s-version", "1.37",
    "-o", "json"]) and return its exit code and output."""
    proc = subprocess.run([str(binary), *map(str, args)], capture_output=True, text=True, timeout=timeout)
    return OracleRun(proc.returncode, proc.stdout, proc.stderr)


def oracle_plan(binary: Path, paths: Sequence[str | Path], clusters: Sequence[str | Path], k8s_version: str,
                *, gates: str | None = None, arrival: str = "sequential",
                scheduler_config: str | Path | None = None) -> OracleRun:
    """`oracle plan PATHS --cluster ... -o json`, the arguments `wasplan plan` takes."""
    args: list[str] = ["plan", *map(str, paths)]
    for c in clusters:
        args += ["--cluster", str(c)]
    args += ["--k8s-version", k8s_version, "--arrival", arrival, "-o", "json"]
    if gates:
        args += ["--feature-gates", gates]
    if scheduler_config:
        args += ["--scheduler-config", str(scheduler_config)]
    return run_oracle(binary, args)


@pytest.fixture(scope="session")
def oracle_bin() -> Path:
    """The oracle binary; the test is skipped (and the session says so once) when there is none."""
    reason = missing_reason()
    if reason:
        if not _skipped:
            _skipped.append(reason)
        pytest.skip(f"oracle tests skipped: {reason}")
    return oracle_path()


# The releases the API-server suites (validate, convert, default, expand) compare: every release the oracle can
# be built for. 1.38 needs the go1.27.3 toolchain, so its binary may be missing where the others are built.
API_RELEASES = ("1.36", "1.37", "1.38")


def require_release(binary: Path, release: str) -> None:
    """Skip, saying why, when the built oracle has no binary for `release` (the dispatcher runs `oracle-<release>`
    beside it; a single-release binary named by WASPLAN_ORACLE serves only its own release)."""
    if binary.name.startswith("oracle-"):
        if binary.name != f"oracle-{release}":
            pytest.skip(f"WASPLAN_ORACLE={binary} is the oracle of another release than {release}")
        return
    if not (binary.parent / f"oracle-{release}").is_file():
        pytest.skip(f"no Kubernetes {release} oracle at {binary.parent / f'oracle-{release}'}")


@pytest.fixture(scope="session")
def oracle_long(request) -> bool:
    return bool(request.config.getoption("--oracle-long") or os.environ.get("WASPLAN_ORACLE_LONG") == "1")


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if _skipped:
        terminalreporter.write_line(f"oracle tests skipped: {_skipped[0]}", yellow=True)


@pytest.fixture(autouse=True)
def _release_built(request) -> None:
    """A test parametrized over a release (`release` or `version`) whose binary the dispatcher lacks is skipped,
    saying so: oracle/build skips 1.38 when its go1.27.3 toolchain cannot be fetched, and the suites ask for
    every release of gen.RELEASES."""
    params = getattr(getattr(request.node, "callspec", None), "params", {})
    release = params.get("release") or params.get("version")
    path = oracle_path()
    if not isinstance(release, str) or not path.is_file() or path.name != "oracle":
        return
    if not (path.parent / f"oracle-{release}").is_file():
        pytest.skip(f"no oracle for Kubernetes {release} beside {path} (oracle/build {release})")
