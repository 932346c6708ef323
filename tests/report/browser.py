"""Headless Chromium for the HTML report's tests: the page is opened from disk, its scripts run, and the DOM as
they left it is returned (`--dump-dom`). A URL fragment drives the page as a link would (`#select=...`,
`#search=...`). Without a browser the tests that need one are skipped, and the run says so in one line."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest

CHROMIUM = next((p for p in (os.environ.get("WASPLAN_CHROMIUM"), shutil.which("chromium"),
                             shutil.which("chromium-browser"), shutil.which("google-chrome")) if p), None)
needs_browser = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH: HTML report browser tests skipped")


def _flags(profile: Path) -> list[str]:
    return [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--disable-extensions", "--mute-audio", f"--user-data-dir={profile}"]


def dump_dom(page: Path, fragment: str = "", profile: Path | None = None) -> str:
    profile = profile or page.parent / "chromium-profile"
    done = subprocess.run([*_flags(profile), "--virtual-time-budget=5000", "--dump-dom", page.as_uri() + fragment],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def screenshot(page: Path, out: Path, width: int, height: int, fragment: str = "") -> None:
    profile = out.parent / "chromium-profile"
    done = subprocess.run([*_flags(profile), "--hide-scrollbars", f"--window-size={width},{height}",
                           "--virtual-time-budget=5000", f"--screenshot={out}", page.as_uri() + fragment],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and out.exists(), done.stderr[-2000:]


class DevTools:
    """Headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: commands on the
    child's fd 3, replies on fd 4, each message NUL-terminated), for what `--dump-dom` cannot do: pressing keys."""

    def __init__(self, profile: Path):
        cmd_r, self._cmd_w = os.pipe()
        self._out_r, out_w = os.pipe()

        def wire() -> None:  # in the child: its fd 3 reads our commands, its fd 4 carries its replies
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (cmd_r, out_w)]  # out of the way of 3 and 4
            for src, dst in zip(high, (3, 4)):
                os.dup2(src, dst, inheritable=True)

        self._proc = subprocess.Popen([*_flags(profile), "--remote-debugging-pipe", "about:blank"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=False,
                                      preexec_fn=wire)
        os.close(cmd_r)
        os.close(out_w)
        self._buffer = b""
        self._next = 0
        self.session: str | None = None

    def call(self, method: str, **params):
        import json

        self._next += 1
        message = {"id": self._next, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self._cmd_w, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self._buffer:
                chunk = os.read(self._out_r, 1 << 16)
                assert chunk, "chromium closed the DevTools pipe"
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self._next:
                assert "error" not in reply, reply["error"]
                return reply.get("result", {})

    def open(self, page: Path, fragment: str = "") -> None:
        import time

        target = self.call("Target.createTarget", url=page.as_uri() + fragment)["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for _ in range(200):
            if self.js("document.documentElement.getAttribute('data-ready')") == "true":
                return
            time.sleep(0.05)
        raise AssertionError("the page's script did not finish")

    def js(self, expression: str):
        return self.call("Runtime.evaluate", expression=expression, returnByValue=True)["result"].get("value")

    _KEYS = {"Tab": 9, "Enter": 13, "Escape": 27, "ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39,
             "ArrowDown": 40, "Home": 36, "End": 35, "/": 191}

    def press(self, key: str) -> None:
        code = self._KEYS[key]
        text = {"Enter": "\r", "/": "/"}.get(key, "")
        down = {"key": key, "code": "Slash" if key == "/" else key, "windowsVirtualKeyCode": code}
        self.call("Input.dispatchKeyEvent", type="keyDown" if text else "rawKeyDown", text=text, **down)
        self.call("Input.dispatchKeyEvent", type="keyUp", **down)

    def close(self) -> None:
        self._proc.kill()
        self._proc.wait(timeout=30)
        os.close(self._cmd_w)
        os.close(self._out_r)
