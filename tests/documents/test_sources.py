"""What a path turns out to be: only regular files are read; anything else is a finding, never a hang."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from wasplan.documents import read_paths
from wasplan.documents.sources import expand_paths

POD = "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: c, image: i}]}\n"


def found(result):
    return [(d.code, d.message) for d in result.diagnostics]


def test_named_fifo_is_not_read(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert found(read_paths([str(fifo)])) == [("WAS016", f"{fifo} is a FIFO (named pipe); not read")]


def test_named_device_socket_and_links(tmp_path):
    sock_path = tmp_path / "s.yaml"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sock_path))
    dangling = tmp_path / "dangling.yaml"
    dangling.symlink_to(tmp_path / "nowhere")
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    try:
        result = read_paths(["/dev/zero", str(sock_path), str(dangling), str(loop)])
    finally:
        server.close()
    assert found(result) == [
        ("WAS016", "/dev/zero is a device; not read"),
        ("WAS016", f"{sock_path} is a socket; not read"),
        ("WAS016", f"{dangling} is a dangling symlink; not read"),
        ("WAS016", f"{loop} is a symlink loop; not read"),
    ]


def test_directory_walk_reads_regular_files_only(tmp_path):
    (tmp_path / "a.yaml").write_text(POD)
    os.mkfifo(tmp_path / "b.yaml")
    (tmp_path / "c.yaml").symlink_to("/dev/zero")
    (tmp_path / "d.yaml").symlink_to(tmp_path / "gone")
    (tmp_path / "e.yaml").symlink_to(tmp_path / "a.yaml")  # a link to a regular file is read
    files, diags = expand_paths([str(tmp_path)])
    assert files == [str(tmp_path / "a.yaml"), str(tmp_path / "e.yaml")]
    assert [(d.code, d.severity.label, d.location.file) for d in diags] == [
        ("WAS017", "info", str(tmp_path / "b.yaml")),
        ("WAS017", "info", str(tmp_path / "c.yaml")),
        ("WAS017", "info", str(tmp_path / "d.yaml")),
    ]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file_and_directory(tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text(POD)
    secret.chmod(0)
    closed = tmp_path / "closed"
    closed.mkdir()
    closed.chmod(0)
    try:
        result = read_paths([str(secret), str(closed)])
    finally:
        closed.chmod(0o755)
    assert [d.code for d in result.diagnostics] == ["WAS001", "WAS001"]


def test_closed_stdin_is_a_finding_with_exit_2():
    proc = subprocess.run([sys.executable, "-m", "wasplan", "validate", "-"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, preexec_fn=lambda: os.close(0))
    assert proc.returncode == 2
    assert "<stdin>: error WAS001 cannot read stdin: it is closed" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_permission_denied_is_a_finding_even_for_root(tmp_path, monkeypatch):
    """Root reads any file, so the refusal is simulated where the reader meets it: opening the file, listing
    the directory."""
    secret = tmp_path / "secret.yaml"
    secret.write_text(POD)
    closed = tmp_path / "closed"
    closed.mkdir()
    real_open, real_scandir = os.open, os.scandir

    def deny_open(path, *args, **kwargs):
        if str(path) == str(secret):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    def deny_scandir(path="."):
        if str(path) == str(closed):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "open", deny_open)
    monkeypatch.setattr(os, "scandir", deny_scandir)
    result = read_paths([str(secret), str(closed)])
    assert found(result) == [("WAS001", f"cannot read directory {closed}: Permission denied"),
                             ("WAS001", f"cannot read {secret}: Permission denied")]


def test_a_large_file_is_read_whole_and_reports_its_bytes(tmp_path, monkeypatch):
    """No size limit refuses an honest dump (issue 33): the file is read in chunks, each one reported with the
    file's name, and every object in it is read."""
    from wasplan.documents import sources

    monkeypatch.setattr(sources, "CHUNK", 1024)
    path = tmp_path / "dump.yaml"
    path.write_text("---\n".join(POD.replace("name: a", f"name: p{i}") for i in range(200)))
    size = path.stat().st_size
    events = []
    result = read_paths([str(path)], progress=lambda *e: events.append(e))
    assert result.diagnostics == [] and len(result.documents) == 200
    assert events[0] == (str(path), 1024, size) and events[-1] == (str(path), size, size)
    assert [done for _, done, _ in events] == sorted(done for _, done, _ in events)


def test_a_small_file_reports_no_bytes(tmp_path):
    path = tmp_path / "pod.yaml"
    path.write_text(POD)
    events = []
    assert len(read_paths([str(path)], progress=lambda *e: events.append(e)).documents) == 1
    assert events == []
