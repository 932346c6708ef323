"""`wasplan rules [CODE]`: the rule catalogue, like `ruff rule CODE`; the same text as docs/rules.md."""

from __future__ import annotations

from typing import Optional

import typer

from wasplan.cli import terminal
from wasplan.cli.app import app
from wasplan.cli.common import OutputFormat, fail
from wasplan.cli.options import as_format, output_option
from wasplan.codes import CODES
from wasplan.report import rules as render

RulesFormat, OutputOpt = output_option("rules", OutputFormat.text, OutputFormat.json)


def matching(rows: list, wanted: str) -> list:
    """The rules a CODE argument names: a rule's name as `wasplan rules` prints it (`no-input`), else the codes
    starting with it (`WAS009`, `WAS4`); none is a usage error with the closest name or code."""
    from wasplan.suggest import guess

    text = wanted.strip()
    named = [r for r in rows if r.name == text.lower()]
    if named:
        return named
    coded = [r for r in rows if r.code.startswith(text.upper())]
    if coded:
        return coded
    near = guess(text.lower(), [r.name for r in rows]) or guess(text.upper(), [r.code for r in rows])
    fail(f"no diagnostic code or rule name matches {wanted!r}"
         + (f"; did you mean {near}?" if near else "; `wasplan rules` lists them"))
    return []


@app.command()
def rules(
    code: Optional[str] = typer.Argument(None, metavar="CODE",
                                         help="A code (WAS404), a prefix (WAS4) or a rule's name "
                                              "(no-input) to describe in full; omit to list all."),
    output: RulesFormat = OutputOpt,
) -> None:
    """List every diagnostic code, or explain one: meaning, a failing and a passing example, how to fix it.

    Examples:

    \b
      wasplan rules
      wasplan rules WAS404
      wasplan rules no-input
      wasplan rules WAS6 -o json
    """
    fmt = as_format(output)
    rows = list(CODES.values())
    if code is not None:
        rows = matching(rows, code)
    if fmt is OutputFormat.json:
        typer.echo(render.render_json(rows), nl=False)
    elif code is None:
        typer.echo(render.render_list_text(rows, terminal.width()), nl=False)
    else:
        typer.echo("\n".join(render.render_one_text(r, terminal.width()) for r in rows), nl=False)
