"""The rule catalogue (codes.py plus codes_docs.py) as text for `wasplan rules`, as JSON, and as docs/rules.md.

docs/rules.md is this module's output, written by tools/gen_rules_doc.py; a test keeps it in step, so the
terminal, SARIF's helpUri and the repository show the same words.
"""

from __future__ import annotations

import json
import textwrap

from wasplan.codes import CODES, Code, help_uri, rule_doc
from wasplan.report.fit import wrap

_RANGES = [("WAS0", "Reading input"), ("WAS1", "Schema and release"), ("WAS2", "Server-side rules"),
           ("WAS3", "Feature gates"), ("WAS4", "Cross-object lint"), ("WAS5", "Migrate"),
           ("WAS6", "Cluster snapshots and plan input"), ("WAS7", "Plan outcomes"), ("WAS8", "Explain"),
           ("WAS9", "Configuration")]


def to_dict(row: Code) -> dict:
    doc = rule_doc(row.code)
    return {"code": row.code, "name": row.name, "severity": row.severity.label, "summary": row.summary,
            "description": doc.description, "failingExample": doc.bad, "passingExample": doc.good,
            "fix": doc.fix, "helpUri": help_uri(row.code)}


def render_json(rows: list[Code]) -> str:
    return json.dumps({"rules": [to_dict(r) for r in rows]}, indent=2) + "\n"


def _indent(text: str) -> str:
    return textwrap.indent(text.rstrip("\n"), "    ")


def _fill(text: str, width: int, indent: str = "", hang: str = "") -> str:
    return "\n".join(wrap(text, width, indent, hang))


def render_one_text(row: Code, width: int = 100) -> str:
    """One rule in full; prose wraps between words at `width`, the examples are printed as written."""
    doc = rule_doc(row.code)
    return (f"{row.code} {row.name} ({row.severity.label})\n\n{_fill(doc.description, width)}\n\n"
            f"Failing example:\n{_indent(doc.bad)}\n\nPassing example:\n{_indent(doc.good)}\n\n"
            f"{_fill(f'How to fix: {doc.fix}', width, '', '    ')}\n")


def render_list_text(rows: list[Code], width: int = 200) -> str:
    """One rule per entry: code, name, severity, then the summary beside them when at least 40 columns are left,
    else beneath them; wrapped between words at `width`."""
    names = max(len(r.name) for r in rows)
    column = len(rows[0].code) + 2 + names + 2 + 7 + 2  # code, name, severity (7: "warning"), two spaces each
    out = []
    for r in rows:
        head = f"{r.code}  {r.name:<{names}}  {r.severity.label:<7}  "
        if width - column >= 40:
            out.append(_fill(head + r.summary, width, "", " " * column))
        else:
            out.append(head.rstrip() + "\n" + _fill(r.summary, width, " " * 8, " " * 8))
    return "".join(line + "\n" for line in out)


def _md_section(row: Code) -> list[str]:
    doc = rule_doc(row.code)
    return [f"### {row.code}", "", f"**{row.name}** · {row.severity.label}", "", doc.description, "",
            "Failing example:", "", "```yaml", doc.bad.rstrip("\n"), "```", "",
            "Passing example:", "", "```yaml", doc.good.rstrip("\n"), "```", "", f"How to fix: {doc.fix}", ""]


def render_markdown() -> str:
    lines = ["# wasplan rules", "",
             "Every diagnostic code wasplan reports. Generated from `src/wasplan/codes.py` and",
             "`src/wasplan/codes_docs.py` by `python tools/gen_rules_doc.py`; `wasplan rules CODE` prints the same.",
             "Switch a rule off with `--ignore CODE` (or `ignore:` in `.wasplan.yaml`), on one line with",
             "`# wasplan: ignore=CODE`, or on one object with the annotation `wasplan.io/ignore: \"CODE\"`.", ""]
    for prefix, title in _RANGES:
        rows = [r for r in CODES.values() if r.code.startswith(prefix)]
        if not rows:
            continue
        lines += [f"## {title} ({prefix}xx)", "", "| code | name | severity | summary |", "| --- | --- | --- | --- |"]
        lines += [f"| [{r.code}](#{r.code.lower()}) | {r.name} | {r.severity.label} | {r.summary} |" for r in rows]
        lines.append("")
        for row in rows:
            lines += _md_section(row)
    return "\n".join(lines).rstrip("\n") + "\n"
