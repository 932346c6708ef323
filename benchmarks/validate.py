"""Validation throughput: wasplan validate against kubernetes-validate --strict and a bare libyaml parse.

Usage: python benchmarks/validate.py [--documents 2000] [--skip-upstream]
Prints figures; asserts nothing. kubernetes-validate must be installed (it is in the `test` extra).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import write_corpus  # noqa: E402

from wasplan.api.releases import default_gates, get_release  # noqa: E402
from wasplan.pipeline.validate import validate_paths  # noqa: E402


def _timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def bare_parse(files: list[Path]) -> float:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    seconds, _ = _timed(lambda: [list(yaml.load_all(f.read_text(), Loader=loader)) for f in files])
    return seconds


def upstream(files: list[Path], release: str) -> float | None:
    exe = shutil.which("kubernetes-validate") or str(Path(sys.executable).parent / "kubernetes-validate")
    if not Path(exe).exists():
        return None
    cmd = [exe, "--strict", "--quiet", "-k", f"{release}.0", *map(str, files)]
    seconds, _ = _timed(lambda: subprocess.run(cmd, capture_output=True, check=False))
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--documents", type=int, default=2000)
    parser.add_argument("--release", default="1.37")
    parser.add_argument("--skip-upstream", action="store_true")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="wasplan-bench-"))
    n = write_corpus(root, args.documents, args.release)
    files = sorted(root.glob("*.yaml"))
    gates = default_gates(get_release(args.release))
    validate_paths([str(files[0])], gates)  # warm the schema caches, as a long CLI run would be
    ours, report = _timed(lambda: validate_paths([str(root)], gates))
    cli, _ = _timed(lambda: subprocess.run([sys.executable, "-m", "wasplan", "validate", str(root)],
                                           capture_output=True, check=False))
    bare = bare_parse(files)
    theirs = None if args.skip_upstream else upstream(files, args.release)
    print(f"corpus: {n} documents in {len(files)} files (Kubernetes {args.release}); "
          f"{report.counts()['invalid']} invalid")
    print(f"{'bare libyaml parse':32s} {bare:8.3f} s  {n / bare:10.0f} docs/s")
    print(f"{'wasplan validate (library)':32s} {ours:8.3f} s  {n / ours:10.0f} docs/s  {ours / bare:5.2f}x bare parse")
    print(f"{'wasplan validate (CLI process)':32s} {cli:8.3f} s  {n / cli:10.0f} docs/s")
    if theirs is not None:
        print(f"{'kubernetes-validate --strict':32s} {theirs:8.3f} s  {n / theirs:10.0f} docs/s  "
              f"wasplan is {theirs / cli:.0f}x faster (CLI to CLI)")
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
