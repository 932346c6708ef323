"""The benchmarks measure wasplan as an installed copy runs after its first run: from bytecode, with the code of
the methods dataclasses generate cached.

pip compiles a wheel's modules when it installs them; a source tree run with PYTHONDONTWRITEBYTECODE=1 (as some
shells and CI images set it) never gets a `.pyc`, so every process compiles all the modules it imports again,
about 0.4 s of CPU for a `plan` (measured 2026-12-06: `plan-jobs` 2.4 s without bytecode, 2.0 s with it).
The CLI's cache of dataclass methods (`wasplan.cli.codecache`) is written by a copy's first run, unless that
variable is set. `compile_src()` writes both for `src/` first; Python reads them even where the variable is set.
"""

from __future__ import annotations

import compileall
import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def compile_src() -> None:
    compileall.compile_dir(str(SRC), quiet=1)
    subprocess.run([sys.executable, "-c", "from wasplan.cli import codecache; codecache.warm()"], check=True,
                   env={**os.environ, "PYTHONPATH": str(SRC)})
