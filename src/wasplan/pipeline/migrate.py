"""The migrate use case: paths in, one outcome per file out; files are written only with `in_place`.

Nothing here prints. The CLI renders the result and takes its exit code from `exit_code`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from wasplan.diagnostics import Diagnostic, Location, Severity, sort_diagnostics
from wasplan.codes import lookup
from wasplan.documents.atomic import atomic_write
from wasplan.documents.reader import STDIN, STDIN_NAME, ReadOptions, expand_paths
from wasplan.exitcodes import ExitCode
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
        if in_place and path != STDIN and outcome.changed:
            atomic_write(path, outcome.migrated.encode("utf-8"))
            result.written.append(path)
    return result


def _one(path: str, target: Target, options: Options, stdin_text: str | None,
         read_options: ReadOptions) -> FileOutcome:
    if path == STDIN:
        data = stdin_text.encode("utf-8") if stdin_text is not None else sys.stdin.buffer.read()
        return migrate_file(STDIN_NAME, data, target, options, read_options)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        outcome = FileOutcome(path, "", None, fatal=True)
        outcome.diagnostics.append(_path_diag("WAS001", f"cannot read {path}: {exc.strerror or exc}", path))
        return outcome
    return migrate_file(path, data, target, options, read_options)


def _path_diag(code: str, message: str, path: str) -> Diagnostic:
    return Diagnostic(code, lookup(code).severity, message, Location(path))


def exit_code(result: MigrateResult, check: bool) -> ExitCode:
    """2 when a file could not be read or parsed; 1 for refusals (and pending changes under --check); else 0."""
    if result.tool_error:
        return ExitCode.TOOL_ERROR
    if any(d.severity is Severity.ERROR for d in result.all_diagnostics):
        return ExitCode.FINDINGS
    if check and result.changed:
        return ExitCode.FINDINGS
    return ExitCode.OK
