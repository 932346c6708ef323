"""Help pages that fit the terminal: Click's layout (usage, text, definition lists) at the terminal's width
(`COLUMNS` included), wrapped only between words, so an example such as
`GenericWorkload=true,CompositePodGroup=false` is never cut in two. A paragraph that starts with a `\\b` line
(Click's convention) is printed as written: that is how the Examples sections keep their command lines.
Followed: typer/_click/formatting.py (HelpFormatter's methods and their arguments).
"""

from __future__ import annotations

from typing import Sequence

from typer._click.formatting import HelpFormatter

from wasplan.cli import terminal
from wasplan.report.fit import wrap


def _paragraphs(text: str) -> list[tuple[bool, list[str]]]:
    """(verbatim, lines) per blank-line separated paragraph; `\\b` marks a verbatim one."""
    out: list[tuple[bool, list[str]]] = []
    for block in text.split("\n\n"):
        lines = block.split("\n")
        if lines and lines[0].strip() == "\b":
            out.append((True, lines[1:]))
        elif block.strip():
            out.append((False, [" ".join(line.strip() for line in lines)]))
    return out


class Formatter(HelpFormatter):
    def __init__(self, indent_increment: int = 2, width: int | None = None, max_width: int | None = None) -> None:
        super().__init__(indent_increment, width=(width or terminal.width()) - 2, max_width=max_width)

    def _fill(self, text: str, width: int, indent: str) -> list[str]:
        lines: list[str] = []
        for i, (verbatim, body) in enumerate(_paragraphs(text)):
            if i:
                lines.append("")
            lines.extend(indent + line for line in body) if verbatim else lines.extend(wrap(body[0], width, indent))
        return lines

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        head = f"{prefix if prefix is not None else 'Usage: ':>{self.current_indent}}{prog} "
        lines = wrap(args, self.width, head, " " * min(len(head), self.width // 2))
        self.write("\n".join(lines) + "\n")

    def write_text(self, text: str) -> None:
        self.write("\n".join(self._fill(text, self.width, " " * self.current_indent)) + "\n")

    def write_dl(self, rows: Sequence[tuple[str, str]], col_max: int = 24, col_spacing: int = 2) -> None:
        rows = list(rows)
        first = min(max((len(r[0]) for r in rows), default=0), col_max) + col_spacing
        pad = " " * self.current_indent
        for term, desc in rows:
            lines = self._fill(desc, max(self.width - first - self.current_indent, 20), "") if desc else []
            if len(term) <= first - col_spacing and lines:
                self.write(f"{pad}{term:<{first}}{lines[0]}\n")
                lines = lines[1:]
            else:
                self.write(f"{pad}{term}\n")
            for line in lines:
                self.write(f"{pad}{' ' * first}{line}\n" if line else "\n")
