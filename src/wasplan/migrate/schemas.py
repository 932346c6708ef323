"""The upstream strict 1.35 JSON Schemas (shipped in kubernetes-validate), compiled once and cached.

`wasplan validate` supports 1.36 and 1.37 only, but migrate also reads 1.35 `v1alpha1` Workloads and must not
convert an invalid one. kubernetes_validate.validate would re-read a 1.8 MB definitions file on every call
(~15 ms), so the schema is compiled once per (release, apiVersion, kind) with jsonschema-rs and reused.
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources
from typing import Any

import jsonschema_rs

_PACKAGE = "kubernetes_validate"
_ID_BASE = "https://kubernetes-validate.invalid/api/"
_GROUP_PREFIX = re.compile(r"^([^./]*)(?:\.[^/]*)?/")


def _schema_dir(release: str) -> Any:
    return resources.files(_PACKAGE).joinpath("kubernetes-json-schema", f"v{release}.0-local-strict")


@functools.lru_cache(maxsize=None)
def _definitions(release: str) -> dict:
    return json.loads(_schema_dir(release).joinpath("_definitions.json").read_text())


def _file_name(api_version: str, kind: str) -> str:
    """kubernetes-validate's naming: `scheduling.k8s.io/v1beta1` + PodGroup -> podgroup-scheduling-v1beta1.json."""
    group_version = _GROUP_PREFIX.sub(r"\1-", api_version)
    return f"{kind.lower()}-{group_version}.json"


@functools.lru_cache(maxsize=None)
def validator(release: str, api_version: str, kind: str) -> Any | None:
    """The compiled validator, or None when the release has no schema for this apiVersion/kind."""
    path = _schema_dir(release).joinpath(_file_name(api_version, kind))
    try:
        schema = json.loads(path.read_text())
    except (FileNotFoundError, NotADirectoryError):
        return None
    schema["$id"] = _ID_BASE + _file_name(api_version, kind)
    definitions = _definitions(release)
    return jsonschema_rs.validator_for(schema, retriever=lambda _uri: definitions)


def first_error(release: str, obj: dict) -> tuple[tuple, str] | None:
    """(field path, message) of the first schema violation; ("apiVersion",) when no schema exists."""
    check = validator(release, str(obj.get("apiVersion")), str(obj.get("kind")))
    if check is None:
        return ("apiVersion",), f"Kubernetes {release} serves no {obj.get('apiVersion')} {obj.get('kind')}"
    for error in check.iter_errors(obj):
        return tuple(error.instance_path), error.message
    return None
