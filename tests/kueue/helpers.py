"""Helpers of the Kueue model's tests: load scenario files and reduce a result to expected.yaml's facts (with
the oracle test's own `key` and `facts`, so both hold a plan to the same record)."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.oracle.test_kueue_oracle import facts, key
from wasplan.kueue import AdmissionPolicy, KueueInputs, admit

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "fixtures" / "kueue-scenarios"


def load(*paths: str | Path) -> list[dict]:
    docs: list[dict] = []
    for p in paths:
        path = Path(p) if Path(p).is_absolute() else ROOT / p
        files = sorted(path.rglob("*.y*ml")) if path.is_dir() else [path]
        for f in files:
            docs += [d for d in yaml.safe_load_all(f.read_text()) if d]
    return docs


def run_text(text: str, policy: AdmissionPolicy = AdmissionPolicy()):
    return admit(KueueInputs.from_objects([d for d in yaml.safe_load_all(text) if d]), policy)


def by_key(result) -> dict[str, dict]:
    return {key(w): facts(w) for w in result.to_json()["workloads"]}
