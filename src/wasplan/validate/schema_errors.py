"""Turn JSON Schema errors into diagnostics a person can act on.

The compiled validator reports errors in schema terms ("Additional properties are not allowed"); users need
the field that is wrong, where it is, the rule it breaks in API terms and, for unknown fields, what they
probably meant. The schema itself is consulted to name union members and the fields that do exist.
"""

from __future__ import annotations

from dataclasses import replace

from typing import Any, Iterable, Sequence

from wasplan.codes import lookup
from wasplan.diagnostics import Diagnostic, format_path
from wasplan.documents.model import Document
from wasplan.suggest import did_you_mean
from wasplan.validate import hints
from wasplan.words import plural

_TYPE_NAMES = {"object": "an object", "array": "a list", "string": "a string", "integer": "an integer",
               "number": "a number", "boolean": "a boolean", "null": "null"}


# Names of the string formats the API server checks (api-reference §0.1), as wasplan's schemas tag them.
FORMATS = {
    "dns-label": "a DNS label (lowercase letters, digits and '-', 1-63 characters, starting and ending alphanumeric)",
    "dns-subdomain": "a DNS subdomain (lowercase letters, digits, '-' and '.', at most 253 characters)",
    "label-key": "a label key ([prefix/]name: name at most 63 characters of alphanumerics, '-', '_', '.')",
    "path-segment": "a path segment (not '.', '..', and without '/' or '%')",
    "quantity": "a Kubernetes quantity such as 500m, 8, 1.5Gi or 1e3",
}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def resolve(schema_path: Sequence, roots: Sequence[dict]) -> Any:
    """The schema node a validator error points at; `$defs` paths may live in a shared definitions file."""
    for root in roots:
        node: Any = root
        for elem in schema_path:
            if isinstance(node, dict) and elem in node:
                node = node[elem]
            elif isinstance(node, list) and isinstance(elem, int) and elem < len(node):
                node = node[elem]
            else:
                node = None
                break
        if node is not None:
            return node
    return None


def _value_at(obj: Any, path: Sequence) -> Any:
    for elem in path:
        try:
            obj = obj[elem]
        except (KeyError, IndexError, TypeError):
            return None
    return obj


class SchemaErrorMapper:
    """Maps the errors of one document; `roots` are the schema and any shared definitions it refers to."""

    def __init__(self, doc: Document, roots: Sequence[dict]):
        self.doc = doc
        self.roots = roots

    def _diag(self, code: str, message: str, path: tuple, hint: str | None = None, data: dict | None = None) -> Diagnostic:
        return Diagnostic(code, lookup(code).severity, message, self.doc.location(path), hint, data or {})

    def map(self, errors: Iterable[Any]) -> list[Diagnostic]:
        out: list[Diagnostic] = []
        for error in errors:
            kind = type(error.kind).__name__
            handler = getattr(self, f"_on_{kind}", None)
            path = tuple(error.instance_path)
            if handler is None:
                out.append(self._generic(error, path))
            else:
                out.extend(handler(error, path))
        return out

    def _on_AdditionalProperties(self, error: Any, path: tuple) -> list[Diagnostic]:
        return self._unknown_fields(error, path, error.kind.as_dict().get("unexpected", []))

    def _on_FalseSchema(self, error: Any, path: tuple) -> list[Diagnostic]:
        """An empty struct (`basic: {}`, `single: {}`) says `additionalProperties: false`; a key inside it is an
        unknown field, reported at its own path as the API server's strict decoder does."""
        value = _value_at(self.doc.obj, path)
        if list(error.schema_path)[-1:] != ["additionalProperties"] or not isinstance(value, dict):
            return [self._generic(error, path)]
        parent = resolve(list(error.schema_path)[:-1], self.roots) or {}
        known = set((parent.get("properties") or {}).keys())
        return self._unknown_fields(error, path, [k for k in value if k not in known])

    def _unknown_fields(self, error: Any, path: tuple, names: Sequence[str]) -> list[Diagnostic]:
        parent = resolve(list(error.schema_path)[:-1], self.roots) or {}
        known = sorted((parent.get("properties") or {}).keys())
        out = []
        for name in names:
            field_path = path + (name,)
            hint = hints.hint_for_unknown_field(self.doc.api_version, self.doc.kind, path, name)
            data = {}
            if hint is None:
                guess = did_you_mean(name, known)
                if guess:
                    hint = f'did you mean "{format_path(path + (guess,))}"?'
                    data["suggestion"] = format_path(path + (guess,))
            where = f"{self.doc.api_version} {self.doc.kind}"
            out.append(self._diag("WAS101", f'unknown field "{format_path(field_path)}": {where} has no such field',
                                  field_path, hint, data))
        return out

    def _on_Required(self, error: Any, path: tuple) -> list[Diagnostic]:
        """The finding names the missing field (as the API server's `Required value` does) and points at the
        line of the object that lacks it."""
        name = error.kind.as_dict().get("property")
        diag = self._diag("WAS102", f'missing required field "{format_path(path + (name,))}"', path)
        return [replace(diag, location=replace(diag.location, path=path + (name,)))]

    def _on_Type(self, error: Any, path: tuple) -> list[Diagnostic]:
        wanted = error.kind.as_dict().get("types") or []
        wanted = [t for t in wanted if t != "null"] or wanted
        got = _json_type(_value_at(self.doc.obj, path))
        expected = " or ".join(_TYPE_NAMES.get(t, t) for t in wanted)
        hint = None
        if path and path[-1] == "disruptionMode" and got == "string":
            hint = "Kubernetes 1.37 writes disruptionMode as {single: {}} or {all: {}} (1.36's Pod / PodGroup); " \
                   "run `wasplan migrate --to-k8s 1.37`"
        return [self._diag("WAS103", f'"{format_path(path)}" must be {expected}, not {_TYPE_NAMES.get(got, got)}',
                           path, hint)]

    def _on_Enum(self, error: Any, path: tuple) -> list[Diagnostic]:
        options = error.kind.as_dict().get("options") or resolve(error.schema_path, self.roots) or []
        value = _value_at(self.doc.obj, path)
        allowed = ", ".join(str(o) for o in options if o is not None)
        return [self._diag("WAS104", f'"{format_path(path)}" is {value!r}; allowed values: {allowed}', path)]

    def _range(self, error: Any, path: tuple, relation: str) -> list[Diagnostic]:
        limit = error.kind.as_dict().get("limit")
        value = _value_at(self.doc.obj, path)
        return [self._diag("WAS105", f'"{format_path(path)}" is {value}; it must be {relation} {limit}', path)]

    def _on_Minimum(self, error: Any, path: tuple) -> list[Diagnostic]:
        return self._range(error, path, "at least")

    def _on_Maximum(self, error: Any, path: tuple) -> list[Diagnostic]:
        return self._range(error, path, "at most")

    def _on_MaxItems(self, error: Any, path: tuple) -> list[Diagnostic]:
        limit = error.kind.as_dict().get("limit")
        count = len(_value_at(self.doc.obj, path) or [])
        return [self._diag("WAS106", f'"{format_path(path)}" has {count} items; at most {limit} are allowed', path)]

    def _on_MinItems(self, error: Any, path: tuple) -> list[Diagnostic]:
        limit = error.kind.as_dict().get("limit")
        return [self._diag("WAS111", f'"{format_path(path)}" needs at least {plural(limit, "item")}', path)]

    def _generic(self, error: Any, path: tuple) -> Diagnostic:
        return self._diag("WAS110", f"{format_path(path) or 'object'}: {error.message}", path)

    def _bad_format(self, path: tuple, what: str) -> Diagnostic:
        value = _value_at(self.doc.obj, path)
        return self._diag("WAS107", f'"{format_path(path)}" is {value!r}; it must be {what}', path)

    def _format_of(self, error: Any) -> str | None:
        """The format the failing keyword's schema is tagged with (wasplan's tag, else JSON Schema's)."""
        schema = resolve(list(error.schema_path)[:-1], self.roots) or {}
        return schema.get("x-wasplan-format") or schema.get("format")

    def _on_Pattern(self, error: Any, path: tuple) -> list[Diagnostic]:
        fmt = self._format_of(error)
        what = FORMATS.get(fmt, fmt) if fmt else f"a string matching the pattern {error.kind.as_dict().get('pattern')}"
        return [self._bad_format(path, what)]

    def _on_AnyOf(self, error: Any, path: tuple) -> list[Diagnostic]:
        fmt = self._format_of(error)
        return [self._bad_format(path, FORMATS[fmt]) if fmt in FORMATS else self._generic(error, path)]

    def _on_MaxLength(self, error: Any, path: tuple) -> list[Diagnostic]:
        limit = error.kind.as_dict().get("limit")
        return [self._diag("WAS107", f'"{format_path(path)}" is longer than {limit} characters', path)]

    def _union(self, error: Any, path: tuple) -> list[Diagnostic]:
        parent = resolve(list(error.schema_path)[:-1], self.roots) or {}
        branches = resolve(error.schema_path, self.roots) or []
        members: list[str] = list(parent.get("x-wasplan-exactly-one") or [])
        for branch in branches if not members else ():
            for name in branch.get("required", []) if isinstance(branch, dict) else []:
                if name not in members:
                    members.append(name)
        if not members and branches and all(isinstance(b, dict) and set(b) <= {"type"} for b in branches):
            return [self._alternative_types(branches, path)]
        obj = _value_at(self.doc.obj, path)
        if obj is not None and not isinstance(obj, dict):
            return []  # the union itself has the wrong type; that error is reported on it already
        present = [m for m in members if isinstance(obj, dict) and obj.get(m) not in (None, [])]
        if len(present) == 1 and not isinstance(obj.get(present[0]), (dict, list)):
            return []  # the member has the wrong type; that error is reported on the member itself
        found = "none is set" if not present else " and ".join(present) + (" are both set" if len(present) == 2 else " are all set")
        choices = ", ".join(members) if members else "the union members"
        where = format_path(path) or "object"
        return [self._diag("WAS108", f'"{where}": exactly one of {choices} must be set; {found}', path)]

    def _alternative_types(self, branches: list, path: tuple) -> Diagnostic:
        """A value of none of the JSON types a `oneOf` of bare types allows (a quantity: string or number): the
        API server's decoder refuses it, as it refuses any value of the wrong type."""
        wanted: list[str] = []
        for branch in branches:
            types = branch.get("type")
            for t in types if isinstance(types, list) else [types]:
                if t != "null" and t not in wanted:
                    wanted.append(t)
        got = _json_type(_value_at(self.doc.obj, path))
        expected = " or ".join(_TYPE_NAMES.get(t, t) for t in wanted)
        return self._diag("WAS103", f'"{format_path(path)}" must be {expected}, not {_TYPE_NAMES.get(got, got)}', path)

    _on_OneOfNotValid = _union
    _on_OneOfMultipleValid = _union
