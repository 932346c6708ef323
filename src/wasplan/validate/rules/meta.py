"""The object name the API server checks on every create: `metadata.name` (or `generateName`) must be set, and
for the kinds wasplan validates it must be a DNS subdomain (k8s.io/apiserver/pkg/registry/rest/create.go
BeforeCreate -> ValidateObjectMetaAccessor with each strategy's name rule; pkg/apis/core/validation
ValidatePodName, pkg/apis/scheduling/validation, pkg/apis/resource/validation: all ValidateDNS1123Subdomain).

Found by the oracle's validate (issue 22): the schema of the scheduling kinds checked the name's format but
no kind checked that a name is there at all, and the DRA kinds, PriorityClasses, Pods and Jobs not even the
format.
"""

from __future__ import annotations

from wasplan.api.names import is_dns_subdomain
from wasplan.diagnostics import Diagnostic
from wasplan.documents import Document
from wasplan.validate.rules.common import make
from wasplan.validate.walk import mapping

# (group, kind) the server names by DNS subdomain; Lists and unknown kinds are not objects the server stores.
SUBDOMAIN_NAMED = {("scheduling.k8s.io", k) for k in ("Workload", "PodGroup", "CompositePodGroup", "PriorityClass")} | {
    ("", "Pod"), ("batch", "Job")} | {("resource.k8s.io", k) for k in (
        "DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice")}


def check(doc: Document) -> list[Diagnostic]:
    if (doc.group, doc.kind) not in SUBDOMAIN_NAMED or not isinstance(doc.obj, dict):
        return []
    meta = mapping(doc.obj.get("metadata"))
    name, generate = meta.get("name"), meta.get("generateName")
    if not isinstance(name, str) or not name:
        if isinstance(generate, str) and generate:
            return []
        if name not in (None, "") or "metadata" in doc.obj and not isinstance(doc.obj["metadata"], dict):
            return []  # a value of the wrong type: the schema reports it
        return [make(doc, "WAS102", "metadata.name is required (or metadata.generateName)", ("metadata", "name"))]
    if not is_dns_subdomain(name):
        return [make(doc, "WAS107", f"metadata.name {name!r} must be a DNS subdomain: at most 253 lowercase letters, "
                                    "digits, '-' and '.', starting and ending with a letter or digit",
                     ("metadata", "name"))]
    return []
