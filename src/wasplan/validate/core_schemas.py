"""Upstream's strict schemas for the kinds wasplan does not own (Pod, Job, Node, PriorityClass, ...).

This is the one module that knows kubernetes-validate: it reads that package's data files (found through the
import system's spec of the package, never an absolute path, and without importing it), or for a release the
package does not have yet wasplan's own copy made the same way (`_OWN`), and compiles them with jsonschema_rs. Each kind file refers to the release's shared `_definitions.json` (about 1.8 MB) by URI, so
that file is parsed once per release and handed to a jsonschema_rs Registry under its own `$id`; validators
are then cached per (release, apiVersion, kind). Formats are not asserted, matching what kubernetes-validate
itself does.
"""

from __future__ import annotations

import importlib.util
import re
from functools import lru_cache
from pathlib import Path

import jsonschema_rs

from wasplan import jsontext
from wasplan.api.releases import get_release


@lru_cache(maxsize=1)
def _package_dir() -> Path:
    """kubernetes-validate's installed directory, found without importing the package: its __init__ imports
    python-jsonschema, about 0.1 s of every `wasplan validate` process, and only its schema files are used."""
    spec = importlib.util.find_spec("kubernetes_validate")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("kubernetes_validate is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


# Releases kubernetes-validate does not cover yet have the same directory in wasplan itself, made from the
# release's own OpenAPI document by tools/gen_core_schemas.py (1.38, from v1.38.0-beta.0).
_OWN = Path(__file__).resolve().parent / "upstream_schemas"


def own_upstream_schemas(release_version: str) -> bool:
    """Whether the release's strict schemas are wasplan's own copy rather than kubernetes-validate's."""
    return (_OWN / get_release(release_version).upstream_schema_dir).is_dir()


def _schema_dir(release_version: str) -> Path:
    name = get_release(release_version).upstream_schema_dir
    return _OWN / name if own_upstream_schemas(release_version) else _package_dir() / "kubernetes-json-schema" / name


def schema_file_name(api_version: str, kind: str) -> str:
    """kubernetes-validate's file name: `<kind>-<first label of group>-<version>.json`, core `<kind>-<v>.json`."""
    if "/" in api_version:
        group, version = api_version.split("/", 1)
        return f"{kind.lower()}-{group.split('.', 1)[0]}-{version}.json"
    return f"{kind.lower()}-{api_version}.json"


@lru_cache(maxsize=None)
def _shipped(release_version: str) -> frozenset[str]:
    """The file names kubernetes-validate ships for a release: lookups go through this set, so no part of an
    input (a 300-character kind, `../`) ever becomes part of a path."""
    return frozenset(item.name for item in _schema_dir(release_version).iterdir())


# Upstream marks int32/int64 fields with `format`, which a validator does not assert for numbers; the API server
# rejects a value outside the Go type, so the bounds are written next to the format as minimum/maximum. The
# files use `format` only on integer fields and carry no `minimum`/`maximum` keywords, and the insertion is a
# text substitution, far cheaper than walking the parsed 1.8 MB of `_definitions.json`.
_INT_FORMAT = re.compile(r'"format": "int(32|64)",')
_INT_BOUNDS = {"32": f'"format": "int32", "minimum": {-(2**31)}, "maximum": {2**31 - 1},',
               "64": f'"format": "int64", "minimum": {-(2**63)}, "maximum": {2**63 - 1},'}


def _load(release_version: str, name: str, raw: bool = False) -> dict:
    text = (_schema_dir(release_version) / name).read_text(encoding="utf-8")
    return jsontext.loads(text if raw else _INT_FORMAT.sub(lambda m: _INT_BOUNDS[m.group(1)], text))


@lru_cache(maxsize=None)
def definitions(release_version: str, raw: bool = False) -> dict:
    """The release's parsed `_definitions.json` (loaded once per release), with int32/int64 bounds unless `raw`."""
    return _load(release_version, "_definitions.json", raw)


@lru_cache(maxsize=None)
def _registry(release_version: str, raw: bool = False) -> jsonschema_rs.Registry:
    defs = definitions(release_version, raw)
    return jsonschema_rs.Registry([(defs["$id"], defs)])


@lru_cache(maxsize=None)
def core_validator(release_version: str, api_version: str, kind: str,
                   raw: bool = False) -> jsonschema_rs.Validator | None:
    """A compiled validator for an upstream kind in a release, or None when upstream has no schema for it;
    `raw` leaves out the int32/int64 bounds (upstream's schema exactly, for conformance tests)."""
    name = schema_file_name(api_version, kind) if kind and api_version else ""
    if name not in _shipped(release_version) or name.startswith("_"):
        return None
    schema = _load(release_version, name, raw)
    return jsonschema_rs.validator_for(schema, registry=_registry(release_version, raw), validate_formats=False)


@lru_cache(maxsize=None)
def core_schema(release_version: str, api_version: str, kind: str) -> dict | None:
    """The parsed upstream schema of a kind, for naming the fields that do exist when one is unknown."""
    if core_validator(release_version, api_version, kind) is None:
        return None
    return _load(release_version, schema_file_name(api_version, kind))


def core_roots(release_version: str, api_version: str, kind: str) -> list[dict]:
    """Where an error's schema path may point: the kind's own schema, then the shared definitions."""
    schema = core_schema(release_version, api_version, kind)
    return [schema, definitions(release_version)] if schema is not None else []


def registry(release_version: str) -> jsonschema_rs.Registry:
    """The release's shared definitions as a registry, for schemas that refer into them (crd_schemas.py)."""
    return _registry(release_version)
