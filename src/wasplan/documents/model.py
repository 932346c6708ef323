"""A manifest document together with where it came from.

Objects are plain dicts/lists (what every downstream layer wants), while the composed YAML node tree is kept
beside them so that any finding can be pointed at `file:line:col` without storing a position for every
field up front.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from wasplan.diagnostics import FieldPath, Location, PathElem


@dataclass(slots=True)
class SourceFile:
    """The text of one input, kept for showing the offending source line under a diagnostic."""

    path: str
    text: str
    _lines: list[str] | None = field(default=None, repr=False)

    def line(self, number: int) -> str | None:
        if self._lines is None:
            self._lines = self.text.splitlines()
        if 1 <= number <= len(self._lines):
            return self._lines[number - 1]
        return None


def locate_in_node(node: Any, path: Sequence[PathElem]) -> tuple[int, int] | None:
    """Follow `path` through a composed YAML node; return the 1-based (line, col) of the deepest match.

    A mapping key is located at the key itself (where a compiler would point), a list item at its start.
    When the path leaves the tree (a missing field) the deepest existing ancestor is returned.
    """
    if node is None:
        return None
    best = (node.start_mark.line + 1, node.start_mark.column + 1)
    current = node
    for elem in path:
        value = getattr(current, "value", None)
        if isinstance(elem, int):
            if not isinstance(value, list) or current.id != "sequence" or not (0 <= elem < len(value)):
                break
            current = value[elem]
            best = (current.start_mark.line + 1, current.start_mark.column + 1)
        else:
            if current.id != "mapping":
                break
            found = None
            for key_node, value_node in value:
                if getattr(key_node, "value", None) == elem:
                    found = (key_node, value_node)
            if found is None:
                break
            key_node, current = found
            best = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
    return best


@dataclass(slots=True)
class Document:
    """One Kubernetes object read from an input.

    `index` is the document's position in its file (0-based, counting only non-empty documents is *not*
    done: it matches `---` separators so users can find it). Objects expanded from a `*List` keep the list's
    document index and record their position in `items` as `item`.
    """

    source: str
    index: int
    obj: dict
    node: Any = None  # composed yaml node of this object (None for JSON until located lazily)
    item: int | None = None
    locator: Callable[[], Any] | None = field(default=None, repr=False)
    order: int = 0  # global input order, used as creation order where no timestamp exists
    text: str | None = field(default=None, repr=False)  # the file's text (positions inside scalars)

    @property
    def api_version(self) -> str:
        value = self.obj.get("apiVersion")
        return value if isinstance(value, str) else ""

    @property
    def kind(self) -> str:
        value = self.obj.get("kind")
        return value if isinstance(value, str) else ""

    @property
    def group(self) -> str:
        av = self.api_version
        return av.rsplit("/", 1)[0] if "/" in av else ""

    @property
    def version(self) -> str:
        return self.api_version.rsplit("/", 1)[-1]

    @property
    def metadata(self) -> dict:
        meta = self.obj.get("metadata")
        return meta if isinstance(meta, dict) else {}

    @property
    def name(self) -> str:
        name = self.metadata.get("name") or self.metadata.get("generateName") or ""
        return name if isinstance(name, str) else str(name)

    @property
    def namespace(self) -> str:
        ns = self.metadata.get("namespace")
        return ns if isinstance(ns, str) and ns else ""

    def _node(self) -> Any:
        if self.node is None and self.locator is not None:
            self.node = self.locator()
            self.locator = None
        return self.node

    def location(self, path: FieldPath = ()) -> Location:
        pos = locate_in_node(self._node(), path)
        line, col = pos if pos else (None, None)
        return Location(self.source, self.index, tuple(path), line, col)

    def value_node(self, path: FieldPath) -> Any:
        """The composed YAML node of the value at `path` (a scalar keeps its style and marks), or None."""
        current = self._node()
        for elem in path:
            value = getattr(current, "value", None)
            if isinstance(elem, int) and getattr(current, "id", "") == "sequence" and 0 <= elem < len(value):
                current = value[elem]
            elif isinstance(elem, str) and getattr(current, "id", "") == "mapping":
                current = next((v for k, v in reversed(value) if getattr(k, "value", None) == elem), None)
            else:
                return None
        return current

    def describe(self) -> str:
        ns = f"{self.namespace}/" if self.namespace else ""
        return f"{self.kind}/{ns}{self.name}" if self.name else self.kind or "document"
