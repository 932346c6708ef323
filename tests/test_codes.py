"""The code table is the single source of truth: every code the product emits is declared, none is dead."""

from __future__ import annotations

import re
from pathlib import Path

from wasplan.codes import CODES

SRC = Path(__file__).resolve().parent.parent / "src" / "wasplan"
_CODE = re.compile(r"\bWAS\d{3}\b")


def _used_codes() -> set[str]:
    used: set[str] = set()
    for path in SRC.rglob("*.py"):
        if path.name == "codes.py":
            continue
        used.update(_CODE.findall(path.read_text()))
    return used


def test_every_emitted_code_is_declared():
    assert sorted(_used_codes() - set(CODES)) == []


def test_no_declared_code_is_dead():
    assert sorted(set(CODES) - _used_codes()) == []


def test_codes_sit_in_their_documented_range():
    ranges = {"0": "reading", "1": "schema", "2": "rules", "3": "gates", "4": "lint", "5": "migrate",
              "6": "cluster", "7": "plan", "8": "explain", "9": "configuration"}
    for code in CODES:
        assert code[3] in ranges, code
