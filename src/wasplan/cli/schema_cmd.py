"""`wasplan schema`: list, print or export the JSON Schemas, e.g. for yaml-language-server in an editor."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from wasplan import jsontext
from wasplan.cli.app import app
from wasplan.cli.boundary import set_output
from wasplan.cli.common import fail
from wasplan.suggest import did_you_mean
from wasplan.validate import schemas


def _export(export: Path) -> int:
    count = 0
    for (av, k) in schemas.available():
        target = export / av / f"{k}.json"
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(jsontext.dumps(schemas.load_schema(av, k)), encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {target}: {exc.strerror or exc} (--export needs a directory it can create or write)")
        count += 1
    return count


@app.command()
def schema(
    kind: Optional[str] = typer.Argument(None, metavar="KIND",
                                         help="Kind to print, e.g. PodGroup. Omit to list every schema."),
    api_version: Optional[str] = typer.Option(None, "--api-version", metavar="GROUP/VERSION",
                                              help="e.g. scheduling.k8s.io/v1beta1."),
    export: Optional[Path] = typer.Option(None, "--export", metavar="DIR",
                                          help="Write every schema below this directory."),
) -> None:
    """Print or export wasplan's JSON Schemas (draft 2020-12).

    Examples:

    \b
      wasplan schema
      wasplan schema PodGroup --api-version scheduling.k8s.io/v1beta1
      wasplan schema --export .schemas/
    """
    set_output("schema", "text")
    if export is not None:
        count = _export(export)
        typer.echo(f"wrote {count} schemas below {export}")
        typer.echo(f"editor modeline: # yaml-language-server: $schema={export}/scheduling.k8s.io/v1beta1/PodGroup.json")
        return
    if kind is None:
        for av, k in schemas.available():
            typer.echo(f"{av}\t{k}")
        return
    matches = [(av, k) for av, k in schemas.available()
               if k.lower() == kind.lower() and (api_version is None or av == api_version)]
    if not matches:
        guess = did_you_mean(kind, {k for _, k in schemas.available()})
        fail(f"no schema for kind {kind!r}" + (f" in {api_version}" if api_version else "") +
             (f"; did you mean {guess}?" if guess else "") + " (`wasplan schema` lists them)")
    if len(matches) > 1:
        fail(f"{kind} exists in {', '.join(av for av, _ in matches)}; choose one with --api-version")
    av, k = matches[0]
    typer.echo(jsontext.dumps(schemas.load_schema(av, k)), nl=False)
