"""Which paths a directory walk leaves out: hidden entries (.git, .github, .venv), node_modules, and the
user's `--exclude` patterns.

Patterns are gitignore-style (pathspec's GitIgnoreSpec implements gitignore(5), the matcher git documents),
matched against the path relative to the directory given on the command line; a directory is tested with a
trailing `/` so that `charts/` prunes the whole folder. A file named on the command line is matched as given,
so a pre-commit hook that passes every changed file still honours the configured excludes.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

NEVER_WALKED = frozenset({"node_modules"})  # besides hidden entries


class Excluder:
    def __init__(self, patterns: Sequence[str] = ()):
        self._spec = None
        if patterns:
            import pathspec  # only runs that exclude something pay for the import

            self._spec = pathspec.GitIgnoreSpec.from_lines(patterns)

    def _match(self, rel: str) -> bool:
        return self._spec is not None and self._spec.match_file(rel)

    def walk_dir(self, rel_parent: str, name: str) -> bool:
        """Whether a walk enters directory `name` below `rel_parent` ("" or "a/b/")."""
        return not name.startswith(".") and name not in NEVER_WALKED and not self._match(rel_parent + name + "/")

    def walk_file(self, rel_parent: str, name: str, suffixes: tuple[str, ...]) -> bool:
        return name.endswith(suffixes) and not name.startswith(".") and not self._match(rel_parent + name)

    def named_file(self, raw: str) -> bool:
        """Whether a file named on the command line is read."""
        return not self._match(Path(os.path.normpath(raw)).as_posix())


def relative_parent(top: str, here: str) -> str:
    """`here` relative to the walk's `top`, as a prefix for names: "" at the top, else "a/b/"."""
    rel = os.path.relpath(here, top)
    return "" if rel == "." else rel.replace(os.sep, "/") + "/"
