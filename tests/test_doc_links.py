"""Every reference in the README and docs/ points somewhere: relative links and images resolve to a file, each
`#anchor` to a heading (GitHub's slug rule) or an explicit `<a id>`, every repository path named in prose or a
snippet exists, nothing cites notes that are not in the repository (a design document's sections), and the CI
snippets pin wasplan only to a tag that exists (issue 30: `DESIGN.md §4` and an `@v0.1.0` that was never tagged).

Build outputs (`oracle/bin/...`) and placeholders (`<file>`, globs) are not paths to check."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^\s*(```|~~~)")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s+(\S+)")
HTML_ID = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
REPO_PATH = re.compile(r"(?<![\w./:@-])((?:docs|fixtures|src|tests|tools|benchmarks|schemas|oracle)/[\w.\-/]*[\w-])")
PAGE_NAME = re.compile(r"(?<![\w./-])([A-Z][A-Za-z_-]*\.md)\b")
BUILT = ("oracle/bin",)
NOTES = re.compile(r"DESIGN\.md|engine-semantics §|api-reference §|\bshared notes\b")
PIN = re.compile(r"(?:wasplan/wasplan@|rev:\s*)(v\d[\w.-]*)")


def _prose(text: str) -> list[tuple[int, str]]:
    """(line number, text) outside fenced code blocks, inline code spans removed."""
    out, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append((number, re.sub(r"`[^`]*`", "", line)))
    return out


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: link text kept, markup dropped, lower case, punctuation other than `-` and
    `_` removed, each space a hyphen."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"[`*]|<[^>]+>", "", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found, seen = set(), {}
    for _, line in _prose(page.read_text(encoding="utf-8")):
        found.update(HTML_ID.findall(line))
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line) if not fenced else None
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def _targets(page: Path) -> list[tuple[int, str]]:
    out = []
    for number, line in _prose(page.read_text(encoding="utf-8")):
        out.extend((number, m.group(1)) for m in LINK.finditer(line))
        out.extend((number, m.group(1)) for m in REFERENCE.finditer(line))
    return [(n, t) for n, t in out if not re.match(r"^[a-z][a-z0-9+.-]*:", t)]  # http:, mailto:: not ours


def _problem(page: Path, target: str) -> str | None:
    path, _, anchor = target.partition("#")
    file = (page.parent / path).resolve() if path else page
    if not file.exists():
        return f"{path} does not exist"
    if anchor and file.suffix == ".md" and anchor not in anchors(file):
        return f"{file.name} has no heading for #{anchor}"
    return None


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_relative_link_and_anchor_resolves(page):
    broken = [f"{page.name}:{n}: {t}: {why}" for n, t in _targets(page) if (why := _problem(page, t))]
    assert broken == []


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_repository_path_named_exists(page):
    missing = []
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        for match in REPO_PATH.finditer(line):
            path = match.group(1).rstrip(".")
            if path.startswith(BUILT) or any(c in path for c in "*{}<>"):
                continue
            if not (ROOT / path).exists():
                missing.append(f"{page.name}:{number}: {path}")
        for match in PAGE_NAME.finditer(line):
            name = match.group(1)
            if not (ROOT / name).exists() and not (page.parent / name).exists():
                missing.append(f"{page.name}:{number}: {name}")
    assert missing == []


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_nothing_cites_notes_outside_the_repository(page):
    cited = [f"{page.name}:{n}: {line.strip()}" for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
             if NOTES.search(line)]
    assert cited == []


def _tags() -> set[str]:
    try:
        out = subprocess.run(["git", "tag", "--list"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return set()
    return set(out.split())


def test_ci_snippets_pin_only_tags_that_exist():
    files = [ROOT / "README.md", ROOT / "action.yml", ROOT / ".pre-commit-hooks.yaml"]
    pins = {(f.name, pin) for f in files for pin in PIN.findall(f.read_text(encoding="utf-8"))}
    tags = _tags()
    assert {(name, pin) for name, pin in pins if pin not in tags} == set()


def test_the_link_checker_catches_what_it_should(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Exit codes\n## A plan: the `HTML` report\n## Exit codes\n<a id=\"custom\"></a>\n",
                    encoding="utf-8")
    assert anchors(page) == {"exit-codes", "a-plan-the-html-report", "exit-codes-1", "custom"}
    assert _problem(page, "#exit-codes") is None and _problem(page, "#custom") is None
    assert _problem(page, "#exit-code") == "page.md has no heading for #exit-code"
    assert _problem(page, "missing.md") == "missing.md does not exist"
    assert NOTES.search("the Plan contract (DESIGN.md §4)")
    assert PIN.findall("- uses: wasplan/wasplan@v0.1.0\n  rev: v0.1.0\n") == ["v0.1.0", "v0.1.0"]
