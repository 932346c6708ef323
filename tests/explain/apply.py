"""Applies an explain suggestion's changes to copies of the fixture files, the way a person would edit them,
then plans the edited files with the real `wasplan plan` CLI: the independent check that a suggestion works."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

from tests.cli.helpers import run


def _docs(path: Path) -> list:
    return [d for d in yaml.safe_load_all(path.read_text()) if d is not None]


def _describe(doc: dict) -> str:
    meta = doc.get("metadata") or {}
    ns = f"{meta['namespace']}/" if meta.get("namespace") else ""
    return f"{doc.get('kind')}/{ns}{meta.get('name')}"


def _target_doc(docs: list, change: dict) -> dict:
    obj = change["object"]
    for doc in docs:
        if obj == _describe(doc) or obj.startswith(_describe(doc) + " ") or \
                (doc.get("kind") == "Cluster" and obj.startswith(("Cluster/", "Cluster pod"))):
            return doc
    raise AssertionError(f"no document for {obj}")


def _set(doc: dict, path: list, value, action: str) -> None:
    parent = doc
    for part in path[:-1]:
        if isinstance(parent, dict):
            parent = parent.setdefault(part, [] if isinstance(path[path.index(part) + 1], int) else {})
        else:
            parent = parent[part]
    last = path[-1]
    if action == "remove":
        del parent[last]
    elif action == "delete":
        parent.pop(last)
    elif action == "add" and isinstance(last, int):
        parent.append(value)
    else:
        parent[last] = value


def apply_changes(changes: list[dict], root: Path, workdir: Path) -> None:
    """Edit the copies under `workdir` (files named relative to `root`). List indexes refer to the original
    file, so deletions go last and from the highest index down."""
    def later_first(c: dict):
        index = c["path"][-1] if c["action"] == "delete" and c["path"] and isinstance(c["path"][-1], int) else -1
        return (c["action"] == "delete", -index)
    for change in sorted(changes, key=later_first):
        path = workdir / Path(change["file"]).resolve().relative_to(root.resolve())
        docs = _docs(path)
        if change["action"] == "add" and not change["path"]:  # a new object
            docs.append(change["value"])
            path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
            continue
        doc = _target_doc(docs, change)
        if change["action"] == "delete" and not change["path"]:
            docs.remove(doc)
        else:
            _set(doc, change["path"], change["value"], change["action"])
        path.write_text(yaml.safe_dump_all(docs, sort_keys=False))


def plan_places(workdir: Path, manifests: list[str], cluster: str, group: str, *flags: str) -> bool:
    result = run("plan", *[str(workdir / m) for m in manifests], "--cluster", str(workdir / cluster), "-o", "json",
                 "--fail-on", "never", *flags)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    return any(f"{g['namespace']}/{g['name']}" == group and g["status"] == "Scheduled" for g in doc["podGroups"])


def copy_fixture(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst
