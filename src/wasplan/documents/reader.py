"""Read manifests from files, directories and stdin into `Document`s, never raising on bad input.

Reading is the first thing every command does, on inputs of thousands of documents, so the parse is the
libyaml (C) composer; only the step from nodes to values runs in Python, and it is also where duplicate
keys are caught. JSON files are decoded with the json module and located lazily, only when a finding needs a
position.

Real repositories hold more YAML than manifests (Helm charts and values, compose files, CI workflows), so a
document with neither apiVersion nor kind and a file with template directives are skipped with an info finding
(kubeconform's `-ignore-missing-schemas` / `-skip` are the anchors); `ReadOptions.strict_inputs` makes them
errors again. Files a kustomization lists as patches are skipped too (WAS033, documents/kustomize.py): they are
partial objects that kustomize merges into a base, and stay skipped under `strict_inputs`. What a directory walk leaves out is documents/exclude.py's decision.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import yaml

from wasplan import jsontext
from wasplan.codes import lookup
from wasplan.diagnostics import Diagnostic, Location
from wasplan.documents import jsonlimits, kustomize, limits, yamllist
from wasplan.documents.construct import ConstructError, construct, path_to
from wasplan.documents.jsonpos import JsonLocator
from wasplan.documents.loader import FastLoader
from wasplan.documents.model import Document, SourceFile, locate_in_node
from wasplan.documents.sources import MANIFEST_SUFFIXES, STDIN, STDIN_NAME, ByteProgress, expand_paths, read_file, \
    read_stdin

# Helm's chart metadata carries `apiVersion: v2` but no kind (helm.sh/docs/topics/charts, "The Chart.yaml File")
HELM_CHART_FILES = frozenset({"Chart.yaml", "Chart.yml"})

__all__ = ["MANIFEST_SUFFIXES", "STDIN", "STDIN_NAME", "ReadResult", "expand_paths", "read_bytes", "read_paths",
           "read_text"]

_Loader = FastLoader

# Go/Helm template actions: `{{ .Values.x }}`, `{{- if ... }}`, `{{ include "x" . }}`. Plain `{{word}}` is left
# alone because Argo and others legitimately keep such strings in values.
_TEMPLATE = re.compile(
    r"\{\{-?\s*(?:\.|\$|/\*|(?:if|else|end|range|with|include|template|define|toYaml|tpl|required|default|printf|quote)\b)"
)


@dataclass(frozen=True)
class ReadOptions:
    """How inputs are found and which non-manifests are tolerated (resolved from the command line and config)."""

    exclude: tuple[str, ...] = ()  # gitignore-style patterns, relative to each directory given
    strict_inputs: bool = False  # non-Kubernetes documents and templates are errors, not skipped


@dataclass(frozen=True)
class Skipped:
    """Something read but deliberately not checked: a non-Kubernetes document or a whole template file."""

    file: str
    doc: int | None
    reason: str  # "not-kubernetes" | "template" | "kustomize-patch"


@dataclass
class ReadResult:
    """What reading the inputs gave: the documents, the findings, the sources and what was skipped."""

    documents: list[Document] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, SourceFile] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)
    # kustomizations among the inputs that only `kubectl kustomize` can build (plan and explain refuse them)
    kustomize_builds: list[kustomize.BuildNeeded] = field(default_factory=list)

    def extend(self, other: "ReadResult") -> None:
        base = len(self.documents)
        for i, doc in enumerate(other.documents):
            doc.order = base + i
        self.documents.extend(other.documents)
        self.diagnostics.extend(other.diagnostics)
        self.sources.update(other.sources)
        self.skipped.extend(other.skipped)


def _diag(code: str, message: str, file: str, line: int | None = None, col: int | None = None,
          doc: int | None = None, hint: str | None = None, path: tuple = ()) -> Diagnostic:
    return Diagnostic(code, lookup(code).severity, message, Location(file, doc, path, line, col), hint)


def read_paths(paths: Sequence[str], stdin_text: str | None = None,
               options: ReadOptions = ReadOptions(), progress: ByteProgress | None = None) -> ReadResult:
    """`progress(file, bytes done, bytes in all)` hears of each large file as it is read (for a progress bar)."""
    result = ReadResult()
    files, diags = expand_paths(paths, options.exclude)
    result.diagnostics.extend(diags)
    patches = kustomize.patch_files([f for f in files if f != STDIN], read_mappings)
    result.kustomize_builds = kustomize.builds([f for f in files if f != STDIN], read_mappings)
    for path in files:
        name = STDIN_NAME if path == STDIN else path
        data, problem = read_stdin(stdin_text) if path == STDIN else read_file(path, progress)
        if problem is not None:
            result.diagnostics.append(problem)
            continue
        ref = kustomize.lookup(patches, path) if path != STDIN else None
        if ref is not None:
            result.extend(_patch(name, data, ref))
            continue
        text, problem = _decode(name, data)
        data = None  # a dump's bytes are not kept beside its text while it is parsed
        result.extend(_read_decoded(name, text, problem, options, progress))
    return result


def _patch(name: str, data: bytes, ref: kustomize.PatchRef) -> ReadResult:
    """A file a kustomization lists as a patch: kept for its text, skipped with WAS033 (documents/kustomize.py)."""
    result = ReadResult()
    text, problem = _decode(name, data)
    if problem is not None:
        result.diagnostics.append(problem)
        return result
    result.sources[name] = SourceFile(name, text)
    where = f"{ref.kustomization}:{ref.line}" if ref.line else ref.kustomization
    result.diagnostics.append(_diag(
        "WAS033", f"kustomize patch skipped: {where} lists it under {ref.field}; a patch holds only the fields it "
        "changes, not a whole object", name, 1, 1,
        hint=f"check what kustomize builds from it: `kubectl kustomize {ref.directory} | wasplan validate -`"))
    result.skipped.append(Skipped(name, None, "kustomize-patch"))
    return result


def read_mappings(path: str) -> list[Document]:
    """Every mapping document of a file, with positions, whatever its apiVersion and kind (a kustomization may
    have neither); nothing for a file that cannot be read, decoded or parsed. The same limits as every input."""
    data, problem = read_file(path)
    text, problem = _decode(path, data) if problem is None and data is not None else (None, problem)
    if problem is not None or text is None or _TEMPLATE.search(text):
        return []
    out: list[Document] = []
    loader = _Loader(text)
    try:
        while loader.check_node() and len(out) < limits.MAX_DOCUMENTS:
            node = loader.get_node()
            value = construct(node, lambda *_: None, "*" in text)
            if isinstance(value, dict):
                out.append(Document(path, len(out), value, node, None, None))
    except (yaml.YAMLError, ConstructError):
        return out
    finally:
        loader.dispose()
    return out


def _decode(name: str, data: bytes) -> tuple[str | None, Diagnostic | None]:
    if b"\x00" in data:
        nul = data.index(b"\x00")
        line = data.count(b"\n", 0, nul) + 1
        return None, _diag("WAS002", "binary file (NUL byte found); not a manifest", name, line, 1)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, _diag("WAS003", f"not valid UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded", name, line, col)
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, None


def read_bytes(name: str, data: bytes, options: ReadOptions = ReadOptions()) -> ReadResult:
    return _read_decoded(name, *_decode(name, data), options)


def _read_decoded(name: str, text: str | None, problem: Diagnostic | None, options: ReadOptions,
                  progress: ByteProgress | None = None) -> ReadResult:
    result = ReadResult()
    if problem is not None:
        result.diagnostics.append(problem)
        return result
    assert text is not None
    result.sources[name] = SourceFile(name, text)
    match = _TEMPLATE.search(text)
    if match:
        _template(result, name, text, match, options.strict_inputs)
        return result
    if name.endswith(".json") or (name == STDIN_NAME and text.lstrip().startswith(("{", "["))):
        json_result = _read_json(name, text, options.strict_inputs)
        if json_result is not None:
            json_result.sources = result.sources
            for doc in json_result.documents:
                doc.text = text
            return json_result
    _read_yaml(name, text, result, options.strict_inputs, progress)
    for doc in result.documents:
        doc.text = text  # for positions inside block scalars (CEL expressions); shared, not copied
    return result


def _template(result: ReadResult, name: str, text: str, match: re.Match, strict: bool) -> None:
    line = text.count("\n", 0, match.start()) + 1
    col = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
    shown = "-" if name == STDIN_NAME else name
    hint = f"render it first and validate the output: `helm template ... | wasplan validate -` (file: {shown})"
    if strict:
        result.diagnostics.append(_diag(
            "WAS008", f"template directive {match.group(0)!r}...: this is a template, not a manifest", name, line, col,
            hint=hint))
        return
    result.diagnostics.append(_diag(
        "WAS031", f"template file skipped: template directive {match.group(0)!r}... found", name, line, col, hint=hint))
    result.skipped.append(Skipped(name, None, "template"))


def _read_json(name: str, text: str, strict: bool) -> ReadResult | None:
    """JSON through `jsontext`. None (the YAML path reads and reports it, with a position) when the text is not
    JSON or breaks a limit (`jsonlimits`) outside the items of a List; items at fault are left out, each with a
    finding at its position."""
    try:
        value, exact = jsontext.loads_exact(text)
    except (ValueError, RecursionError):
        return None  # let the YAML path report the syntax error with a position
    faulty: dict[int, jsonlimits.Problem] = {}
    check_strings = not exact and _SURROGATE.search(text) is not None
    if (not exact or jsonlimits.too_deep(value)) and jsonlimits.first_problem(value, check_strings) is not None:
        if not isinstance(value, dict) or not _is_list_kind(value) or jsonlimits.first_problem(
                {k: v for k, v in value.items() if k != "items"}, check_strings) is not None:
            return None
        faulty = {i: p for i, item in enumerate(value["items"])
                  if (p := jsonlimits.first_problem(item, check_strings, depth=3)) is not None}
    result = ReadResult()
    locator = JsonLocator(text, _Loader)
    _add_object(result, name, 0, value, None, locator, strict, faulty)
    return result


_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _read_yaml(name: str, text: str, result: ReadResult, strict: bool, progress: ByteProgress | None = None) -> None:
    if _read_yaml_list(name, text, result, progress):
        return
    loader = _Loader(text)
    index = 0
    aliases = "*" in text  # an alias needs a `*`; without one, construction skips counting them
    try:
        while True:
            node = _next_node(loader, name, text, index, result)
            if node is None:
                return
            if index == limits.MAX_DOCUMENTS:
                result.diagnostics.append(_diag(
                    "WAS012", f"more than {limits.MAX_DOCUMENTS:,} documents in one file; the rest is not read",
                    name, node.start_mark.line + 1, node.start_mark.column + 1, doc=index))
                return
            _construct_document(name, index, node, result, aliases, strict)
            index += 1
            if progress is not None and index % yamllist.REPORT_EVERY == 0:
                progress(name, node.end_mark.index, len(text))  # a file of many documents: how far parsing is
    finally:
        loader.dispose()


def _read_yaml_list(name: str, text: str, result: ReadResult, progress: ByteProgress | None = None) -> bool:
    """A kubectl-style List read entry by entry (documents/yamllist.py), when every entry becomes a document
    without a finding; False leaves the file to the whole-document path, which reports what there is.
    `progress` hears how far into the text the entries read have come (characters: bytes for ASCII)."""
    layout = yamllist.split(text) if len(text) > _ENTRY_BY_ENTRY else None
    parsed = None if progress is None else (lambda done: progress(name, done, len(text)))
    read = yamllist.read_items(text, layout, parsed) if layout is not None else None
    if read is None:
        return False
    head, items = read
    if not _is_list_kind({**head, "items": items}) or any(
            not isinstance(head.get(k), str) or not head.get(k) for k in ("apiVersion", "kind")):
        return False
    list_kind = head["kind"]
    default_kind = list_kind[: -len("List")] if list_kind != "List" else None
    documents = []
    for i, (entry, item) in enumerate(zip(layout.entries, items)):
        if default_kind and ("kind" not in item or "apiVersion" not in item):
            item = {"apiVersion": head["apiVersion"], "kind": default_kind, **item}
        if any(not isinstance(item.get(k), str) or not item.get(k) for k in ("apiVersion", "kind")):
            return False
        documents.append(Document(name, 0, item, None, i, yamllist.relocator(text, entry)))
    result.documents.extend(documents)
    return True


# below this many characters a List is read whole: entry by entry saves memory only on large dumps
_ENTRY_BY_ENTRY = 1024 * 1024


def _next_node(loader, name: str, text: str, index: int, result: ReadResult) -> yaml.Node | None:
    """The next document's node; None at the end of the stream or after a syntax error (reported)."""
    try:
        if not loader.check_node():
            return None
        return loader.get_node()
    except yaml.MarkedYAMLError as exc:
        result.diagnostics.append(_syntax_diag(exc, text, name, index))
    except yaml.YAMLError as exc:
        result.diagnostics.append(_diag("WAS004", f"YAML error: {exc}", name, doc=index))
    return None


def _syntax_diag(exc: yaml.MarkedYAMLError, text: str, name: str, index: int) -> Diagnostic:
    """WAS004 at the parser's mark; when a tab stands in the indentation of that line (or at the mark), the
    finding says so and points at the tab: YAML indents with spaces only, and the parser's own words ("found
    character that cannot start any token") do not name the character."""
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
    problem = exc.problem or "syntax error"
    context = f" ({exc.context})" if exc.context else ""
    if "maximum nesting depth" in problem:  # PyYAML 6.0.4's libyaml stops at its own depth limit, far past ours
        return _diag("WAS013", f"nesting deeper than {limits.MAX_DEPTH} levels", name, line, col, doc=index)
    tab = _tab_column(text, mark) if mark else None
    if tab is None:
        return _diag("WAS004", f"YAML syntax error: {problem}{context}", name, line, col, doc=index)
    return _diag("WAS004", f"YAML syntax error: a tab character at line {line}, column {tab}; YAML indents with "
                           f"spaces only (the parser: {problem}{context})", name, line, tab, doc=index,
                 hint="replace the tab with spaces (an editor's \"indent using spaces\" setting keeps them out)")


def _tab_column(text: str, mark) -> int | None:
    """The 1-based column of the tab that broke the line at `mark`: one in the line's indentation or at the
    mark itself; None when the line has neither (a tab elsewhere, between a key and its value, is legal YAML)."""
    lines = text.splitlines()
    if mark.line >= len(lines):
        return None
    row = lines[mark.line]
    indent = len(row) - len(row.lstrip(" \t"))
    for column, char in enumerate(row[: max(indent, mark.column + 1)]):
        if char == "\t" and (column < indent or column == mark.column):
            return column + 1
    return None


def _construct_document(name: str, index: int, node: yaml.Node, result: ReadResult, aliases: bool,
                        strict: bool) -> None:
    def on_duplicate(key_node: yaml.Node, path: tuple) -> None:
        m = key_node.start_mark
        result.diagnostics.append(_diag(
            "WAS005", f"duplicate key {path[-1]!r}: the later value would silently replace the earlier one",
            name, m.line + 1, m.column + 1, doc=index, path=path))

    try:
        value = construct(node, on_duplicate, aliases)
    except ConstructError as exc:
        m = exc.node.start_mark
        result.diagnostics.append(_diag(exc.code, exc.message, name, m.line + 1, m.column + 1, doc=index,
                                        path=path_to(node, exc.node)))
        return
    _add_object(result, name, index, value, node, None, strict)


def _oversized(node) -> bool:
    return node is not None and node.end_mark.index - node.start_mark.index > limits.MAX_OBJECT_BYTES


def _size_diag(name: str, index: int, node, what: str, path: tuple = ()) -> Diagnostic:
    return _diag("WAS012", f"{what} is larger than {limits.mib(limits.MAX_OBJECT_BYTES)}, the API server's request "
                           "limit; not read", name, node.start_mark.line + 1, node.start_mark.column + 1,
                 doc=index, path=path)


def _untyped(name: str, index: int, value: dict, missing: list[str], pos: tuple) -> Diagnostic:
    """WAS007 naming what the document lacks and what it is: `Workload "trainer" has no apiVersion`. The missing
    fields ride along as `data.missing`, so a summary can say "1 document without apiVersion" (the file was read:
    it is not a file that could not be)."""
    kind = value.get("kind") if isinstance(value.get("kind"), str) and value.get("kind") else None
    meta = value.get("metadata")
    named = meta.get("name") if isinstance(meta, dict) and isinstance(meta.get("name"), str) else None
    what = f"{kind} {named!r}".replace("'", '"') if kind and named else kind or "document"
    lacks = " and no ".join(missing)
    diag = _diag("WAS007", f"{what} has no {lacks}; a Kubernetes object needs apiVersion and kind", name,
                 *pos, doc=index, path=(missing[0],),
                 hint="an object starts with `apiVersion: GROUP/VERSION` and `kind: KIND` (`wasplan schema` lists "
                      "the scheduling kinds and their versions)" if missing == ["apiVersion"] else None)
    diag.data["missing"] = list(missing)
    return diag


def _is_list_kind(value: dict) -> bool:
    kind = value.get("kind")
    return isinstance(kind, str) and kind.endswith("List") and isinstance(value.get("items"), list)


def _add_object(result: ReadResult, name: str, index: int, value, node, locator, strict: bool = False,
                faulty: dict | None = None) -> None:
    if value is None or value == {} and node is not None and node.id == "scalar":
        return  # empty document
    pos = (node.start_mark.line + 1, node.start_mark.column + 1) if node is not None else (None, None)
    if not isinstance(value, dict):
        kind = "a list" if isinstance(value, list) else f"a {type(value).__name__} scalar"
        result.diagnostics.append(_diag("WAS006", f"document is {kind}, not a Kubernetes object (mapping)", name, *pos, doc=index))
        return
    if not value:
        return
    missing = [k for k in ("apiVersion", "kind") if not isinstance(value.get(k), str) or not value.get(k)]
    if not strict and (len(missing) == 2 and "apiVersion" not in value and "kind" not in value
                       or "kind" in missing and os.path.basename(name) in HELM_CHART_FILES):
        what = "Helm chart metadata" if missing == ["kind"] else "no apiVersion, no kind"
        result.diagnostics.append(_diag(
            "WAS030", f"not a Kubernetes object ({what}): skipped", name, *pos, doc=index,
            hint="--strict-inputs makes this an error; --exclude keeps the file out of the run"))
        result.skipped.append(Skipped(name, index, "not-kubernetes"))
        return
    if missing:
        result.diagnostics.append(_untyped(name, index, value, missing, pos))
        return
    if _is_list_kind(value):
        _expand_list(result, name, index, value, node, locator, faulty or {})
        return
    if _oversized(node):
        result.diagnostics.append(_size_diag(name, index, node, "the object"))
        return
    result.documents.append(Document(name, index, value, node, None, locator))


def _expand_list(result: ReadResult, name: str, index: int, value: dict, node, locator, faulty: dict) -> None:
    """`kind: List` and every typed `*List`: each item becomes a document of its own (`faulty` JSON items,
    beyond a reader limit, are reported instead)."""
    item_nodes = None
    if node is not None:
        for key_node, value_node in node.value:
            if key_node.value == "items" and value_node.id == "sequence":
                item_nodes = value_node.value
    list_kind = value["kind"]
    default_kind = list_kind[: -len("List")] if list_kind != "List" else None
    locators = locator.items(len(value["items"])) if isinstance(locator, JsonLocator) else None
    for i, item in enumerate(value["items"]):
        item_node = item_nodes[i] if item_nodes is not None and i < len(item_nodes) else None
        item_locator = locators[i] if item_node is None and locators is not None else None
        pos = (item_node.start_mark.line + 1, item_node.start_mark.column + 1) if item_node is not None else (None, None)
        if i in faulty:
            code, message, path = faulty[i]
            where = locate_in_node(item_locator(), path) if item_locator is not None else None
            result.diagnostics.append(_diag(code, message, name, *(where or (None, None)), doc=index,
                                            path=("items", i, *path)))
            continue
        if not isinstance(item, dict):
            result.diagnostics.append(_diag("WAS006", f"items[{i}] of {list_kind} is not an object", name, *pos, doc=index, path=("items", i)))
            continue
        if _oversized(item_node):
            result.diagnostics.append(_size_diag(name, index, item_node, f"items[{i}]", ("items", i)))
            continue
        if default_kind and ("kind" not in item or "apiVersion" not in item):
            item = {"apiVersion": value.get("apiVersion"), "kind": default_kind, **item}
        missing = [k for k in ("apiVersion", "kind") if not isinstance(item.get(k), str) or not item.get(k)]
        if missing:
            result.diagnostics.append(_diag(
                "WAS007", f"items[{i}] of {list_kind} has no {' or '.join(missing)}", name, *pos, doc=index, path=("items", i)))
            continue
        result.documents.append(Document(name, index, item, item_node, i, item_locator))


def read_text(name: str, text: str, options: ReadOptions = ReadOptions()) -> ReadResult:
    """Convenience for tests and library callers holding manifest text in memory."""
    return read_bytes(name, text.encode("utf-8"), options)


def iter_documents(results: Iterable[ReadResult]) -> Iterable[Document]:
    for r in results:
        yield from r.documents
