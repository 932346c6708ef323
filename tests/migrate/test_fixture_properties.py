"""Properties every fixture output must have: only the changed fields' lines differ from the input, and the
output passes `wasplan validate` and the upstream strict schemas of the target release."""

from __future__ import annotations

import json
from difflib import SequenceMatcher
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

from .harness import CASES, files_of, load, run_in_place
from wasplan.api.releases import default_gates, get_release
from wasplan.diagnostics import Severity
from wasplan.pipeline.validate import validate_paths
from wasplan.validate.core_schemas import core_validator, own_upstream_schemas

MIGRATING = [c for c in CASES if load(c).exit == 0]


def _node_range(root, path: list) -> tuple[int, int, bool] | None:
    """(first line, last line, exists) of the field at `path`; for a missing leaf, its parent's range."""
    node, first, exists = root, root.start_mark.line, True
    for elem in path:
        if isinstance(elem, int) and node.id == "sequence" and elem < len(node.value):
            node = node.value[elem]
            first = node.start_mark.line
        elif node.id == "mapping" and any(k.value == elem for k, _ in node.value):
            key, node = next((k, v) for k, v in node.value if k.value == elem)
            first = key.start_mark.line
        else:
            exists = False
            break
    end = node.end_mark.line - (1 if node.end_mark.column == 0 else 0)
    return first, max(end, first), exists


def _parse_path(field: str) -> list:
    out: list = []
    for part in field.replace("[", ".[").split("."):
        if part.startswith("["):
            out.append(int(part[1:-1]))
        elif part:
            out.append(part)
    return out


def _allowed(text: str, changes: list[dict]) -> list[tuple[int, int, bool]]:
    docs = list(yaml.compose_all(text, Loader=yaml.CSafeLoader))
    return [_node_range(docs[c["document"]], _parse_path(c["field"])) for c in changes]


@pytest.mark.parametrize("name", MIGRATING)
def test_only_lines_of_changed_fields_differ(name, tmp_path):
    case = load(name)
    _, report, written = run_in_place(case, tmp_path)
    before = files_of(case.input)
    for entry in report["files"]:
        rel = str(Path(entry["file"]).relative_to(tmp_path / case.input.name)) if case.input.is_dir() else ""
        old, new = before[rel].decode(), written[rel].decode()
        ranges = _allowed(old, entry["changes"])
        for tag, i1, i2, _, _ in SequenceMatcher(None, old.splitlines(), new.splitlines(), autojunk=False).get_opcodes():
            if tag == "equal":
                continue
            if i1 == i2:  # pure insertion: it must sit inside or right after a changed field's parent
                assert any(a <= i1 <= b + 1 for a, b, _ in ranges), (name, rel, i1)
                continue
            for line in range(i1, i2):  # a field added to a one-line flow parent rewrites that line
                assert any(a <= line <= b for a, b, exists in ranges if exists or a == b), \
                    (name, rel, line + 1, old.splitlines()[line])


def _objects(path: Path, data: bytes):
    docs = [json.loads(data)] if path.suffix == ".json" else list(yaml.safe_load_all(data))
    for doc in docs:
        if isinstance(doc, dict) and doc.get("kind") == "List":
            yield from doc["items"]
        elif isinstance(doc, dict):
            yield doc


@pytest.mark.parametrize("name", MIGRATING)
def test_output_passes_upstream_strict_schemas(name):
    case = load(name)
    checked = 0
    for rel, data in files_of(case.expected).items():
        for obj in _objects(case.expected / rel if rel else case.expected, data):
            if own_upstream_schemas(case.release):  # 1.38: the same schemas, made by tools/gen_core_schemas.py
                validator = core_validator(case.release, obj["apiVersion"], obj["kind"], raw=True)
                assert validator is not None and validator.is_valid(obj), obj
                checked += 1
                continue
            try:
                kubernetes_validate.validate(obj, case.release, strict=True)
            except kubernetes_validate.SchemaNotFoundError:
                assert obj.get("kind") == "Kustomization", obj.get("kind")
                continue
            checked += 1
    assert checked


@pytest.mark.parametrize("name", MIGRATING)
def test_output_passes_wasplan_validate(name):
    case = load(name)
    report = validate_paths([str(case.expected)], default_gates(get_release(case.release)))
    errors = [d for d in report.diagnostics if d.severity is Severity.ERROR]
    assert not errors, [(d.code, d.message) for d in errors]
    assert report.counts()["valid"] > 0
