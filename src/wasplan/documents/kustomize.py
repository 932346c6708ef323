"""Kustomize patches among the inputs: files a kustomization lists as patches are partial objects, not manifests.

A strategic-merge patch (`patchesStrategicMerge: [replicas.yaml]`, or `patches: [{path: replicas.yaml}]`) holds
only the fields it changes, so validating it as an object reports missing required fields that the base
supplies; a JSON 6902 patch (`patchesJson6902: [{path: ...}]`, or a `patches` entry whose file is a list of
operations) is not an object at all. Kustomize's own reading of the kustomization file is the reference
(kubernetes-sigs/kustomize `api/types/kustomization.go`: `Patches []Patch` with `Path`, `PatchesStrategicMerge
[]PatchStrategicMerge` of file names or inline patches, `PatchesJson6902 []Patch`; paths are relative to the
kustomization's directory; a kustomization file is `kustomization.yaml`, `kustomization.yml` or
`Kustomization`, and may leave out apiVersion and kind). Such files are skipped with WAS033, like templates, with
the `kubectl kustomize DIR | wasplan validate -` command that checks what kustomize builds from them.

Only kustomizations that are inputs, or that sit beside an input file, are read; patch paths are only compared
with the input files, never opened, so a path in a kustomization cannot make wasplan read anything else.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

KUSTOMIZATION_FILES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
_KINDS = (None, "Kustomization", "Component")
_PATCH_FIELDS = ("patches", "patchesStrategicMerge", "patchesJson6902")


@dataclass(frozen=True)
class PatchRef:
    """Where a kustomization lists a patch file: the kustomization, the field, the entry's line."""

    kustomization: str
    field: str
    line: int | None

    @property
    def directory(self) -> str:
        return os.path.dirname(self.kustomization) or "."


def _key(path: str) -> str:
    return os.path.normpath(path)


def _kustomizations(files: Sequence[str]) -> list[str]:
    """The kustomization files among the inputs, and those beside an input file, each once, in input order."""
    found: dict[str, None] = {}
    directories: dict[str, None] = {}
    for path in files:
        if os.path.basename(path) in KUSTOMIZATION_FILES:
            found[path] = None
        directories[os.path.dirname(path)] = None
    for directory in directories:
        for name in KUSTOMIZATION_FILES:
            candidate = os.path.join(directory, name) if directory else name
            if _key(candidate) not in {_key(p) for p in found} and os.path.isfile(candidate):
                found[candidate] = None
    return list(found)


def _entries(obj: dict) -> Iterable[tuple[str, int, str]]:
    """(field, index, path) of every patch file a kustomization names; inline patches name none."""
    for field in _PATCH_FIELDS:
        items = obj.get(field)
        for i, item in enumerate(items if isinstance(items, list) else ()):
            path = item.get("path") if isinstance(item, dict) else item if field == "patchesStrategicMerge" else None
            if isinstance(path, str) and path and "\n" not in path:
                yield field, i, path


def patch_files(files: Sequence[str], read_documents: Callable[[str], list]) -> dict[str, PatchRef]:
    """Normalised input path -> where a kustomization lists it as a patch. `read_documents(path)` reads a
    kustomization with the reader's own limits (documents with positions; none for an unreadable file)."""
    wanted = {_key(p) for p in files}
    out: dict[str, PatchRef] = {}
    for kustomization in _kustomizations(files):
        for doc in read_documents(kustomization):
            if not isinstance(doc.obj, dict) or doc.obj.get("kind") not in _KINDS:
                continue
            base = os.path.dirname(kustomization)
            for field, i, path in _entries(doc.obj):
                target = _key(os.path.join(base, path))
                if target in wanted and target not in out:
                    line = doc.location((field, i) if field == "patchesStrategicMerge" else (field, i, "path")).line
                    out[target] = PatchRef(kustomization, field, line)
    return out


def lookup(patches: dict[str, PatchRef], path: str) -> PatchRef | None:
    return patches.get(_key(path)) if patches else None
