"""The committed schema files and the loader in wasplan.validate.schemas."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from wasplan.validate import schemas

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = {
    ("scheduling.k8s.io/v1alpha1", "Workload"),
    ("scheduling.k8s.io/v1alpha2", "Workload"), ("scheduling.k8s.io/v1alpha2", "PodGroup"),
    ("scheduling.k8s.io/v1alpha3", "Workload"), ("scheduling.k8s.io/v1alpha3", "PodGroup"),
    ("scheduling.k8s.io/v1alpha3", "CompositePodGroup"),
    ("scheduling.k8s.io/v1beta1", "Workload"), ("scheduling.k8s.io/v1beta1", "PodGroup"),
}
SCHEDULING = sorted(EXPECTED | {(v, f"{k}List") for v, k in EXPECTED})


def test_available_lists_every_kind_and_its_list():
    assert set(SCHEDULING) <= set(schemas.available())
    assert schemas.available() == sorted(schemas.available())


@pytest.mark.parametrize("api_version,kind", SCHEDULING)
def test_schema_is_valid_draft_2020_12(api_version, kind):
    schema = schemas.load_schema(api_version, kind)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://wasplan.io/schemas/{api_version}/{kind}.json"
    assert schema["type"] == "object"


def _walk(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def _refs(node) -> set[str]:
    return {n["$ref"].rsplit("/", 1)[-1] for n in _walk(node) if isinstance(n.get("$ref"), str)}


@pytest.mark.parametrize("api_version,kind", SCHEDULING)
def test_schema_is_self_contained_and_minimal(api_version, kind):
    schema = schemas.load_schema(api_version, kind)
    defs = schema["$defs"]
    refs = {n["$ref"] for n in _walk(schema) if "$ref" in n}
    assert all(r.startswith("#/$defs/") for r in refs), "a reference leaves the file"
    reached, todo = set(), list(_refs({k: v for k, v in schema.items() if k != "$defs"}))
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo.extend(_refs(defs[name]))
    assert reached == set(defs), "every definition is reachable and every reference resolves"


@pytest.mark.parametrize("api_version,kind", SCHEDULING)
def test_no_upstream_prose(api_version, kind):
    schema = schemas.load_schema(api_version, kind)
    with_description = [n for n in _walk(schema) if "description" in n and isinstance(n["description"], str)]
    assert with_description == [schema], "only our own top-level description may be present"


@pytest.mark.parametrize("api_version,kind", SCHEDULING)
def test_api_version_and_kind_are_pinned(api_version, kind):
    v = schemas.validator(api_version, kind)
    doc = {"apiVersion": api_version, "kind": kind}
    assert not v.is_valid({**doc, "apiVersion": "scheduling.k8s.io/v9"})
    assert not v.is_valid({**doc, "kind": "Other"})


def test_empty_structs_are_closed():
    """Every scheduling type without properties is an empty union member and must reject any field."""
    for api_version, kind in SCHEDULING:
        for name, definition in schemas.load_schema(api_version, kind)["$defs"].items():
            if name.startswith("io.k8s.api.scheduling.") and "properties" not in definition:
                assert definition.get("additionalProperties") is False, name


def test_unknown_kinds_have_no_schema():
    assert schemas.load_schema("v1", "Pod") is None
    assert schemas.load_schema("scheduling.k8s.io/v1alpha2", "CompositePodGroup") is None
    assert schemas.load_schema("scheduling.k8s.io/v1beta1", "../v1alpha3/Workload") is None
    assert schemas.load_schema("../scheduling.k8s.io", "Workload") is None
    assert schemas.validator("example.com/v1", "Widget") is None


def test_validator_is_compiled_once():
    first = schemas.validator("scheduling.k8s.io/v1beta1", "PodGroup")
    assert first is schemas.validator("scheduling.k8s.io/v1beta1", "PodGroup")
    assert first.is_valid({"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup",
                           "metadata": {"name": "g"}, "spec": {"schedulingPolicy": {"gang": {"minCount": 4}}}})


def test_load_schema_returns_a_private_copy():
    a = schemas.load_schema("scheduling.k8s.io/v1beta1", "PodGroup")
    a["properties"].clear()
    assert schemas.load_schema("scheduling.k8s.io/v1beta1", "PodGroup")["properties"]


def test_schema_files_match_the_source_tree():
    listed = {rel: json.loads(item.read_text(encoding="utf-8")) for rel, item in schemas.schema_files()}
    on_disk = {p.relative_to(ROOT / "schemas").as_posix(): json.loads(p.read_text(encoding="utf-8"))
               for p in (ROOT / "schemas").rglob("*.json")}
    assert listed == on_disk


def test_loader_is_generic_over_group_version_kind(tmp_path, monkeypatch):
    """A kind of another group (e.g. wasplan.io's own) is found by its path alone."""
    target = tmp_path / "wasplan.io" / "v1alpha1"
    target.mkdir(parents=True)
    (target / "Cluster.json").write_text(json.dumps(
        {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ["nodes"]}))
    monkeypatch.setattr(schemas, "schema_root", lambda: tmp_path)
    for fn in (schemas.available, schemas._index, schemas._load_text, schemas.validator):
        fn.cache_clear()
    try:
        assert schemas.available() == [("wasplan.io/v1alpha1", "Cluster")]
        assert not schemas.validator("wasplan.io/v1alpha1", "Cluster").is_valid({})
        assert schemas.validator("wasplan.io/v1alpha1", "Cluster").is_valid({"nodes": []})
    finally:
        monkeypatch.undo()
        for fn in (schemas.available, schemas._index, schemas._load_text, schemas.validator):
            fn.cache_clear()


def test_no_input_becomes_a_path():
    """Schemas are looked up in the index of shipped files: a kind of 300 characters (once `File name too
    long`) or one that climbs out of the schema directory is simply unknown."""
    for api_version, kind in (("scheduling.k8s.io/v1beta1", "K" * 300), ("scheduling.k8s.io/v1beta1", "../v1beta1/PodGroup"),
                              ("scheduling.k8s.io/../scheduling.k8s.io/v1beta1", "PodGroup"), ("a/b/c", "PodGroup")):
        assert schemas.load_schema(api_version, kind) is None
