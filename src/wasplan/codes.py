"""The one table of diagnostic codes.

Codes are stable: tools and users filter on them (`--ignore WAS412`), so a code is never reused for a
different meaning. Ranges:

* WAS0xx reading input (files, YAML, document shape)
* WAS1xx schema and release (what the API server's schema and served versions accept)
* WAS2xx server-side rules the schema cannot express
* WAS3xx feature gates
* WAS4xx cross-object lint
* WAS5xx migrate
* WAS6xx cluster snapshots and plan input
* WAS7xx plan outcomes
"""

from __future__ import annotations

from dataclasses import dataclass

from wasplan.diagnostics import Severity


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    name: str
    severity: Severity
    summary: str


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

_TABLE: list[Code] = [
    # --- WAS0xx: reading ------------------------------------------------------------------------
    Code("WAS001", "unreadable-file", E, "The file or directory could not be read."),
    Code("WAS002", "binary-file", E, "The file is binary (contains NUL bytes), not a manifest."),
    Code("WAS003", "not-utf8", E, "The file is not valid UTF-8."),
    Code("WAS004", "yaml-syntax", E, "The YAML (or JSON) could not be parsed."),
    Code("WAS005", "duplicate-key", E, "A mapping repeats a key; the API server would reject or silently merge it."),
    Code("WAS006", "not-a-mapping", E, "A document is not a mapping (object)."),
    Code("WAS007", "missing-type-meta", E, "A document has no apiVersion or kind."),
    Code("WAS008", "template-syntax", E, "The file contains template directives ({{ ... }}); render it first."),
    Code("WAS009", "no-input", E, "No manifest files were found in the given paths."),
    Code("WAS010", "unknown-kind", I, "No schema is known for this apiVersion/kind; it was not validated."),
    # --- WAS1xx: schema and release -------------------------------------------------------------
    Code("WAS101", "unknown-field", E, "The field does not exist in this API version."),
    Code("WAS102", "required-field", E, "A required field is missing."),
    Code("WAS103", "wrong-type", E, "The value has the wrong JSON type."),
    Code("WAS104", "invalid-enum", E, "The value is not one of the allowed values."),
    Code("WAS105", "out-of-range", E, "The number is outside the allowed range."),
    Code("WAS106", "too-many-items", E, "The list has more items than the API allows."),
    Code("WAS107", "invalid-format", E, "The string does not have the required format (name, label key, ...)."),
    Code("WAS108", "union", E, "Exactly one member of a union must be set."),
    Code("WAS109", "version-not-served", E, "The chosen Kubernetes release does not serve this apiVersion."),
    Code("WAS110", "schema-violation", E, "The object violates its schema."),
    Code("WAS111", "empty-list", E, "The list must not be empty."),
    # --- WAS2xx: server-side rules --------------------------------------------------------------
    # --- WAS3xx: feature gates ------------------------------------------------------------------
    Code("WAS301", "gated-field-dropped", W, "The field's feature gate is off: the API server silently drops it."),
    Code("WAS302", "gated-kind", E, "The kind's feature gate is off: the API server does not serve it."),
    Code("WAS303", "unknown-feature-gate", E, "The feature gate named on the command line is not known for this release."),
    # --- WAS4xx: cross-object lint --------------------------------------------------------------
    # --- WAS5xx: migrate ------------------------------------------------------------------------
    # --- WAS6xx: cluster snapshots and plan input -----------------------------------------------
    Code("WAS601", "invalid-quantity", E, "A resource quantity is malformed (e.g. `1.5.5`, `10 Gi`, `1Gib`) or negative."),
    Code("WAS602", "unusable-field", E, "A field the planner reads has the wrong type or an impossible value; it was ignored."),
    Code("WAS603", "unnamed-object", E, "An object has no metadata.name, so the planner cannot refer to it; it was skipped."),
    Code("WAS604", "invalid-timestamp", W, "metadata.creationTimestamp is not RFC 3339; the object is ordered as if it had none."),
    Code("WAS605", "cluster-template", E, "A Cluster kind template (`{index // 4}`) or pool/pod entry cannot be expanded."),
    Code("WAS606", "duplicate-object", W, "Two inputs define the same object (kind, namespace, name); the later one was ignored."),
    Code("WAS607", "job-not-expanded", I, "A Job creates no pods in the plan (managed by another controller, suspended, or zero parallelism)."),
    Code("WAS608", "unparseable-group", E, "A Workload, PodGroup or CompositePodGroup could not be read into the planner's model."),
    # --- WAS7xx: plan outcomes ------------------------------------------------------------------
]


def _index(rows: list[Code]) -> dict[str, Code]:
    out: dict[str, Code] = {}
    for row in rows:
        if row.code in out:
            raise ValueError(f"duplicate diagnostic code {row.code}")
        out[row.code] = row
    return out


CODES: dict[str, Code] = _index(_TABLE)


def lookup(code: str) -> Code:
    return CODES[code]
