"""Every code the validate package emits is a row of the one code table, with the severity it documents."""

import re
from pathlib import Path

from wasplan.codes import CODES

SRC = Path(__file__).resolve().parents[2] / "src" / "wasplan" / "validate"


def test_every_emitted_code_is_in_the_table():
    used = set()
    for path in SRC.rglob("*.py"):
        used |= set(re.findall(r'"(WAS\d{3})"', path.read_text()))
    assert used, "no codes found: the scan is broken"
    assert sorted(used - set(CODES)) == []
    assert {c for c in CODES if c.startswith(("WAS2", "WAS4"))} <= used
