"""Cross-references of the DRA inputs that only the whole input set can check: a pod or PodGroup naming a
ResourceClaim or ResourceClaimTemplate that is not there (WAS660, WAS661), a request naming a DeviceClass that is
not there (WAS662). Upstream the pod simply waits (DynamicResources' PreEnqueue and PreFilter); the plan says so in
the pod's message too, and these warnings point at the line that names the missing object.
"""

from __future__ import annotations

from wasplan.cluster.devices import DeviceClass, ResourceClaim, ResourceClaimTemplate
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Group, Pod
from wasplan.diagnostics import Diagnostic


def _pod_entries(pod: Pod, ctx: Ctx, claims: set, templates: set) -> None:
    for i, entry in enumerate(pod.resource_claims):
        path = ("spec", "resourceClaims", i)
        if entry.template_name and f"{pod.namespace}/{entry.template_name}" not in templates:
            ctx.report("WAS660", f"ResourceClaimTemplate {pod.namespace}/{entry.template_name} is not in the inputs",
                       (*path, "resourceClaimTemplateName"))
        elif entry.claim_name and f"{pod.namespace}/{entry.claim_name}" not in claims:
            ctx.report("WAS661", f"ResourceClaim {pod.namespace}/{entry.claim_name} is not in the inputs",
                       (*path, "resourceClaimName"))


def _group_entries(group: Group, ctx: Ctx, claims: set, templates: set) -> None:
    for i, entry in enumerate(getattr(group.obj, "resource_claims", ())):
        path = ("spec", "resourceClaims", i)
        name = entry.resource_claim_template_name
        if name and f"{group.namespace}/{name}" not in templates:
            ctx.report("WAS660", f"ResourceClaimTemplate {group.namespace}/{name} is not in the inputs",
                       (*path, "resourceClaimTemplateName"))
        elif entry.resource_claim_name and f"{group.namespace}/{entry.resource_claim_name}" not in claims:
            ctx.report("WAS661", f"ResourceClaim {group.namespace}/{entry.resource_claim_name} is not in the inputs",
                       (*path, "resourceClaimName"))


def _classes(record, ctx: Ctx, classes: set, prefix: tuple) -> None:
    for i, request in enumerate(record.spec.requests):
        specs = [((*prefix, i, "exactly"), request.exactly)] if request.exactly is not None else \
            [((*prefix, i, "firstAvailable", j), sub) for j, sub in enumerate(request.first_available)]
        for path, spec in specs:
            if spec.device_class_name not in classes:
                ctx.report("WAS662", f"DeviceClass {spec.device_class_name} is not in the inputs",
                           (*path, "deviceClassName"))


def check_references(records: list) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    classes = {r.name for r in records if isinstance(r, DeviceClass)}
    claims = {r.key for r in records if isinstance(r, ResourceClaim)}
    templates = {r.key for r in records if isinstance(r, ResourceClaimTemplate)}
    for r in records:
        source = getattr(r, "source", None)
        if source is None or getattr(source, "obj", None) is None:
            continue  # Job and Cluster-kind records: their own document says nothing about claims
        ctx = Ctx(source, diags)
        if isinstance(r, Pod) and r.resource_claims and source.obj.get("kind") == "Pod":
            _pod_entries(r, ctx, claims, templates)
        elif isinstance(r, Group):
            _group_entries(r, ctx, claims, templates)
        elif isinstance(r, ResourceClaim):
            _classes(r, ctx, classes, ("spec", "devices", "requests"))
        elif isinstance(r, ResourceClaimTemplate):
            _classes(r, ctx, classes, ("spec", "spec", "devices", "requests"))
    return diags
