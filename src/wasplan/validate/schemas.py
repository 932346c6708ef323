"""wasplan's JSON Schemas: where they live, which exist, and compiled validators for them.

The schemas are data files laid out as `<group>/<version>/<Kind>.json` (tools/gen_schemas.py writes the
scheduling.k8s.io ones; wasplan's own kinds such as `wasplan.io/v1alpha1` Cluster sit beside them). A wheel
carries them as `wasplan/schemas` (see `force-include` in pyproject.toml); a source checkout has them at the
repository root, so both places are looked at, the installed one first.

Validators are compiled once per (apiVersion, kind) with jsonschema_rs, because validation is on the hot
path of every command and the compiled validator checks a small manifest in microseconds. Formats are not
asserted: upstream's schemas carry `format` as a hint only (the API server is the judge), and every format
that matters to wasplan is spelled out as a `pattern` or a range.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Iterator

import jsonschema_rs

from wasplan import jsontext

# Kueue's kinds (tools/gen_kueue_schemas.py, from Kueue v0.17.0's CRDs): an add-on's API, the same whatever the
# Kubernetes release, like wasplan's own kinds; v1beta2 is the version Kueue stores and prefers.
KUEUE_GROUP = "kueue.x-k8s.io"
KUEUE_PREFERRED = f"{KUEUE_GROUP}/v1beta2"
# Kueue's Configuration (tools/gen_kueue_config_schemas.py, from Kueue v0.17.0's Go types): not an API object, the
# file Kueue's manager reads; checked as strictly as Kueue decodes it
KUEUE_CONFIG_GROUP = "config.kueue.x-k8s.io"
RELEASE_INDEPENDENT = ("wasplan.io", KUEUE_GROUP, KUEUE_CONFIG_GROUP)

_SOURCE_ROOT = Path(__file__).resolve().parents[3] / "schemas"


@lru_cache(maxsize=1)
def schema_root() -> Traversable | Path:
    """The directory holding `<group>/<version>/<Kind>.json`: the installed copy, else the source tree's."""
    installed = files("wasplan") / "schemas"
    if installed.is_dir():
        return installed
    return _SOURCE_ROOT


def _entries() -> Iterator[tuple[str, str, Traversable | Path]]:
    root = schema_root()
    if not root.is_dir():
        return
    for group in sorted(root.iterdir(), key=lambda p: p.name):
        if not group.is_dir():
            continue
        for version in sorted(group.iterdir(), key=lambda p: p.name):
            if not version.is_dir():
                continue
            for item in sorted(version.iterdir(), key=lambda p: p.name):
                if item.name.endswith(".json") and item.is_file():
                    yield f"{group.name}/{version.name}", item.name[: -len(".json")], item


def release_independent(api_version: str) -> bool:
    """True for wasplan's and Kueue's kinds: their schemas do not depend on the Kubernetes release."""
    return api_version.split("/")[0] in RELEASE_INDEPENDENT


@lru_cache(maxsize=1)
def available() -> list[tuple[str, str]]:
    """Every (apiVersion, kind) that has a wasplan schema, sorted."""
    return list(_index())


def schema_files() -> list[tuple[str, Traversable | Path]]:
    """(relative path like `scheduling.k8s.io/v1beta1/PodGroup.json`, file) for `wasplan schema --export`."""
    return [(f"{api_version}/{kind}.json", item) for api_version, kind, item in _entries()]


@lru_cache(maxsize=1)
def _index() -> dict[tuple[str, str], Traversable | Path]:
    """(apiVersion, kind) -> the shipped file. Lookups go through this index of what is shipped, so no part of
    an input (a 300-character kind, `../`) ever becomes part of a path."""
    return {(api_version, kind): item for api_version, kind, item in _entries()}


@lru_cache(maxsize=None)
def _load_text(api_version: str, kind: str) -> str | None:
    item = _index().get((api_version, kind))
    return None if item is None else item.read_text(encoding="utf-8")


def load_schema(api_version: str, kind: str) -> dict | None:
    """A fresh copy of the schema for `apiVersion`/`kind`, or None when wasplan has none."""
    text = _load_text(api_version, kind)
    return None if text is None else jsontext.loads(text)


@lru_cache(maxsize=None)
def shared_schema(api_version: str, kind: str) -> dict | None:
    """The schema parsed once and shared: for read-only lookups on the hot path (error mapping)."""
    return load_schema(api_version, kind)


@lru_cache(maxsize=None)
def validator(api_version: str, kind: str) -> jsonschema_rs.Validator | None:
    """The compiled validator for `apiVersion`/`kind` (cached), or None when wasplan has no schema."""
    schema = load_schema(api_version, kind)
    if schema is None:
        return None
    return jsonschema_rs.validator_for(schema, validate_formats=False)
