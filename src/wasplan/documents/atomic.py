"""Replace a file's contents so that readers see the old file or the new one, never a half-written mix.

`migrate --in-place` may be interrupted (Ctrl-C, a full disk); a file is therefore written next to its target
(same directory, so the rename cannot cross file systems), flushed to disk, given the original permissions
(and owner, where allowed) and renamed over it. A symlink is followed, so the link stays a link and the file
it points to is the one replaced.

A SIGKILL cannot be caught, so cleaning up in an exception handler is not enough to leave no temporary file
behind. Where Linux offers it, the new contents are therefore written to an unnamed file (`O_TMPFILE`, see
open(2)) that vanishes with the process; it gets a name only for the instant between `linkat` and the rename.
Elsewhere a named temporary file is used and removed on every catchable failure.

`write_output_file` is the other kind of write: a report the user asked for (`--emit-snapshot FILE`), which
may be a device or a pipe (`/dev/stdout`), so it is written in place, and any failure is a finding.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


def atomic_write(path: str | os.PathLike, data: bytes) -> None:
    """Write `data` to `path` all at once, keeping the file's permission bits; on failure `path` is unchanged."""
    target = Path(os.path.realpath(path))
    before = target.stat() if target.exists() else None
    tmp = None
    try:
        tmp = _write_unnamed(target, data, before)
        if tmp is None:
            tmp = _write_named(target, data, before)
        os.replace(tmp, target)
    except BaseException:
        if tmp is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        raise
    _fsync_dir(target.parent)


def _write_body(fd: int, data: bytes, before: os.stat_result | None) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.fsync(fd)
    if before is not None:
        os.fchmod(fd, stat.S_IMODE(before.st_mode))
        # not ours to give away, or no chown on this platform: the mode is what matters most
        with contextlib.suppress(PermissionError, AttributeError):
            os.fchown(fd, before.st_uid, before.st_gid)


def _write_unnamed(target: Path, data: bytes, before: os.stat_result | None) -> str | None:
    """An O_TMPFILE file, linked under a temporary name only once complete; None where unsupported."""
    flag = getattr(os, "O_TMPFILE", 0)
    if not flag:
        return None
    try:
        fd = os.open(target.parent, flag | os.O_WRONLY, 0o600)
    except OSError:
        return None  # the file system does not support it (or the platform does not)
    try:
        _write_body(fd, data, before)
        name = f".{target.name}.{os.getpid()}.wasplan-tmp"
        tmp = str(target.parent / name)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)  # left by a process with our pid that was killed in the same instant
        # a directory descriptor makes CPython call linkat(2), which can follow the /proc link (AT_SYMLINK_FOLLOW)
        dir_fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.link(f"/proc/self/fd/{fd}", name, dst_dir_fd=dir_fd, follow_symlinks=True)
        finally:
            os.close(dir_fd)
        return tmp
    except FileNotFoundError:
        return None  # no /proc: fall back to a named file
    finally:
        os.close(fd)


def _write_named(target: Path, data: bytes, before: os.stat_result | None) -> str:
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".wasplan-tmp", dir=target.parent)
    try:
        _write_body(fd, data, before)
    except BaseException:
        os.close(fd)
        os.unlink(tmp)
        raise
    os.close(fd)
    return tmp


def write_output_file(path: str, text: str):
    """Write a report file; a Diagnostic (WAS011) instead of an exception when it cannot be written."""
    from wasplan.codes import lookup
    from wasplan.diagnostics import Diagnostic, Location

    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return None
    except (OSError, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        return Diagnostic("WAS011", lookup("WAS011").severity, f"cannot write {path}: {reason}", Location(path))


def _fsync_dir(directory: Path) -> None:
    """Make the rename itself durable where the platform allows opening directories."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
