"""The object name the API server checks on every create: `metadata.name` (or `generateName`) must be set, and
for the kinds wasplan validates it must be a DNS subdomain (k8s.io/apiserver/pkg/registry/rest/create.go
BeforeCreate -> ValidateObjectMetaAccessor with each strategy's name rule; pkg/apis/core/validation
ValidatePodName, pkg/apis/scheduling/validation, pkg/apis/resource/validation: all ValidateDNS1123Subdomain).

Found by the oracle's validate (issue 22): the schema of the scheduling kinds checked the name's format but
no kind checked that a name is there at all, and the DRA kinds, PriorityClasses, Pods and Jobs not even the
format. Also here, from the same create path: `metadata.generation` is not negative (ValidateObjectMeta) for the
kinds whose strategy does not reset it, at most one owner reference is the controller (ValidateOwnerReferences),
and a
PriorityClass's value is at most 1e9 unless it is one of the two system classes, whose "system-" names are
reserved and whose values are fixed (ValidatePriorityClass).
"""

from __future__ import annotations

from wasplan.api.names import is_dns_subdomain, is_label_value, is_qualified_name
from wasplan.diagnostics import Diagnostic
from wasplan.documents import Document
from wasplan.validate.rules.common import make
from wasplan.validate.walk import mapping

# (group, kind) the server names by DNS subdomain; Lists and unknown kinds are not objects the server stores.
SUBDOMAIN_NAMED = {("scheduling.k8s.io", k) for k in ("Workload", "PodGroup", "CompositePodGroup", "PriorityClass")} | {
    ("", "Pod"), ("batch", "Job")} | {("resource.k8s.io", k) for k in (
        "DeviceClass", "ResourceClaim", "ResourceClaimTemplate", "ResourceSlice")} | {
    ("kueue.x-k8s.io", k) for k in ("AdmissionCheck", "ClusterQueue", "Cohort", "LocalQueue", "ResourceFlavor",
                                    "Topology", "Workload", "WorkloadPriorityClass")}


# The PriorityClasses the API server creates itself; a "system-" name is reserved for them, with these values
# (pkg/apis/scheduling/validation ValidatePriorityClass, pkg/apis/scheduling SystemPriorityClasses).
SYSTEM_PRIORITY_CLASSES = {"system-cluster-critical": 2_000_000_000, "system-node-critical": 2_000_001_000}
HIGHEST_USER_PRIORITY = 1_000_000_000
GENERATED_PREFIX_MAX, GENERATED_SUFFIX = 58, 5  # apiserver names.go maxGeneratedNameLength, randomLength


def check(doc: Document) -> list[Diagnostic]:
    if (doc.group, doc.kind) not in SUBDOMAIN_NAMED or not isinstance(doc.obj, dict):
        return []
    meta = mapping(doc.obj.get("metadata"))
    out = _generation(doc, meta) + (_priority_class(doc, meta) if doc.kind == "PriorityClass" else [])
    return out + _owner_references(doc, meta) + _name(doc, meta) + _labels(doc, meta) + _annotation_keys(doc, meta)


def _labels(doc: Document, meta: dict) -> list[Diagnostic]:
    """Every label key a qualified name, every value a label value (apimachinery ValidateLabels)."""
    out = []
    for key, value in mapping(meta.get("labels")).items():
        path = ("metadata", "labels", key)
        if isinstance(key, str) and not is_qualified_name(key):
            out.append(make(doc, "WAS107", f"label key {key!r} is not a valid label key ([prefix/]name: a DNS "
                                           "subdomain prefix, a name of at most 63 alphanumerics, '-', '_' or '.' "
                                           "starting and ending alphanumeric)", path))
        if isinstance(value, str) and not is_label_value(value):
            out.append(make(doc, "WAS107", f"label {key}={value!r}: a label value is empty or at most 63 "
                                           "alphanumerics, '-', '_' or '.', starting and ending alphanumeric", path))
    return out


def _annotation_keys(doc: Document, meta: dict) -> list[Diagnostic]:
    """Annotation keys are qualified names once lowercased (apimachinery ValidateAnnotations)."""
    return [make(doc, "WAS107", f"annotation key {key!r} is not a valid qualified name ([prefix/]name)",
                 ("metadata", "annotations", key))
            for key in mapping(meta.get("annotations")) if isinstance(key, str) and not is_qualified_name(key.lower())]


def _owner_references(doc: Document, meta: dict) -> list[Diagnostic]:
    """At most one owner is the controller (apimachinery ValidateOwnerReferences)."""
    refs = meta.get("ownerReferences")
    controllers = [f"{r.get('kind')}/{r.get('name')}" for r in refs if isinstance(r, dict) and r.get("controller") is True
                   ] if isinstance(refs, list) else []
    if len(controllers) < 2:
        return []
    return [make(doc, "WAS107", f"only one owner reference may be the controller; {' and '.join(controllers[:2])} "
                                "both say controller: true", ("metadata", "ownerReferences"))]


# Kinds whose registry strategy sets metadata.generation to 1 on create (PrepareForCreate in pkg/registry/.../
# strategy.go of v1.36.5 and v1.37.2), so a negative one given in the manifest never reaches validation.
GENERATION_RESET_ON_CREATE = {("scheduling.k8s.io", "PriorityClass"), ("", "Pod"), ("batch", "Job"),
                              ("resource.k8s.io", "DeviceClass"), ("resource.k8s.io", "ResourceSlice")}


def _generation(doc: Document, meta: dict) -> list[Diagnostic]:
    if (doc.group, doc.kind) in GENERATION_RESET_ON_CREATE:
        return []
    value = meta.get("generation")
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        return [make(doc, "WAS105", f"metadata.generation must not be negative, got {value}", ("metadata", "generation"))]
    return []


def _priority_class(doc: Document, meta: dict) -> list[Diagnostic]:
    name, value = meta.get("name"), doc.obj.get("value")
    if not isinstance(value, int) or isinstance(value, bool):
        return []  # the schema reports a missing or mistyped value
    if isinstance(name, str) and name.startswith("system-"):
        wanted = SYSTEM_PRIORITY_CLASSES.get(name)
        if wanted is None:
            return [make(doc, "WAS107", f"PriorityClass names starting with 'system-' are reserved for the system "
                                        f"classes ({', '.join(SYSTEM_PRIORITY_CLASSES)})", ("metadata", "name"))]
        if value != wanted:
            return [make(doc, "WAS105", f"{name} must have value {wanted}, got {value}", ("metadata", "name"))]
        return []
    if value > HIGHEST_USER_PRIORITY:
        return [make(doc, "WAS105", f"a user-defined PriorityClass value is at most {HIGHEST_USER_PRIORITY:,}, got "
                                    f"{value:,}", ("value",))]
    return []


def _name(doc: Document, meta: dict) -> list[Diagnostic]:
    name, generate = meta.get("name"), meta.get("generateName")
    if not isinstance(name, str) or not name:
        if isinstance(generate, str) and generate:
            return _generate_name(doc, generate)
        if name not in (None, "") or "metadata" in doc.obj and not isinstance(doc.obj["metadata"], dict):
            return []  # a value of the wrong type: the schema reports it
        return [make(doc, "WAS102", "metadata.name is required (or metadata.generateName)", ("metadata", "name"))]
    if not is_dns_subdomain(name):
        return [make(doc, "WAS107", f"metadata.name {name!r} must be a DNS subdomain: at most 253 lowercase letters, "
                                    "digits, '-' and '.', starting and ending with a letter or digit",
                     ("metadata", "name"))]
    return []


def _generate_name(doc: Document, prefix: str) -> list[Diagnostic]:
    """A generateName is checked as a prefix (apimachinery NameIsDNSSubdomain with prefix=true: maskTrailingDash
    replaces the last two characters of a prefix longer than one that ends in '-' by one 'a'), then the name the
    server generates from it (the prefix cut to 58 characters and five random ones, names.SimpleNameGenerator) is
    checked as a name: `a.-` passes the first and fails the second."""
    masked = prefix[:-2] + "a" if len(prefix) > 1 and prefix.endswith("-") else prefix
    if not is_dns_subdomain(masked):
        why = "must be a DNS subdomain prefix: lowercase letters, digits, '-' and '.', starting with a letter or digit"
    elif not is_dns_subdomain(prefix[:GENERATED_PREFIX_MAX] + "x" * GENERATED_SUFFIX):
        why = "gives names that are not DNS subdomains (a '.' must be followed by a letter or digit)"
    else:
        return []
    return [make(doc, "WAS107", f"metadata.generateName {prefix!r} {why}", ("metadata", "generateName"))]
