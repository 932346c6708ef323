"""The code table is the single source of truth: every code the product emits is declared, none is dead."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from wasplan.codes import CODES

SRC = Path(__file__).resolve().parent.parent / "src" / "wasplan"
_CODE = re.compile(r"\bWAS\d{3}\b")


TABLE = ("codes.py", "codes_docs.py")  # the table and its executed docs name every code: they prove no use


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (a mention there is not a use)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _codes_in(text: str) -> set[str]:
    """The codes the module's code names in string literals (docstrings and comments left out)."""
    tree = ast.parse(text)
    skip = _docstrings(tree)
    return {code for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in skip for code in _CODE.findall(node.value)}


def _used_codes() -> set[str]:
    used: set[str] = set()
    for path in SRC.rglob("*.py"):
        if path.name not in TABLE:
            used |= _codes_in(path.read_text())
    return used


def test_the_dead_code_check_can_fail():
    # a code named only in a docstring or a comment is not used; one in a string literal of code is
    text = '"""Emits WAS001."""\n# WAS002\ndef f():\n    """WAS003"""\n    return make("WAS004", f"{x} WAS005")\n'
    assert _codes_in(text) == {"WAS004", "WAS005"}


def test_every_emitted_code_is_declared():
    assert sorted(_used_codes() - set(CODES)) == []


def test_no_declared_code_is_dead():
    assert sorted(set(CODES) - _used_codes()) == []


def test_codes_sit_in_their_documented_range():
    ranges = {"0": "reading", "1": "schema", "2": "rules", "3": "gates", "4": "lint", "5": "migrate",
              "6": "cluster", "7": "plan", "8": "explain", "9": "configuration"}
    for code in CODES:
        assert code[3] in ranges, code
