"""Seeded mutation fuzzer for the validate differential tests (issue 22 item 4).

Seeds are the documents of the project's fixtures and shipped examples whose kind both validators check. Each
mutant changes one thing a user gets wrong: a number out of range, a value of the wrong JSON type, a missing
or an unknown field, a duplicated list-map key, an invalid name. Gate-dependent fields are covered by running
the same mutants under several gate profiles (see test_validate_oracle.py). Same seed, same mutants.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import yaml

ROOT = Path(__file__).resolve().parents[2]
SEED_DIRS = ("fixtures",)
KINDS = {"Workload", "PodGroup", "CompositePodGroup", "Pod", "Job", "PriorityClass", "ResourceClaim",
         "ResourceClaimTemplate", "DeviceClass", "ResourceSlice"}
# mistakes: files that do not read, on purpose; public: other projects' manifests (their own CRDs, which no API
# server here serves), compared as they are by tests/oracle/test_public_corpus.py
SKIP_PARTS = {"node_modules", "charts", "messy-repo", "mistakes", "public"}

OUT_OF_RANGE = (0, -1, 2**31, 1_000_000_001, 100_001)
BAD_NAMES = ("Bad_Name", "-x", "a" * 254, "UPPER", "has space")
WRONG_TYPES: dict[type, tuple] = {int: ("7", True, [1]), str: (12, False, {"a": 1}), bool: ("yes", 1),
                                  dict: ([], "x", 3), list: ({}, "x")}


@dataclass(frozen=True)
class Mutant:
    seed: str  # file:index of the seed document
    mutation: str  # what was changed, for the failure message
    doc: dict


def seed_documents() -> list[tuple[str, dict]]:
    """(origin, document) for every fixture document of a validated kind, in a stable order."""
    out = []
    for base in SEED_DIRS:
        for path in sorted((ROOT / base).rglob("*.yaml")):
            if SKIP_PARTS & set(path.parts):
                continue
            try:
                docs = list(yaml.safe_load_all(path.read_text()))
            except (yaml.YAMLError, UnicodeDecodeError):
                continue
            for i, doc in enumerate(docs):
                for item in _items(doc):
                    if (isinstance(item, dict) and item.get("kind") in KINDS and isinstance(item.get("apiVersion"), str)
                            and _kubernetes_group(item["apiVersion"])):
                        out.append((f"{path.relative_to(ROOT)}:{i}", item))
    return out


def _kubernetes_group(api_version: str) -> bool:
    """A group the API server itself serves: a PodGroup of scheduler-plugins (scheduling.x-k8s.io,
    scheduling.sigs.k8s.io) shares the kind's name but is another project's CRD, outside this comparison."""
    group = api_version.rpartition("/")[0]
    return "." not in group or (group.endswith(".k8s.io") and not group.endswith(("x-k8s.io", "sigs.k8s.io")))


def _items(doc: Any) -> list:
    if isinstance(doc, dict) and isinstance(doc.get("items"), list) and str(doc.get("kind", "")).endswith("List"):
        return doc["items"]
    return [doc]


def _paths(obj: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """Every (path, value) below obj, depth first; apiVersion and kind are left alone."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            if path == () and key in ("apiVersion", "kind"):
                continue
            yield path + (key,), value
            yield from _paths(value, path + (key,))
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield path + (i,), value
            yield from _paths(value, path + (i,))


def _parent(doc: dict, path: tuple) -> Any:
    obj = doc
    for key in path[:-1]:
        obj = obj[key]
    return obj


def _show(path: tuple) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _mutate(doc: dict, rng: random.Random) -> tuple[str, dict] | None:
    doc = copy.deepcopy(doc)
    paths = list(_paths(doc))
    if not paths:
        return None
    kind = rng.choice(("range", "type", "missing", "unknown", "duplicate", "name"))
    if kind == "range":
        ints = [(p, v) for p, v in paths if isinstance(v, int) and not isinstance(v, bool)]
        if ints:
            path, _ = rng.choice(ints)
            value = rng.choice(OUT_OF_RANGE)
            _parent(doc, path)[path[-1]] = value
            return f"{_show(path)} = {value}", doc
        kind = "type"
    if kind == "type":
        path, value = rng.choice(paths)
        choices = WRONG_TYPES.get(type(value))
        if choices:
            new = rng.choice(choices)
            _parent(doc, path)[path[-1]] = new
            return f"{_show(path)} = {json.dumps(new)} (was {type(value).__name__})", doc
        kind = "missing"
    if kind == "missing":
        keyed = [(p, v) for p, v in paths if isinstance(p[-1], str)]
        path, _ = rng.choice(keyed)
        del _parent(doc, path)[path[-1]]
        return f"{_show(path)} removed", doc
    if kind == "unknown":
        dicts = [((), doc)] + [(p, v) for p, v in paths if isinstance(v, dict)]
        path, target = rng.choice(dicts)
        target["bogusField"] = 1
        return f"{_show(path + ('bogusField',))} added", doc
    if kind == "duplicate":
        lists = [(p, v) for p, v in paths if isinstance(v, list) and v and isinstance(v[0], dict) and "name" in v[0]]
        if lists:
            path, target = rng.choice(lists)
            target.append(copy.deepcopy(target[0]))
            return f"{_show(path)}: item {target[0].get('name')!r} twice", doc
    names = [(p, v) for p, v in paths if p[-1] in ("name", "podGroupName", "priorityClassName", "workloadName",
                                                   "templateName", "key") and isinstance(v, str)]
    if not names:
        return None
    path, _ = rng.choice(names)
    value = rng.choice(BAD_NAMES)
    _parent(doc, path)[path[-1]] = value
    return f"{_show(path)} = {value[:20]!r}", doc


def mutants(seed: int, per_document: int, seeds: list[tuple[str, dict]] | None = None) -> list[Mutant]:
    """`per_document` mutants of every seed document (plus the seed itself), reproducibly from `seed`."""
    rng = random.Random(seed)
    out = []
    for origin, doc in seeds if seeds is not None else seed_documents():
        out.append(Mutant(origin, "unchanged", doc))
        for _ in range(per_document):
            made = _mutate(doc, rng)
            if made is not None:
                out.append(Mutant(origin, made[0], made[1]))
    return out


def write_stream(mutants_: list[Mutant], path: Path) -> None:
    """One YAML stream, a document per mutant, in JSON flow style (valid YAML, no YAML-only surprises)."""
    path.write_text("".join("---\n" + json.dumps(m.doc) + "\n" for m in mutants_))
