"""Helpers shared by the per-kind rule modules: building diagnostics, reading unions, formats, list keys.

Rules run after (not instead of) the schema check and must not crash on input the schema already rejected,
so every accessor here tolerates the wrong types and simply yields nothing for them.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from wasplan.api.names import is_dns_label, is_dns_subdomain, is_qualified_name  # noqa: F401 - the rules' names
from wasplan.codes import lookup
from wasplan.diagnostics import Diagnostic, FieldPath, format_path
from wasplan.documents import Document
from wasplan.validate.walk import items, mapping

GANG = "gang"
BASIC = "basic"

INT32_MAX = 2**31 - 1


def make(doc: Document, code: str, message: str, path: FieldPath, hint: str | None = None,
         **data: Any) -> Diagnostic:
    """A diagnostic at `path` of `doc`, with the severity the code table gives the code."""
    return Diagnostic(code, lookup(code).severity, message, doc.location(path), hint, data)


class CleanVerdicts:
    """The inputs a rule found nothing in, so that the same inputs again (a thousand Jobs from one template) are
    not walked again. For rules whose findings depend only on the values in `key` and which read the document
    only to place a finding (`make`, `duplicate_keys`); the caller's key holds a value's `repr`, which keeps
    apart what equality would blur (1 and True, 1 and 1.0, 1 and "1", the order of keys). Only clean verdicts
    are kept: a finding names its own document's line, so rules with findings run each time."""

    def __init__(self, limit: int = 4096) -> None:
        self._clean: set[tuple] = set()
        self._limit = limit

    def check(self, key: tuple, run: Callable[[], list[Diagnostic]]) -> list[Diagnostic]:
        if key in self._clean:
            return []
        out = run()
        if not out:
            if len(self._clean) >= self._limit:
                self._clean.clear()
            self._clean.add(key)
        return out


def policy_kind(policy: Any) -> str | None:
    """`gang`, `basic`, or None when neither member is set (the schema reports that union error)."""
    policy = mapping(policy)
    if isinstance(policy.get(GANG), dict):
        return GANG
    if isinstance(policy.get(BASIC), dict):
        return BASIC
    return None


def is_disrupt_all(mode: Any) -> bool:
    """True for 1.36 `disruptionMode: PodGroup` and for 1.37 `disruptionMode: {all: {}}`."""
    return mode == "PodGroup" or isinstance(mapping(mode).get("all"), dict)


def duplicate_keys(doc: Document, entries: Iterable[tuple[FieldPath, Any]], key: str,
                   what: str) -> list[Diagnostic]:
    """WAS202 for each entry of a list-map whose `key` repeats an earlier entry's.

    `entries` are (path of the item, item); the finding points at the later item's key field and names
    where the first one is, which is what a user needs to pick which to rename.
    """
    seen: dict[str, FieldPath] = {}
    out: list[Diagnostic] = []
    for path, entry in entries:
        value = mapping(entry).get(key)
        if not isinstance(value, str) or not value:
            continue
        if value in seen:
            out.append(make(doc, "WAS202", f'{what} "{value}" is used twice (also at {format_path(seen[value])})',
                            path + (key,), "each entry of this list needs its own " + key, value=value))
        else:
            seen[value] = path
    return out


def indexed(base: FieldPath, value: Any) -> list[tuple[FieldPath, Any]]:
    """(path, item) pairs of a list at `base`, for `duplicate_keys`."""
    return [(base + (i,), entry) for i, entry in enumerate(items(value))]


def claim_names_unique(doc: Document, owner: dict, base: FieldPath) -> list[Diagnostic]:
    """resourceClaims is a list-map keyed by name on templates, PodGroups and Job scheduling blocks."""
    path = base + ("resourceClaims",)
    return duplicate_keys(doc, indexed(path, owner.get("resourceClaims")), "name", "resource claim name")


def disrupt_all_with_basic(doc: Document, owner: dict, base: FieldPath, what: str) -> list[Diagnostic]:
    """WAS207: the API accepts `all` on a basic group (api-reference §4.2, §11) but it makes little sense.

    KEP-5710 intends to forbid it; only the Job path (workloadbuilder) enforces it so far, hence a warning.
    """
    mode = owner.get("disruptionMode")
    if not is_disrupt_all(mode) or policy_kind(owner.get("schedulingPolicy")) != BASIC:
        return []
    shown = "PodGroup" if mode == "PodGroup" else "{all: {}}"
    return [make(doc, "WAS207",
                 f"{what} has disruptionMode {shown} but a basic scheduling policy: its pods are not a gang, "
                 "so disrupting them all together is probably not intended",
                 base + ("disruptionMode",),
                 "use schedulingPolicy.gang to make the pods one unit, or drop disruptionMode")]
