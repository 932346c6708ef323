"""Shared test helpers: paths to the repository's fixtures, and the `--fuzz-long` (tests/fuzz) and
`--oracle-long` (tests/oracle) options."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES


def pytest_addoption(parser):
    parser.addoption("--fuzz-long", action="store_true", default=False,
                     help="Run the fuzz suite (tests/fuzz) with many examples, for release checks "
                          "(also WASPLAN_FUZZ_LONG=1).")
    parser.addoption("--oracle-long", action="store_true", default=False,
                     help="Run the oracle comparisons (tests/oracle) on many generated cases (also "
                          "WASPLAN_ORACLE_LONG=1).")


def pytest_configure(config):
    if config.getoption("--fuzz-long") or os.environ.get("WASPLAN_FUZZ_LONG") == "1":
        os.environ["WASPLAN_FUZZ_LONG"] = "1"


@pytest.fixture(autouse=True)
def _no_terminal_size_for_children():
    """GNU readline, once imported in the test process (pdb, hypothesis's plugins), exports COLUMNS and LINES into
    the C environment, which `os.environ` does not show but every child process inherits; a `wasplan` run in a
    subprocess would then take its stderr for a person's terminal and wrap its findings. Children get the
    environment the test session started with."""
    for name in ("COLUMNS", "LINES"):
        if name not in os.environ:
            os.unsetenv(name)
    yield
