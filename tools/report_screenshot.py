"""Regenerate docs/plan-report.png: the HTML report of the README's example (fixtures/examples/training on
fixtures/examples/cluster.yaml), rendered by `wasplan plan -o html` and photographed by headless Chromium with
the 70B pre-training gang selected, as a link to `plan.html#select=pg:ml-research/pretrain-70b-job` opens it.

    PYTHONPATH=src python tools/report_screenshot.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "docs" / "plan-report.png"
SELECTION = "#select=pg:ml-research/pretrain-70b-job"
WIDTH, HEIGHT = 1280, 860


def main() -> None:
    browser = shutil.which("chromium") or shutil.which("google-chrome")
    if browser is None:
        sys.exit("needs chromium on PATH (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "plan.html"
        with page.open("w") as out:
            subprocess.run([sys.executable, "-m", "wasplan", "plan", str(ROOT / "fixtures/examples/training"),
                            "--cluster", str(ROOT / "fixtures/examples/cluster.yaml"), "-o", "html"],
                           stdout=out, check=True, cwd=ROOT)
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--user-data-dir={tmp}/profile", f"--window-size={WIDTH},{HEIGHT}",
                        "--virtual-time-budget=5000", f"--screenshot={TARGET}", page.as_uri() + SELECTION],
                       check=True, capture_output=True)
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
