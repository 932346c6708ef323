"""Running wasplan and the oracle's API-server subcommands on the same files, and comparing what they say.

Shared by test_validate_oracle.py, test_convert_oracle.py and test_expand_oracle.py; the binary comes from
conftest.py's `oracle_bin` (skipped, visibly, without it).

Field paths are compared as sets per document. Two normalisations, both because the server's own reports
say less than a path: a version the release does not serve is refused before the object is read, so only
the verdict is compared; a type error stops the server's decoder at the first bad value and names the path
without list indexes, so there the oracle's path (indexes dropped) must be among wasplan's; and wasplan puts a
missing required field at the field itself, as the server does.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from tests.oracle.conftest import run_oracle

ROOT = Path(__file__).resolve().parents[2]
INDEX = re.compile(r"\[\d+\]")
MAP_KEY = re.compile(r"\[([^\]\d][^\]]*)\]")  # the server writes a map key as `limits[nvidia.com/gpu]`


def run_wasplan(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wasplan", *args], capture_output=True, text=True, timeout=600,
                          cwd=ROOT)


@dataclass(frozen=True)
class Verdict:
    verdict: str
    paths: frozenset[str]
    decode_error: bool  # the server's decoder stopped: only its first type error is known
    messages: tuple[str, ...]
    not_served: bool = False  # the server refuses the request before it reads the object


def oracle_verdicts(report: dict) -> list[Verdict]:
    out = []
    for doc in report["documents"]:
        errors = doc["errors"]
        out.append(Verdict(doc["verdict"], frozenset(MAP_KEY.sub(r".\1", e["field"]) for e in errors),
                           any(e["type"] == "FieldValueTypeInvalid" for e in errors),
                           tuple(f"{e['field']}: {e['message']}" for e in errors),
                           any(e["type"] == "NotServed" for e in errors)))
    return out


def wasplan_verdicts(report: dict) -> list[Verdict]:
    out = []
    for doc in report["documents"]:
        errors = [d for d in doc["diagnostics"] if d["severity"] == "error"]
        out.append(Verdict(doc["verdict"], frozenset(d.get("field") or "" for d in errors), False,
                           tuple(f"{d.get('field')}: {d['code']} {d['message']}" for d in errors)))
    return out


def agree(server: Verdict, ours: Verdict) -> tuple[bool, bool]:
    """(verdicts agree, field paths agree)."""
    same_verdict = server.verdict == ours.verdict
    if server.not_served:  # wasplan still checks the object against its own version; the server says no more
        return same_verdict, same_verdict
    if server.decode_error:
        wanted = {INDEX.sub("", p) for p in server.paths}
        return same_verdict, wanted <= {INDEX.sub("", p) for p in ours.paths}
    return same_verdict, server.paths == ours.paths


def validate_both(binary: Path, stream: Path, release: str, gates: str) -> tuple[list[Verdict], list[Verdict]]:
    flags = ["--k8s-version", release] + (["--feature-gates", gates] if gates else [])
    server = run_oracle(binary, ["validate", str(stream), *flags, "-o", "json"], timeout=600)
    if server.returncode not in (0, 1):
        raise AssertionError(f"oracle validate failed ({server.returncode}): {server.stderr[-2000:]}")
    ours = run_wasplan("validate", str(stream), *flags, "-o", "json")
    if ours.returncode not in (0, 1):
        raise AssertionError(f"wasplan validate failed ({ours.returncode}): {ours.stderr[-2000:]}")
    return oracle_verdicts(json.loads(server.stdout)), wasplan_verdicts(json.loads(ours.stdout))


def load_list(text: str) -> list[dict]:
    doc = yaml.safe_load(text)
    return list(doc.get("items") or []) if isinstance(doc, dict) else []
