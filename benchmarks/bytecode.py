"""The benchmarks measure wasplan as an installed copy runs: from bytecode.

pip compiles a wheel's modules when it installs them; a source tree run with PYTHONDONTWRITEBYTECODE=1 (as some
shells and CI images set it) never gets a `.pyc`, so every process compiles all the modules it imports again,
about 0.4 s of CPU for a `plan` (measured 2026-12-06: `plan-jobs` 2.4 s without bytecode, 2.0 s with it).
`compile_src()` writes the bytecode of `src/` first, which Python reads even where that variable is set.
"""

from __future__ import annotations

import compileall
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def compile_src() -> None:
    compileall.compile_dir(str(SRC), quiet=1)
