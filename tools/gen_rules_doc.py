"""Regenerate docs/rules.md from the codes table (tests/test_rules_doc.py fails when it is out of date)."""

from __future__ import annotations

from pathlib import Path

from wasplan.report.rules import render_markdown

if __name__ == "__main__":
    target = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
    target.write_text(render_markdown(), encoding="utf-8")
    print(f"wrote {target}")
