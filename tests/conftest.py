"""Shared test helpers: paths to the repository's fixtures, and the `--fuzz-long` option (tests/fuzz)."""

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


def pytest_configure(config):
    if config.getoption("--fuzz-long") or os.environ.get("WASPLAN_FUZZ_LONG") == "1":
        os.environ["WASPLAN_FUZZ_LONG"] = "1"
