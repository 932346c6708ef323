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

wasplan does not build kustomizations: no maintained Python library implements `kubectl kustomize` (strategic
merge with the k8s.io/api merge keys, JSON 6902, the name and label transformers), and a partial build would
plan objects kustomize never emits. So a kustomization among the inputs whose build differs from its files read
as they are -- one that names a resource that is not an input (`../base`, a remote base), or any field that
transforms or generates objects (namePrefix, namespace, labels, patches, images, replicas, generators,
components, helmCharts, replacements, ...) -- is reported by `builds` for `plan` and `explain` to refuse (WAS034,
exit 2) with the `kubectl kustomize DIR | wasplan plan -` command, instead of planning the base alone, or
nothing, and saying everything fits. A kustomization that only lists input files as resources builds exactly
those files and is read through.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

KUSTOMIZATION_FILES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
_KINDS = (None, "Kustomization", "Component")
_PATCH_FIELDS = ("patches", "patchesStrategicMerge", "patchesJson6902")
# fields of a kustomization that do not change what it builds (kustomize api/types/kustomization.go)
_INERT_FIELDS = ("apiVersion", "kind", "metadata", "resources", "bases", "sortOptions", "openapi",
                 "buildMetadata")
_RESOURCE_FIELDS = ("resources", "bases")


@dataclass(frozen=True)
class BuildNeeded:
    """A kustomization among the inputs that only `kubectl kustomize` can build: the first field that makes it
    so (in file order), its line, and the other fields that do."""

    kustomization: str
    field: str
    line: int | None
    col: int | None
    detail: str  # what the field holds that needs a build
    others: tuple[str, ...]

    @property
    def directory(self) -> str:
        return os.path.dirname(self.kustomization) or "."


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


def _outside(obj: dict, base: str, wanted: set[str]) -> Iterable[tuple[str, int, str]]:
    """(field, index, entry) of every resource the kustomization names that is not an input file: a directory
    (another kustomization), a remote base, a file left out of the inputs."""
    for field in _RESOURCE_FIELDS:
        items = obj.get(field)
        for i, item in enumerate(items if isinstance(items, list) else ()):
            if not isinstance(item, str) or _key(os.path.join(base, item)) not in wanted:
                yield field, i, str(item)


def _what(entry: str, base: str) -> str:
    """Why a resource entry needs a build: a remote base, another kustomization, or a file not given."""
    if "://" in entry or entry.startswith(("github.com/", "git@")):
        return f"{entry!r} is a remote base"
    if os.path.isdir(os.path.join(base, entry)):  # a stat, never a read
        return f"{entry!r} is a kustomization directory to build"
    return f"{entry!r} is not among the inputs"


def _needs(doc, base: str, wanted: set[str]) -> list[tuple[tuple, str, str]]:
    """(field path, field, detail) of everything that makes this kustomization's build differ from its files."""
    found = [((field, i), field, _what(entry, base)) for field, i, entry in _outside(doc.obj, base, wanted)]
    found += [((key,), key, "transforms or generates objects") for key, value in doc.obj.items()
              if key not in _INERT_FIELDS and value not in (None, "", [], {})]
    return sorted(found, key=lambda item: doc.location(item[0]).line or 0)


def builds(files: Sequence[str], read_documents: Callable[[str], list]) -> list[BuildNeeded]:
    """The kustomizations among `files` that `kubectl kustomize` must build before their objects mean what the
    user deploys, in input order. Kustomizations beside an input file that is named on its own are not asked:
    the user named the file, not the build."""
    wanted = {_key(p) for p in files}
    out = []
    for kustomization in (f for f in files if os.path.basename(f) in KUSTOMIZATION_FILES):
        for doc in read_documents(kustomization):
            if not isinstance(doc.obj, dict) or doc.obj.get("kind") not in _KINDS:
                continue
            found = _needs(doc, os.path.dirname(kustomization), wanted)
            if found:
                path, field, detail = found[0]
                others = tuple(dict.fromkeys(f for _, f, _ in found[1:] if f != field))
                where = doc.location(path)
                out.append(BuildNeeded(kustomization, field, where.line, where.col, detail, others))
    return out
