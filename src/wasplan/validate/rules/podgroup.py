"""Server-side rules for PodGroup (v1alpha2 of 1.36, v1alpha3/v1beta1 of 1.37); api-reference §3.2, §4.2."""

from __future__ import annotations

from dataclasses import replace

from wasplan.api.releases import RELEASE_OF_VERSION, GateSet, capabilities
from wasplan.diagnostics import Diagnostic
from wasplan.documents import Document
from wasplan.validate.rules import disruption
from wasplan.validate.rules.common import claim_names_unique, make
from wasplan.validate.rules.status import check_claim_statuses, check_conditions
from wasplan.validate.walk import mapping


def check(doc: Document, gates: GateSet) -> list[Diagnostic]:
    spec = mapping(doc.obj.get("spec"))
    status = mapping(doc.obj.get("status"))
    release = RELEASE_OF_VERSION.get(doc.version, gates.release.version)
    out = claim_names_unique(doc, spec, ("spec",))
    out += disruption.check_group(doc, spec, ("spec",), f'PodGroup "{doc.name}"', gates.release.caps)
    out += check_conditions(doc, status, release)
    out += check_claim_statuses(doc, spec, status)
    if capabilities(release).composites and gates.enabled("CompositePodGroup"):  # else the field is dropped
        out += parent_needs_workload_ref(doc, spec)
    return out


def parent_needs_workload_ref(doc: Document, spec: dict) -> list[Diagnostic]:
    """WAS208: KEP-6012 says a PodGroup in a composite hierarchy belongs to a Workload.

    api-reference §4.2 took the declarative rule for shadow-only; the 1.37.2 API server (the oracle's
    validate, issue 22) rejects the PodGroup with `spec.workloadRef: Required value`, so this is an error,
    reported at spec.workloadRef on the line of the parent reference.
    """
    parent = spec.get("parentCompositePodGroupName")
    if not isinstance(parent, str) or not parent or mapping(spec.get("workloadRef")):
        return []
    found = make(doc, "WAS208",
                 f'PodGroup "{doc.name}" names parent CompositePodGroup "{parent}" but has no spec.workloadRef',
                 ("spec", "parentCompositePodGroupName"),
                 "add spec.workloadRef {workloadName, templateName} naming the leaf template of the Workload "
                 "that the parent CompositePodGroup belongs to")
    return [replace(found, location=replace(found.location, path=("spec", "workloadRef")))]
