"""Inputs for the oracle that wasplan reads in its own way: the compact `wasplan.io/v1alpha1` Cluster kind is
wasplan's, not Kubernetes', so the oracle is given the Kubernetes objects it stands for, as wasplan itself
writes them (`wasplan plan ... --emit-snapshot`, docs/cluster-kind.md) after planning nothing on it.

Only clusters whose pods all run (`node` set) keep their meaning that way: a pending Cluster pod would come back
already placed by wasplan.
"""

from __future__ import annotations

from pathlib import Path

from ruamel.yaml import YAML
from typer.testing import CliRunner

from wasplan.cli import plan_cmd  # noqa: F401  (registers the command)
from wasplan.cli.app import app

_NOTHING = "apiVersion: v1\nkind: Namespace\nmetadata: {name: wasplan-oracle-nothing}\n"


def has_cluster_kind(path: Path) -> bool:
    docs = YAML(typ="safe").load_all(Path(path).read_text())
    return any(isinstance(d, dict) and d.get("apiVersion") == "wasplan.io/v1alpha1" and d.get("kind") == "Cluster"
               for d in docs)


def kubernetes_cluster(path: Path, workdir: Path, k8s_version: str = "1.37") -> Path:
    """`path` itself when it holds only Kubernetes objects; else a snapshot file of the objects its Cluster
    documents stand for."""
    path = Path(path)
    if not has_cluster_kind(path):
        return path
    nothing = workdir / "nothing.yaml"
    nothing.write_text(_NOTHING)
    out = workdir / f"{path.stem}-objects.yaml"
    result = CliRunner().invoke(app, ["plan", str(nothing), "--cluster", str(path), "--k8s-version", k8s_version,
                                      "--emit-snapshot", str(out), "--fail-on", "never", "-o", "json"])
    if result.exit_code != 0 or not out.is_file():
        raise RuntimeError(f"wasplan could not expand {path}: {result.output}")
    return out
