"""The device side of the exact check's changes: the claim templates' `firstAvailable` lists reordered so that
the subrequest the witness's pods use comes first.

The structured allocator takes, for each pod alone, the first subrequest of a `firstAvailable` list that fits
(`structured/internal/incubating`, dra.md §4) and the gang's earlier members never revisit theirs
(kubernetes/kubernetes issue 138765: "whole" before "half" leaves no half for the next member). Offering first
what the assignment uses lets each member take it. This module builds the edit and the re-plan's inputs;
changes.py verifies them.
"""

from __future__ import annotations

import dataclasses

from wasplan.cluster.devices import ResourceClaimTemplate
from wasplan.cluster.model import PlanInputs
from wasplan.explain import manifest
from wasplan.explain.exact.result import Choice
from wasplan.explain.model import Change

WHY = ("the allocator gives each pod the first subrequest that fits on its own, so an early member takes devices a "
       "later one needed; with the assignment's subrequest first in the claim template, the re-planned run places "
       "the group")


def _preferred(choices: tuple[Choice, ...]) -> dict[tuple[str, str], str]:
    """(template, request) -> the subrequest most of the witness's pods use (ties: the name first)."""
    votes: dict[tuple[str, str], dict[str, int]] = {}
    for c in choices:
        if c.template is not None:
            per = votes.setdefault((c.template, c.request), {})
            per[c.subrequest] = per.get(c.subrequest, 0) + 1
    return {key: min(per, key=lambda sub: (-per[sub], sub)) for key, per in sorted(votes.items())}


def _first(template: ResourceClaimTemplate, request: str, sub: str) -> tuple[ResourceClaimTemplate, int] | None:
    """The template with `sub` moved to the front of `request`'s firstAvailable list (None: it is first)."""
    for ri, r in enumerate(template.spec.requests):
        names = [x.name for x in r.first_available]
        if r.name == request and sub in names and names[0] != sub:
            order = [r.first_available[names.index(sub)]] + [x for x in r.first_available if x.name != sub]
            requests = tuple(dataclasses.replace(r, first_available=tuple(order)) if k == ri else q
                             for k, q in enumerate(template.spec.requests))
            return dataclasses.replace(template, spec=dataclasses.replace(template.spec, requests=requests)), ri
    return None


def reordered(inputs: PlanInputs, choices: tuple[Choice, ...]) -> tuple[PlanInputs, tuple[Change, ...]] | None:
    """(the inputs with each claim template's firstAvailable list starting with the subrequest most of the
    witness's pods use, the edits to the template documents), or None when every one already starts with it."""
    templates = {r.key: r for r in (*inputs.existing, *inputs.arrivals) if isinstance(r, ResourceClaimTemplate)}
    new: dict[str, ResourceClaimTemplate] = {}
    edits = []
    for (key, request), sub in _preferred(choices).items():
        found = _first(new.get(key, templates[key]), request, sub) if key in templates else None
        if found is None:
            continue
        new[key], ri = found
        doc = templates[key].source
        raw = doc.obj["spec"]["spec"]["devices"]["requests"][ri]["firstAvailable"] if doc is not None else []
        value = sorted(raw, key=lambda x: x.get("name") != sub)
        edits.append(manifest.change("set", doc, ("spec", "spec", "devices", "requests", ri, "firstAvailable"), value))
    if not new:
        return None

    def swap(r):
        return new.get(r.key, r) if isinstance(r, ResourceClaimTemplate) else r

    return PlanInputs([swap(r) for r in inputs.existing], [swap(r) for r in inputs.arrivals]), tuple(edits)
