"""Replace a file's contents so that readers see the old file or the new one, never a half-written mix.

`migrate --in-place` may be interrupted (Ctrl-C, a full disk); a file is therefore written next to its target
(same directory, so the rename cannot cross file systems), flushed to disk, given the original permissions
(and owner, where allowed) and renamed over it. A symlink is followed, so the link stays a link and the file
it points to is the one replaced.
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
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".wasplan-tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if before is not None:
            _copy_metadata(before, tmp)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_dir(target.parent)


def _copy_metadata(before: os.stat_result, tmp: str) -> None:
    os.chmod(tmp, stat.S_IMODE(before.st_mode))
    # not ours to give away, or no chown on this platform: the mode is what matters most
    with contextlib.suppress(PermissionError, AttributeError):
        os.chown(tmp, before.st_uid, before.st_gid)


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
