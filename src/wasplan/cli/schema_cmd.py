"""`wasplan schema`: list, print or export the JSON Schemas, e.g. for yaml-language-server in an editor."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from wasplan import jsontext
from wasplan.cli.app import app
from wasplan.cli.boundary import set_output
from wasplan.cli.common import K8sVersionOpt, fail
from wasplan.suggest import did_you_mean
from wasplan.validate import schemas

WASPLAN_GROUP = "wasplan.io/"


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


def _release(k8s_version: str | None):
    """The release (--k8s-version, the config file's, or the default), or a usage error naming the known ones."""
    from wasplan.api.releases import get_release
    from wasplan.cli.options import load_settings

    try:
        return get_release(load_settings(k8s_version=k8s_version).k8s_version)
    except KeyError as exc:
        fail(str(exc.args[0]))


def _require_served(matches: list[tuple[str, str]], release) -> list[tuple[str, str]]:
    """With --k8s-version, only what that release serves: a kind it does not serve (CompositePodGroup in 1.36)
    is a usage error naming the kinds and versions it does serve. wasplan's own kinds (Cluster) are not
    Kubernetes APIs and are always there."""
    kept = [m for m in matches if schemas.release_independent(m[0]) or release.serves(*m)]
    if kept:
        return kept
    kind = matches[0][1]
    elsewhere = release.versions_serving(kind)
    offered = sorted({k for av, k in schemas.available() if release.serves(av, k) and not k.endswith("List")})
    fail(f"Kubernetes {release.version} does not serve {kind} in " + ", ".join(av for av, _ in matches) +
         (f" (it serves {kind} as {', '.join(elsewhere)})" if elsewhere else "") +
         f"; its scheduling kinds are {', '.join(offered)}")


def _of_release(matches: list[tuple[str, str]], k8s_version: str | None) -> tuple[str, str]:
    """Of a kind's several versions, the one the release (--k8s-version, the config file's, or the default)
    prefers, as `migrate --to-k8s` writes it; else the only one it serves; else a usage error naming them."""
    kind = matches[0][1]
    if all(schemas.release_independent(av) for av, _ in matches):  # Kueue's kinds: the version Kueue stores
        return next((m for m in matches if m[0] == schemas.KUEUE_PREFERRED), matches[-1])
    release = _release(k8s_version)
    served = [m for m in matches if release.serves(m[0], kind)]
    preferred = [m for m in served if m[0] == release.preferred.get(kind)]
    if preferred or len(served) == 1:
        return (preferred or served)[0]
    fail(f"{kind} exists in {', '.join(av for av, _ in matches)}; Kubernetes {release.version} serves "
         f"{', '.join(av for av, _ in served) or 'none of them'}: choose one with --api-version")


@app.command()
def schema(
    kind: Optional[str] = typer.Argument(None, metavar="KIND",
                                         help="Kind to print, e.g. PodGroup. Omit to list every schema."),
    api_version: Optional[str] = typer.Option(None, "--api-version", metavar="GROUP/VERSION",
                                              help="e.g. scheduling.k8s.io/v1beta1."),
    export: Optional[Path] = typer.Option(None, "--export", metavar="DIR",
                                          help="Write every schema below this directory."),
    k8s_version: Optional[str] = K8sVersionOpt,
) -> None:
    """Print or export wasplan's JSON Schemas (draft 2020-12).

    Examples:

    \b
      wasplan schema
      wasplan schema PodGroup                  # the version the release prefers
      wasplan schema PodGroup --k8s-version 1.36
      wasplan schema PodGroup --api-version scheduling.k8s.io/v1alpha3
      wasplan schema --export .schemas/
    """
    set_output("schema", "text")
    if export is not None:
        count = _export(export)
        typer.echo(f"wrote {count} schemas below {export}")
        typer.echo(f"editor modeline: # yaml-language-server: $schema={export}/scheduling.k8s.io/v1beta1/PodGroup.json")
        return
    if kind is None:  # with --k8s-version, what that release serves
        release = _release(k8s_version) if k8s_version is not None else None
        for av, k in schemas.available():
            if release is None or schemas.release_independent(av) or release.serves(av, k):
                typer.echo(f"{av}\t{k}")
        return
    matches = [(av, k) for av, k in schemas.available()
               if k.lower() == kind.lower() and (api_version is None or av == api_version)]
    if not matches:
        guess = did_you_mean(kind, {k for _, k in schemas.available()})
        fail(f"no schema for kind {kind!r}" + (f" in {api_version}" if api_version else "") +
             (f"; did you mean {guess}?" if guess else "") + " (`wasplan schema` lists them)")
    if k8s_version is not None:
        matches = _require_served(matches, _release(k8s_version))
    if len(matches) > 1:
        matches = [_of_release(matches, k8s_version)]
    av, k = matches[0]
    typer.echo(jsontext.dumps(schemas.load_schema(av, k)), nl=False)
