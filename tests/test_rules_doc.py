"""Every code has its long documentation, the examples prove what they claim, and docs/rules.md is in step.

A developer who adds a code to src/wasplan/codes.py is told exactly what to add here by the first test's
failure message; the second regenerates docs/rules.md for them (`python tools/gen_rules_doc.py`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import run
from wasplan.codes import CODES
from wasplan.codes_docs import DOCS
from wasplan.report.rules import render_markdown

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = '''    "{code}": RuleDoc(
        "<what {code} ({name}) means, in a sentence or three>",
        "<a failing example: a manifest, or a command line>",
        "<the same example, fixed>",
        "<how to fix it>",
        ("validate",)),  # or ("lint",), ("migrate", "--to-k8s", "1.36"), or () when the example is no manifest'''


def test_every_code_has_its_long_documentation():
    missing = [code for code in CODES if code not in DOCS]
    advice = "\n".join(TEMPLATE.format(code=c, name=CODES[c].name) for c in missing)
    assert not missing, ("add to DOCS in src/wasplan/codes_docs.py (then run `python tools/gen_rules_doc.py`):\n"
                         + advice)
    assert sorted(set(DOCS) - set(CODES)) == [], "codes_docs.py documents codes that codes.py does not declare"


def test_docs_rules_md_is_generated_from_the_table():
    shipped = (ROOT / "docs" / "rules.md").read_text()
    assert shipped == render_markdown(), "docs/rules.md is out of date: run `python tools/gen_rules_doc.py`"


def _codes(*args: str, stdin: str) -> set[str]:
    result = run(*args, "--no-config", "-o", "json", "-", stdin=stdin)
    report = json.loads(result.output)
    every = report["diagnostics"] + [d for doc in report.get("documents", []) for d in doc["diagnostics"]]
    return {d["code"] for d in every}


@pytest.mark.parametrize("code", sorted(c for c, d in DOCS.items() if d.check))
def test_the_failing_example_reports_the_code_and_the_passing_one_does_not(code, monkeypatch):
    monkeypatch.chdir(ROOT)  # `check` may name fixture files relative to the repository
    doc = DOCS[code]
    assert code in _codes(*doc.check, stdin=doc.bad), f"{code}'s failing example does not report it"
    assert code not in _codes(*doc.check, stdin=doc.good), f"{code}'s passing example still reports it"


def test_documentation_fields_are_filled():
    for code, doc in DOCS.items():
        assert all(text.strip() for text in (doc.description, doc.bad, doc.good, doc.fix)), code
        assert doc.bad != doc.good, code
