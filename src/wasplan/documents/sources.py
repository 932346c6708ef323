"""Where input bytes come from: PATHS expanded to files, each read only if it is a regular file, and stdin.

Reading must never hang or blow up memory on what a path turns out to be: a FIFO blocks `read()` forever, a
device such as /dev/zero never ends, a socket cannot be opened. Named paths are therefore checked with
`stat` first, and anything but a regular file is a finding (WAS016); a directory walk passes over such entries
with a note (WAS017) and never follows a link to one. A regular file is read whatever its size (a dump of a
large cluster is hundreds of megabytes; what could blow up while parsing is bounded in `limits`), in chunks so
that a progress callback can show the bytes done, and a closed stdin (`<&-`) is a finding, not an
AttributeError.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Callable, Sequence

from wasplan.codes import lookup
from wasplan.diagnostics import Diagnostic, Location
from wasplan.documents.exclude import Excluder, relative_parent

MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")
STDIN = "-"
STDIN_NAME = "<stdin>"


def path_diag(code: str, message: str, file: str, hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, lookup(code).severity, message, Location(file), hint)


def _kind_of(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _special(raw: str, in_walk: bool) -> Diagnostic | None:
    """None for a regular file or directory; else why the path is not read."""
    try:
        mode = os.stat(raw).st_mode
    except OSError as exc:
        if os.path.islink(raw):
            what = "a symlink loop" if exc.errno == 40 else "a dangling symlink"
            return path_diag("WAS017" if in_walk else "WAS016", f"{raw} is {what}; not read", raw)
        if in_walk:
            return path_diag("WAS017", f"{raw} cannot be examined ({exc.strerror}); not read", raw)
        return path_diag("WAS001", f"no such file or directory: {raw}" if exc.errno == 2
                         else f"cannot read {raw}: {exc.strerror or exc}", raw)
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    hint = None if in_walk else "pass - to read stdin; only regular files are read"
    return path_diag("WAS017" if in_walk else "WAS016", f"{raw} is {_kind_of(mode)}; not read", raw, hint)


def _walk(top: str, files: list[str], diags: list[Diagnostic], excluder: Excluder) -> None:
    """Manifest files below `top`, sorted (documents/exclude.py decides what is left out); entries that are not
    regular files are noted, never read."""
    found = []

    def unreadable(exc: OSError) -> None:
        diags.append(path_diag("WAS001", f"cannot read directory {exc.filename}: {exc.strerror or exc}",
                               str(exc.filename)))

    for here, dirnames, filenames in os.walk(top, onerror=unreadable):
        rel = relative_parent(str(top), here)
        dirnames[:] = sorted(d for d in dirnames if excluder.walk_dir(rel, d))
        for name in sorted(filenames):  # findings about entries come out in a stable order too
            if not excluder.walk_file(rel, name, MANIFEST_SUFFIXES):
                continue
            path = os.path.normpath(os.path.join(here, name))
            problem = _special(path, in_walk=True)
            if problem is not None:
                diags.append(problem)
            elif not os.path.isdir(path):  # a link to a directory named like a manifest is not followed
                found.append(path)
    files.extend(sorted(found))


def expand_paths(paths: Sequence[str], exclude: Sequence[str] = ()) -> tuple[list[str], list[Diagnostic]]:
    """Files as given, directories recursively (sorted; see documents/exclude.py for what is left out), `-`
    for stdin."""
    excluder = Excluder(exclude)
    files: list[str] = []
    diags: list[Diagnostic] = []
    for raw in paths:
        if raw == STDIN:
            files.append(STDIN)
            continue
        problem = _special(raw, in_walk=False)
        if problem is not None:
            diags.append(problem)
        elif Path(raw).is_dir():
            _walk(raw, files, diags, excluder)
        elif excluder.named_file(raw):
            files.append(raw)
    return files, diags


CHUNK = 16 * 1024 * 1024
# bytes(path, done, total): how much of a file has been read so far
ByteProgress = Callable[[str, int, int], None]


def _chunks(handle, path: str, size: int, progress: ByteProgress | None) -> bytes:
    """The whole file, read in chunks when someone watches (a file may grow while it is read: read to its end)."""
    if progress is None or size <= CHUNK:
        return handle.read()
    parts, done = [], 0
    while chunk := handle.read(CHUNK):
        parts.append(chunk)
        done += len(chunk)
        progress(path, done, max(size, done))
    return b"".join(parts)


def read_file(path: str, progress: ByteProgress | None = None) -> tuple[bytes | None, Diagnostic | None]:
    """The bytes of a regular file (checked again on the open descriptor), or why there are none; `progress`
    hears of each chunk of a large file."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        return None, path_diag("WAS001", f"cannot read {path}: {exc.strerror or exc}", path)
    with os.fdopen(fd, "rb") as handle:
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                return None, path_diag("WAS016", f"{path} is {_kind_of(info.st_mode)}; not read", path)
            data = _chunks(handle, path, info.st_size, progress)
        except OSError as exc:
            return None, path_diag("WAS001", f"cannot read {path}: {exc.strerror or exc}", path)
    return data, None


def read_stdin(stdin_text: str | None = None) -> tuple[bytes | None, Diagnostic | None]:
    """Standard input as bytes; a closed or unreadable stdin is a finding."""
    if stdin_text is not None:
        return stdin_text.encode("utf-8", "surrogatepass"), None
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        return None, path_diag("WAS001", "cannot read stdin: it is closed", STDIN_NAME)
    try:
        data = stream.read()
    except (OSError, ValueError) as exc:
        return None, path_diag("WAS001", f"cannot read stdin: {getattr(exc, 'strerror', None) or exc}", STDIN_NAME)
    return data, None
