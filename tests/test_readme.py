"""The README and docs/ say what the code does: the README opens with the two set-up commands and stays short, one
row per common option, only code ranges that have codes, install lines that need no package index, the DRA
objects in the snapshot command, the start-up figures in the docs, every docs page once in the index (links and anchors: tests/test_doc_links.py)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import ROOT
from wasplan.codes import CODES

README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"


def _doc(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def _section(text: str, title: str) -> str:
    start = text.index(f"\n{title}\n")
    end = text.find("\n## ", start + len(title) + 2)
    return text[start:end if end != -1 else None]


def test_the_readme_opens_with_the_two_set_up_commands_and_reads_in_five_minutes():
    block = README.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert block[0].endswith("wasplan plan fixtures/examples/training --cluster fixtures/examples/cluster.yaml")
    assert block[1].endswith(".venv/bin/python -m pytest") and "'.[test]'" in block[1]
    assert len(README.splitlines()) <= 200


def test_common_options_name_each_option_once():
    rows = [line for line in _section(_doc("options.md"), "## Common options").splitlines() if line.startswith("| `")]
    firsts = [re.match(r"\| `([^` ]+)", row).group(1) for row in rows]
    assert len(firsts) == len(set(firsts)), sorted(f for f in firsts if firsts.count(f) > 1)
    gates = next(row for row in rows if row.startswith("| `--feature-gates"))
    assert "DRAWorkloadResourceClaims off" in gates  # default_gates: the DRA gates at upstream's defaults


def test_every_code_range_of_the_docs_has_codes():
    ranges = re.findall(r"^\| `WAS(\d)xx` \|", _section(_doc("exit-codes.md"), "## Diagnostic codes"), re.MULTILINE)
    have = {code[3] for code in CODES}
    assert ranges and sorted(ranges) == sorted(have)


def test_ci_install_lines_need_no_package_index():
    ci = _doc("ci.md")
    for text in (README, ci):
        assert "pip install wasplan" not in text
    assert ci.count("git+https://github.com/wasplan/wasplan@") == 1
    assert ci.count('pip install "$WASPLAN"') == 3  # the prose, the shell and GitLab snippets
    assert README.count('pip install "$WASPLAN"') == 1


def test_the_dra_snapshot_command_takes_the_dra_objects():
    commands = [line for line in _doc("plan.md").splitlines() if line.startswith("kubectl get ")]
    dra = [c for c in commands if "resourceslices" in c]
    assert dra and all(all(k in c for k in ("deviceclasses", "resourceslices", "resourceclaims",
                                            "resourceclaimtemplates")) for c in dra)


def test_the_start_up_table_lives_in_the_performance_page_and_the_docs_list_is_said_once():
    assert "| `wasplan --version` |" not in README
    assert "| `wasplan --version` |" in _doc("performance.md")
    index = _doc("README.md")
    pages = sorted(p.name for p in DOCS.glob("*.md") if p.name != "README.md")
    listed = re.findall(r"^\| \[([a-z0-9-]+\.md)\]", index, re.MULTILINE)
    assert sorted(listed) == pages  # every page once in the index, and no row for a page that is gone


def test_the_kueue_example_prints_what_the_readme_shows(monkeypatch):
    from tests.cli.helpers import run

    monkeypatch.chdir(ROOT)
    block = _section(README, "## One example per command").split("**Kueue**", 1)[1].split("```console\n", 1)[1]
    block = block.split("```", 1)[0].splitlines()
    command = " ".join(part.strip().rstrip("\\").strip() for part in block[:2]).removeprefix("$ wasplan ").split()
    shown = block[block.index("...") + 1:]
    result = run(*command, env={"COLUMNS": "120"})
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[lines.index(shown[0]):] == shown
