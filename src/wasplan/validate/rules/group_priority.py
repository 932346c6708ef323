"""The bound on a group's priority, which 1.38 removed from the versions 1.37 bounds it in.

1.37's declarative validation gives PodGroup and CompositePodGroup `spec.priority` and the PodGroupTemplate and
CompositePodGroupTemplate `priority` a maximum of 1,000,000,000 (`+k8s:maximum`, v1.37.2
staging/src/k8s.io/api/scheduling/v1beta1 and v1alpha3 types.go); v1.38.0-beta.0 serves the same versions without
it (CHANGELOG #142846). One JSON Schema per version cannot say both, so the bound is this release rule
(`Capabilities.group_priority_max`) for v1alpha3 and v1beta1, with the schema check's code and wording; v1alpha2,
which only 1.36 serves, keeps it in its schema.
"""

from __future__ import annotations

from wasplan.api.releases import GateSet
from wasplan.diagnostics import Diagnostic, FieldPath, format_path
from wasplan.documents import Document
from wasplan.validate.rules.common import make
from wasplan.validate.walk import iter_templates, mapping

_VERSIONS = ("v1alpha3", "v1beta1")


def check(doc: Document, gates: GateSet) -> list[Diagnostic]:
    limit = gates.release.caps.group_priority_max
    if limit is None or doc.version not in _VERSIONS:
        return []
    spec = mapping(doc.obj.get("spec"))
    if doc.kind == "Workload":
        places = [(node.path + ("priority",), node.obj.get("priority")) for node in iter_templates(spec, doc.version)]
    else:
        places = [(("spec", "priority"), spec.get("priority"))]
    return [_above(doc, path, value, limit) for path, value in places
            if isinstance(value, int) and not isinstance(value, bool) and value > limit]


def _above(doc: Document, path: FieldPath, value: int, limit: int) -> Diagnostic:
    return make(doc, "WAS105", f'"{format_path(path)}" is {value}; it must be at most {limit}', path)
