"""Reading the conformance fixtures and asking both judges (upstream's strict schema, wasplan's schema).

Shared by the conformance, null-handling and hypothesis tests so they all read the expectation comments the
same way (fixtures/conformance/README.md describes the format).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from wasplan.api.releases import SUPPORTED_RELEASES
from wasplan.validate.core_schemas import core_validator, own_upstream_schemas
from wasplan.validate.schemas import validator

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT / "fixtures" / "conformance"

_EXPECT = re.compile(
    r"^# expect: upstream=(?P<up>accept|reject) wasplan=(?P<was>accept|reject)(?: rule=(?P<rule>\S+))?\s*$"
)
_CASE = re.compile(r"^# case: (?P<text>.+)$")
_SEPARATOR = re.compile(r"^---\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Case:
    release: str
    file: str
    index: int
    text: str
    obj: dict
    upstream_accepts: bool
    wasplan_accepts: bool
    rule: str | None

    @property
    def id(self) -> str:
        return f"{self.release}/{self.file}#{self.index}"


def _parse(release: str, path: Path) -> list[Case]:
    cases = []
    for index, chunk in enumerate(_SEPARATOR.split(path.read_text(encoding="utf-8"))):
        obj = yaml.safe_load(chunk)
        expects = [m for m in map(_EXPECT.match, chunk.splitlines()) if m]
        if obj is None and not expects:
            continue
        if len(expects) != 1 or not isinstance(obj, dict):
            raise AssertionError(f"{path}#{index}: each document needs exactly one '# expect:' line and a mapping")
        expect = expects[0]
        texts = [m.group("text") for m in map(_CASE.match, chunk.splitlines()) if m]
        cases.append(Case(
            release=release, file=path.name, index=index, text=texts[0] if texts else "",
            obj=obj, upstream_accepts=expect.group("up") == "accept",
            wasplan_accepts=expect.group("was") == "accept", rule=expect.group("rule"),
        ))
    return cases


def load_cases() -> list[Case]:
    cases: list[Case] = []
    for release_dir in sorted(p for p in CONFORMANCE.iterdir() if p.is_dir()):
        for path in sorted(release_dir.glob("*.yaml")):
            cases.extend(_parse(release_dir.name, path))
    return cases


def wasplan_accepts(obj: dict) -> bool:
    v = validator(obj["apiVersion"], obj["kind"])
    assert v is not None, f"wasplan has no schema for {obj['apiVersion']} {obj['kind']}"
    return v.is_valid(obj)


def wasplan_failed_keywords(obj: dict) -> set[str]:
    """The JSON Schema keywords wasplan's schema reports as failing for `obj`."""
    v = validator(obj["apiVersion"], obj["kind"])
    return {str(err.schema_path[-1]) for err in v.iter_errors(obj)}


def upstream_accepts(release: str, obj: dict) -> bool:
    """kubernetes-validate's own verdict with its strict schema for `release`; for a release the package does not
    ship yet (1.38), the same directory made from that release's OpenAPI document (tools/gen_core_schemas.py,
    which reproduces kubernetes-validate's directories of the earlier releases)."""
    import kubernetes_validate

    if release in SUPPORTED_RELEASES and own_upstream_schemas(release):
        return fast_upstream_accepts(release, obj)

    try:
        kubernetes_validate.validate(copy.deepcopy(obj), release, strict=True)
    except kubernetes_validate.ValidationError:
        return False
    return True


def fast_upstream_accepts(release: str, obj: dict) -> bool:
    """Upstream's strict schema compiled by `core_validator` (the files kubernetes-validate reads; the
    conformance test checks that both give the same verdict). Releases wasplan does not target (1.35, whose
    v1alpha1 Workload is only migrate input) go through kubernetes-validate itself."""
    if release not in SUPPORTED_RELEASES:
        return upstream_accepts(release, obj)
    v = core_validator(release, obj["apiVersion"], obj["kind"], raw=True)
    assert v is not None
    return v.is_valid(obj)
