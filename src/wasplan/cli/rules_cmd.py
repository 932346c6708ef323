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


@app.command()
def rules(
    code: Optional[str] = typer.Argument(None, metavar="[CODE]",
                                         help="A code (WAS404) or prefix (WAS4) to describe in full; "
                                              "omit to list all."),
    output: RulesFormat = OutputOpt,
) -> None:
    """List every diagnostic code, or explain one: meaning, a failing and a passing example, how to fix it.

    Examples:

    \b
      wasplan rules
      wasplan rules WAS404
      wasplan rules WAS6 -o json
    """
    fmt = as_format(output)
    rows = list(CODES.values())
    if code is not None:
        rows = [r for r in rows if r.code.startswith(code.upper())]
        if not rows:
            fail(f"no diagnostic code matches {code!r}; `wasplan rules` lists them")
    if fmt is OutputFormat.json:
        typer.echo(render.render_json(rows), nl=False)
    elif code is None:
        typer.echo(render.render_list_text(rows, terminal.width()), nl=False)
    else:
        typer.echo("\n".join(render.render_one_text(r, terminal.width()) for r in rows), nl=False)
