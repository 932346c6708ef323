"""Start-up cost of the CLI: CPU seconds (user + system) per process for `--version`, `--help`, `validate -h`
and `validate` of one small file, the median of N runs each. The issue's targets: --version and --help <= 0.15 s,
one-file validate <= 0.3 s.

Usage: python benchmarks/startup.py [--runs 10]
Prints figures; asserts nothing. CPU time, not wall time, because the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SMALL = ROOT / "fixtures" / "manifests" / "training-1.37.yaml"
CASES = {
    "--version": ["--version"],
    "--help": ["--help"],
    "validate -h": ["validate", "-h"],
    "validate (1 file)": ["validate", str(SMALL)],
}


def cpu_seconds(args: list[str]) -> float:
    """CPU time of one `python -m wasplan ARGS` process (its children's rusage before and after)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "wasplan", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False, env={**os.environ, "COLUMNS": "80"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    print(f"CPU seconds per process, median of {runs} runs (min-max):")
    for label, args in CASES.items():
        times = sorted(cpu_seconds(args) for _ in range(runs))
        print(f"  wasplan {label:<18} {statistics.median(times):.3f}  ({times[0]:.3f}-{times[-1]:.3f})")


if __name__ == "__main__":
    main()
