"""Rules on `status` of PodGroup and CompositePodGroup: conditions and shared-claim statuses.

Status is cleared on create and written by the scheduler through `/status`, but manifests exported from a
cluster (or snapshots fed back to `plan`) carry it, and a wrong status there misleads the planner.
Rules follow api-reference §3.2, §3.3 and §4.5 (metav1 condition validation).
"""

from __future__ import annotations

import re

from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.validate.rules.common import duplicate_keys, indexed, is_qualified_name, make
from wasplan.validate.walk import items, mapping

_REASON = re.compile(r"^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$")
_STATUSES = ("True", "False", "Unknown")

# Condition types renamed between releases: (kind, release) -> {type used in the other release: the right one}.
_RENAMED = {
    ("PodGroup", "1.37"): {"PodGroupScheduled": "PodGroupInitiallyScheduled"},
    ("PodGroup", "1.38"): {"PodGroupScheduled": "PodGroupInitiallyScheduled"},
    ("PodGroup", "1.36"): {"PodGroupInitiallyScheduled": "PodGroupScheduled"},
}


def check_conditions(doc: Document, status: dict, release: str) -> list[Diagnostic]:
    base: FieldPath = ("status", "conditions")
    pairs = indexed(base, status.get("conditions"))
    out = duplicate_keys(doc, pairs, "type", "condition type")
    renamed = _RENAMED.get((doc.kind, release), {})
    for path, cond in pairs:
        cond = mapping(cond)
        out += _condition_fields(doc, cond, path)
        ctype = cond.get("type")
        if isinstance(ctype, str) and ctype in renamed:
            out.append(make(doc, "WAS213",
                            f'condition type "{ctype}" is not used by {doc.kind} in Kubernetes {release}; '
                            f'it is called "{renamed[ctype]}" there', path + ("type",),
                            "the scheduler will never update this condition; rename it or drop status"))
    return out


def _condition_fields(doc: Document, cond: dict, path: FieldPath) -> list[Diagnostic]:
    """metav1.Condition field rules that the schema leaves to the server."""
    out = []
    ctype, value, reason, message = (cond.get(k) for k in ("type", "status", "reason", "message"))
    if isinstance(ctype, str) and ctype and (len(ctype) > 316 or not is_qualified_name(ctype)):
        out.append(make(doc, "WAS212", f'condition type "{ctype}" is not a qualified name '
                        "(optional DNS-subdomain prefix and '/', then at most 63 letters, digits, '-', '_', '.')",
                        path + ("type",)))
    if isinstance(value, str) and value not in _STATUSES:
        out.append(make(doc, "WAS212", f'condition status "{value}" must be one of True, False, Unknown',
                        path + ("status",)))
    if isinstance(reason, str) and (not 1 <= len(reason) <= 1024 or not _REASON.fullmatch(reason)):
        out.append(make(doc, "WAS212", f'condition reason "{reason}" must be 1-1024 characters, start with a '
                        "letter and contain only letters, digits, '_', ',' and ':' (CamelCase, e.g. Unschedulable)",
                        path + ("reason",)))
    if isinstance(message, str) and len(message) > 32768:
        out.append(make(doc, "WAS212", f"condition message is {len(message)} characters long; at most 32768 "
                        "are allowed", path + ("message",)))
    return out


def check_claim_statuses(doc: Document, spec: dict, status: dict) -> list[Diagnostic]:
    """resourceClaimStatuses is keyed by name and every name must be one of spec.resourceClaims."""
    pairs = indexed(("status", "resourceClaimStatuses"), status.get("resourceClaimStatuses"))
    out = duplicate_keys(doc, pairs, "name", "resource claim status name")
    declared = [c.get("name") for c in items(spec.get("resourceClaims")) if isinstance(c, dict)]
    known = {n for n in declared if isinstance(n, str)}
    for path, entry in pairs:
        name = mapping(entry).get("name")
        if isinstance(name, str) and name and name not in known:
            listed = ", ".join(f'"{n}"' for n in sorted(known)) or "none"
            out.append(make(doc, "WAS203", f'resource claim status "{name}" names no claim in spec.resourceClaims '
                            f"(declared: {listed})", path + ("name",),
                            "a status entry must use the name of one of the PodGroup's own claims"))
    return out
