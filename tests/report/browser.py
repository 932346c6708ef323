"""Headless Chromium for the HTML report's tests: the page is opened from disk, its scripts run, and the DOM as
they left it is returned (`--dump-dom`). A URL fragment drives the page as a link would (`#select=...`,
`#search=...`). Without a browser the tests that need one are skipped, and the run says so in one line."""

from __future__ import annotations

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
