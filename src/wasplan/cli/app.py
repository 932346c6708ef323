"""The `wasplan` command group and the entry point.

Start-up time is a feature here (pre-commit hooks, editors' save loops): `wasplan --version` is answered before
Typer is imported, and a command's module (with its pipeline: the engine, numpy, ruamel.yaml, ...) is imported
only when that command runs. `--help` and shell completion list the commands from the table below without
importing any of them. How a command is loaded lives in `cli/lazy.py`; adding a command is one row here.
"""

from __future__ import annotations

import os
import sys

from wasplan import __version__
from wasplan.cli import collector

# name -> (module under wasplan.cli, one-line summary), in the order `wasplan --help` lists them. The summary is
# what `--help` and completion show without importing the module; tests/cli/test_help.py checks it matches the
# first line of the command's docstring.
COMMANDS: dict[str, tuple[str, str]] = {
    "validate": ("validate_cmd", "Check every manifest against the chosen release: served versions, schemas, "
                                 "server rules, feature gates."),
    "lint": ("validate_cmd", "Validate, then check the objects against each other: references, quorum, "
                             "schedulers, priorities, claims."),
    "plan": ("plan_cmd", "Dry-run kube-scheduler offline: where every pod would go, which groups stay pending "
                         "and why."),
    "explain": ("explain_cmd", "Why a gang won't fit, and the smallest change (verified by re-planning) that "
                               "makes it fit."),
    "migrate": ("migrate_cmd", "Rewrite manifests to the scheduling.k8s.io versions a release serves, keeping "
                               "comments and layout."),
    "schema": ("schema_cmd", "Print or export wasplan's JSON Schemas (draft 2020-12)."),
    "rules": ("rules_cmd", "List every diagnostic code, or explain one: meaning, a failing and a passing example, "
                           "how to fix it."),
    "config": ("config_cmd", "Show the effective settings (config file over defaults) and feature gates, and "
                             "where each one comes from."),
}

_VERSION_FLAGS = ("--version", "-V")


def _app():
    from wasplan.cli.lazy import build_app

    return build_app()


def __getattr__(name: str):
    """`wasplan.cli.app.app` is built on first use, so importing this module costs nothing."""
    if name == "app":
        globals()["app"] = value = _app()
        return value
    raise AttributeError(name)


def main() -> None:
    """The console script: every command runs inside the one exception boundary (`cli/boundary.py`), in a
    process tuned for one short run: the cyclic collector paused and skipped at exit (`cli/collector.py`), the
    code dataclasses generate taken from a cache (`cli/codecache.py`), no BLAS thread pool."""
    collector.pause()
    args = sys.argv[1:]
    if len(args) == 1 and args[0] in _VERSION_FLAGS:  # before Typer and the boundary are even imported
        sys.stdout.write(f"wasplan {__version__}\n")
        return
    from wasplan.cli import codecache  # after --version, which it would slow down (it needs dataclasses' imports)

    codecache.install()
    # numpy's OpenBLAS starts a thread per core when numpy is imported, ~0.1 s of CPU in every process (measured
    # 2026-12-06: `plan` 1.24 s -> 1.09 s CPU, wall the same); wasplan does no linear algebra. A user's own
    # setting is kept.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from wasplan.cli.app import app as application
    from wasplan.cli.boundary import guarded

    code = guarded(application, args)
    codecache.save()
    collector.at_exit()
    sys.exit(code)
