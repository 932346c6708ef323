"""The migrate use case: paths in, one outcome per file out; files are written only with `in_place`.

Nothing here prints. The CLI renders the result and takes its exit code from pipeline/exits.py `migrate_exit_code`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Sequence

from wasplan.diagnostics import Diagnostic, Location, sort_diagnostics
from wasplan.codes import lookup
from wasplan.documents.atomic import atomic_write
from wasplan.documents.reader import ReadOptions
from wasplan.documents.sources import STDIN, STDIN_NAME, expand_paths, read_file, read_stdin
from wasplan.migrate.files import FileOutcome, migrate_file
from wasplan.migrate.plan import Options
from wasplan.migrate.targets import Target


@dataclass
class MigrateResult:
    target: Target
    files: list[FileOutcome] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)  # about paths, not documents
    written: list[str] = field(default_factory=list)

    @property
    def all_diagnostics(self) -> list[Diagnostic]:
        return sort_diagnostics(self.diagnostics + [d for f in self.files for d in f.diagnostics])

    @property
    def changed(self) -> list[FileOutcome]:
        return [f for f in self.files if f.changed]

    @property
    def tool_error(self) -> bool:
        return bool(self.diagnostics) or any(f.fatal for f in self.files)


def migrate(paths: Sequence[str], target: Target, options: Options, *, in_place: bool = False,
            stdin_text: str | None = None, read_options: ReadOptions = ReadOptions()) -> MigrateResult:
    """Migrate every file of `paths`; with `in_place`, write each changed, unrefused file atomically."""
    result = MigrateResult(target)
    files, problems = expand_paths(paths, read_options.exclude)
    result.diagnostics += problems
    if not files and not problems:
        result.diagnostics.append(_path_diag("WAS009", "no manifest files (*.yaml, *.yml, *.json) found", ", ".join(paths)))
    for path in files:
        outcome = _one(path, target, options, stdin_text, read_options)
        result.files.append(outcome)
        if outcome.fatal:
            continue
        if in_place and path != STDIN and outcome.changed:
            problem = _write(path, outcome.migrated)
            if problem is None:
                result.written.append(path)
            else:
                result.diagnostics.append(problem)
    _note_empty(result)
    return result


def _note_empty(result: MigrateResult) -> None:
    """Every file read and none holding an object (an empty file, nothing piped in): WAS009, as validate says."""
    from wasplan.pipeline.validate import blank, empty_inputs

    texts = {f.path: f.original for f in result.files}
    if texts and not result.diagnostics and not any(f.fatal for f in result.files) and \
            all(blank(t) for t in texts.values()):
        result.diagnostics.append(_path_diag("WAS009", empty_inputs(texts), next(iter(texts))))


def _write(path: str, text: str) -> Diagnostic | None:
    """Rewrite one file atomically; a read-only file (no write permission bit, or none for us) is left alone, as
    a finding, like any failed write: replacing it by rename would succeed and silently defeat the protection."""
    if not os.stat(path).st_mode & 0o222 or not os.access(path, os.W_OK):
        return _path_diag("WAS011", f"{path} is read-only; it was not rewritten", path)
    try:
        atomic_write(path, text.encode("utf-8"))
    except OSError as exc:
        return _path_diag("WAS011", f"cannot rewrite {path}: {exc.strerror or exc}; it is unchanged", path)
    return None


def _one(path: str, target: Target, options: Options, stdin_text: str | None,
         read_options: ReadOptions) -> FileOutcome:
    name = STDIN_NAME if path == STDIN else path
    data, problem = read_stdin(stdin_text) if path == STDIN else read_file(path)
    if problem is not None:
        outcome = FileOutcome(name, "", None, fatal=True)
        outcome.diagnostics.append(problem)
        return outcome
    return migrate_file(name, data, target, options, read_options)


def _path_diag(code: str, message: str, path: str) -> Diagnostic:
    return Diagnostic(code, lookup(code).severity, message, Location(path))
