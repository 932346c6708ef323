"""Cross-references of the DRA inputs that only the whole input set can check: a pod or PodGroup naming a
ResourceClaim or ResourceClaimTemplate that is not there (WAS660, WAS661), a request naming a DeviceClass that is
not there (WAS662). Upstream the pod simply waits (DynamicResources' PreEnqueue and PreFilter); the plan says so in
the pod's message too, and these warnings point at the line that names the missing object.

The plan's inputs are the whole cluster (snapshot plus manifests), so every missing object is reported. What is
missing, and the did-you-mean, come from `cluster.claimrefs.Refs`, which `wasplan lint` asks too.
"""

from __future__ import annotations

from wasplan.cluster.devices import DeviceClass, ResourceClaim, ResourceClaimTemplate
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Group, Pod
from wasplan.diagnostics import Diagnostic
from wasplan.cluster.claimrefs import CLAIM, CLASS, CLUSTER_SCOPED, TEMPLATE, Missing, Refs

_CODES = {TEMPLATE: "WAS660", CLAIM: "WAS661", CLASS: "WAS662"}
_FIELDS = {TEMPLATE: "resourceClaimTemplateName", CLAIM: "resourceClaimName", CLASS: "deviceClassName"}


def _report(ctx: Ctx, missing: Missing | None, path: tuple) -> None:
    if missing is not None:
        ctx.report(_CODES[missing.kind], f"{missing.kind} {missing.shown} is not in the inputs",
                   (*path, _FIELDS[missing.kind]), missing.hint())


def _entries(namespace: str, entries, ctx: Ctx, refs: Refs) -> None:
    """`entries`: (claim name, template name) per `spec.resourceClaims[]` entry, in order."""
    for i, (claim, template) in enumerate(entries):
        _report(ctx, refs.claim_source(namespace, claim, template), ("spec", "resourceClaims", i))


def _classes(record, ctx: Ctx, refs: Refs, prefix: tuple) -> None:
    for i, request in enumerate(record.spec.requests):
        specs = [((*prefix, i, "exactly"), request.exactly)] if request.exactly is not None else \
            [((*prefix, i, "firstAvailable", j), sub) for j, sub in enumerate(request.first_available)]
        for path, spec in specs:
            _report(ctx, refs.device_class(spec.device_class_name), path)


def known(records: list) -> Refs:
    """The claims, templates and classes among the plan's records."""
    refs = Refs()
    for r in records:
        if isinstance(r, DeviceClass):
            refs.add(CLASS, CLUSTER_SCOPED, r.name)
        elif isinstance(r, ResourceClaim):
            refs.add(CLAIM, r.namespace, r.name)
        elif isinstance(r, ResourceClaimTemplate):
            refs.add(TEMPLATE, r.namespace, r.name)
    return refs


def check_references(records: list) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    refs = known(records)
    for r in records:
        source = getattr(r, "source", None)
        if source is None or getattr(source, "obj", None) is None:
            continue  # Job and Cluster-kind records: their own document says nothing about claims
        ctx = Ctx(source, diags)
        if isinstance(r, Pod) and r.resource_claims and source.obj.get("kind") == "Pod":
            _entries(r.namespace, [(e.claim_name, e.template_name) for e in r.resource_claims], ctx, refs)
        elif isinstance(r, Group):
            _entries(r.namespace, [(e.resource_claim_name, e.resource_claim_template_name)
                                   for e in getattr(r.obj, "resource_claims", ())], ctx, refs)
        elif isinstance(r, ResourceClaim):
            _classes(r, ctx, refs, ("spec", "devices", "requests"))
        elif isinstance(r, ResourceClaimTemplate):
            _classes(r, ctx, refs, ("spec", "spec", "devices", "requests"))
    return diags
