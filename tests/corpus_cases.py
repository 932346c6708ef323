"""The public corpus (fixtures/public: manifests as their projects publish them, README.md names each file's
repository, path and commit) and the snapshots its cases are planned against (fixtures/public/cases.yaml).

Shared by tests/test_public_corpus.py, which pins wasplan's verdicts without Go, and
tests/oracle/test_public_corpus.py, which plans every case with the oracle too.

A case whose manifests Kueue manages (the `kueue.x-k8s.io/queue-name` label) is planned as if Kueue admitted it
(`--assume-admitted`) where it is compared with the oracle: the oracle is the scheduler alone, and Kueue's
quotas are modelled by neither; its verdict without that flag (every pod WaitingForAdmission) is pinned anyway.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import yaml

from wasplan.cluster.kueue import QUEUE_LABEL

ROOT = Path(__file__).resolve().parents[1]
PUBLIC = ROOT / "fixtures" / "public"
CLUSTERS = PUBLIC / "clusters"
SOURCES = sorted(p.name for p in PUBLIC.iterdir() if p.is_dir() and p.name != "clusters")


@dataclass(frozen=True)
class Case:
    manifests: str  # relative to fixtures/public
    cluster: str  # a file name in fixtures/public/clusters without .yaml

    @property
    def path(self) -> Path:
        return PUBLIC / self.manifests

    @property
    def cluster_path(self) -> Path:
        return CLUSTERS / f"{self.cluster}.yaml"

    @property
    def label(self) -> str:
        return f"{self.manifests}@{self.cluster}"

    @property
    def files(self) -> list[Path]:
        if self.path.is_file():
            return [self.path]
        return sorted(p for p in self.path.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))

    @property
    def kueue(self) -> bool:
        """Whether Kueue manages something here (its queue-name label anywhere in the manifests)."""
        return any(QUEUE_LABEL in f.read_text() for f in self.files)


def load_cases() -> list[Case]:
    doc = yaml.safe_load((PUBLIC / "cases.yaml").read_text())
    return [Case(c["manifests"], c["cluster"]) for c in doc["cases"]]


CASES = load_cases()


def plan_json(case: Case, release: str, *, gates: str | None = None, assume_admitted: bool = False) -> tuple[int, dict]:
    """`wasplan plan MANIFESTS --cluster SNAPSHOT --k8s-version RELEASE -o json`, in process through the CLI:
    (exit code, the JSON document)."""
    from typer.testing import CliRunner

    from wasplan.cli import plan_cmd  # noqa: F401  (registers the command)
    from wasplan.cli.app import app

    args = ["plan", str(case.path), "--cluster", str(case.cluster_path), "--k8s-version", release, "-o", "json"]
    if gates:
        args += ["--feature-gates", gates]
    if assume_admitted:
        args.append("--assume-admitted")
    result = CliRunner().invoke(app, args)
    return result.exit_code, json.loads(result.stdout)
