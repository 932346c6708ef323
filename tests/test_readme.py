"""The README says what the code does: one row per common option, only code ranges that have codes, install
lines that need no package index, the DRA objects in the snapshot command, the start-up figures in the docs."""

from __future__ import annotations

import re

from tests.conftest import ROOT
from wasplan.codes import CODES

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = README.index(f"\n{title}\n")
    end = README.find("\n## ", start + len(title) + 2)
    return README[start:end if end != -1 else None]


def test_common_options_name_each_option_once():
    rows = [line for line in _section("## Common options").splitlines() if line.startswith("| `")]
    firsts = [re.match(r"\| `([^` ]+)", row).group(1) for row in rows]
    assert len(firsts) == len(set(firsts)), sorted(f for f in firsts if firsts.count(f) > 1)
    gates = next(row for row in rows if row.startswith("| `--feature-gates"))
    assert "DRAWorkloadResourceClaims off" in gates  # default_gates: the DRA gates at upstream's defaults


def test_every_code_range_of_the_readme_has_codes():
    ranges = re.findall(r"^\| `WAS(\d)xx` \|", _section("## Diagnostic codes"), re.MULTILINE)
    have = {code[3] for code in CODES}
    assert ranges and sorted(ranges) == sorted(have)


def test_ci_install_lines_need_no_package_index():
    ci = _section("## Use in CI")
    assert "pip install wasplan" not in ci
    assert ci.count("git+https://github.com/wasplan/wasplan@") == 1
    assert ci.count('pip install "$WASPLAN"') == 3  # the prose, the shell and GitLab snippets


def test_the_dra_snapshot_command_takes_the_dra_objects():
    commands = [line for line in README.splitlines() if line.startswith("kubectl get ")]
    dra = [c for c in commands if "resourceslices" in c]
    assert dra and all(all(k in c for k in ("deviceclasses", "resourceslices", "resourceclaims",
                                            "resourceclaimtemplates")) for c in dra)


def test_the_start_up_table_lives_in_the_docs_and_the_docs_list_is_said_once():
    assert "| `wasplan --version` |" not in README
    assert "| `wasplan --version` |" in (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    development = _section("## Development")
    assert development.count("controllers create, and the names)") == 1
