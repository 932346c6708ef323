"""Rules for `Pod.spec.schedulingGroup` (api-reference §6.1), on Pods and on pod templates of controllers.

Pods are checked against the upstream strict schema, which knows the field's shape but not that
`schedulingGroup` is a one-member union nor that the name is a DNS subdomain; those two are here. The 1.35
`spec.workloadRef` is an unknown field the schema reports; its replacement is suggested by
`wasplan.validate.hints`, not here.
"""

from __future__ import annotations

from wasplan.api.releases import GateSet
from wasplan.diagnostics import Diagnostic, FieldPath
from wasplan.documents import Document
from wasplan.validate.rules.common import is_dns_subdomain, make
from wasplan.validate.rules.podspec import check_pod_spec
from wasplan.validate.rules.quantities import check_pod_quantities
from wasplan.validate.walk import mapping


def check(doc: Document, gates: GateSet) -> list[Diagnostic]:
    spec = mapping(doc.obj.get("spec"))
    return (check_scheduling_group(doc, spec, ("spec",)) + check_pod_quantities(doc, spec, ("spec",))
            + check_pod_spec(doc, spec, ("spec",), gates))


def check_scheduling_group(doc: Document, pod_spec: dict, base: FieldPath) -> list[Diagnostic]:
    group = pod_spec.get("schedulingGroup")
    if not isinstance(group, dict):
        return []
    path = base + ("schedulingGroup",)
    name = group.get("podGroupName")
    if not isinstance(name, str) or not name:
        return [make(doc, "WAS108", "schedulingGroup is set but does not name a PodGroup: podGroupName must be set",
                     path, "write schedulingGroup: {podGroupName: <PodGroup name>} or remove schedulingGroup")]
    if not is_dns_subdomain(name):
        return [make(doc, "WAS107", f'podGroupName "{name}" is not a valid PodGroup name (DNS subdomain: lowercase '
                     "letters, digits, '-' and '.', at most 253 characters)", path + ("podGroupName",))]
    return []
