"""Pods (and pod templates) as the scheduler sees them.

A pod is parsed from three parts — metadata, spec, status — each with its own context, so the same code reads a
Pod document (`metadata`, `spec`) and a Job's pod template (`spec.template.metadata`, `spec.template.spec`) and
still points findings at the right line. The effective request (with the API server's defaulting of requests
from limits, cluster/resources.py) and the per-container extended requests are memoised per distinct
container-resources shape: the pods of one ReplicaSet or gang share them, and they are the costliest part of a pod.
"""

from __future__ import annotations

from typing import Any

from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import NO_IMAGES, ContainerRequests, Owner, Pod, PodClaim, PodImages, Resources
from wasplan.cluster.placement import host_ports, spread_constraints, tolerations
from wasplan.cluster.resources import pod_resources
from wasplan.cluster.selectors import affinity, as_list, as_str, string_map

DEFAULT_SCHEDULER = "default-scheduler"
_REQUEST_CACHE: dict[str, tuple[Resources, Resources, tuple[ContainerRequests, ...]]] = {}
_CACHE_LIMIT = 100_000


def _resources_key(spec: dict) -> str:
    containers = spec.get("containers")
    inits = spec.get("initContainers")
    shape = (
        [c.get("resources") if isinstance(c, dict) else c for c in containers] if isinstance(containers, list) else containers,
        [(c.get("restartPolicy"), c.get("resources")) if isinstance(c, dict) else c for c in inits]
        if isinstance(inits, list) else inits,
        spec.get("resources"),
        spec.get("overhead"),
    )
    return repr(shape)


def requests_of(spec: dict, ctx: Ctx) -> tuple[Resources, Resources, tuple[ContainerRequests, ...]]:
    """(requests, non_zero_requests, per-container extended requests), computed once per resources shape;
    callers get their own dicts."""
    key = _resources_key(spec)
    hit = _REQUEST_CACHE.get(key)
    if hit is None:
        before = len(ctx.diags)
        hit = pod_resources(spec, ctx)
        if len(ctx.diags) == before and len(_REQUEST_CACHE) < _CACHE_LIMIT:
            _REQUEST_CACHE[key] = hit
    return dict(hit[0]), dict(hit[1]), hit[2]


def images(spec: dict, ctx: Ctx) -> PodImages:
    """The image of every init container and container and every image volume's reference, as written:
    ImageLocality's inputs. A container list that is not a list of objects is reported by the resources reader
    (cluster/resources.py), so it is skipped here in silence."""
    refs = []
    for key in ("initContainers", "containers"):
        listed = spec.get(key)
        for i, c in enumerate(listed if isinstance(listed, list) else ()):
            if isinstance(c, dict):
                refs.append(as_str(c.get("image"), ctx, (key, i, "image")))
    volumes = []
    for i, v in enumerate(as_list(spec.get("volumes"), ctx, ("volumes",), "spec.volumes")):
        image = v.get("image") if isinstance(v, dict) else None
        if isinstance(image, dict):
            volumes.append(as_str(image.get("reference"), ctx, ("volumes", i, "image", "reference")))
    return PodImages(tuple(refs), tuple(volumes)) if refs or volumes else NO_IMAGES


def _optional_int(spec: dict, ctx: Ctx, key: str) -> int | None:
    value = spec.get(key)
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    ctx.report("WAS602", f"{key} must be an integer, got {value!r}", (key,))
    return None


def _gates(spec: dict, ctx: Ctx) -> tuple[str, ...]:
    out = []
    for i, gate in enumerate(as_list(spec.get("schedulingGates"), ctx, ("schedulingGates",), "schedulingGates")):
        name = gate.get("name") if isinstance(gate, dict) else None
        if isinstance(name, str) and name:
            out.append(name)
        else:
            ctx.report("WAS602", "a scheduling gate needs a name", ("schedulingGates", i, "name"))
    return tuple(out)


def pod_group_name(spec: dict, ctx: Ctx) -> str | None:
    group = spec.get("schedulingGroup")
    if group is None:
        return None
    name = group.get("podGroupName") if isinstance(group, dict) else None
    if isinstance(name, str) and name:
        return name
    ctx.report("WAS602", "schedulingGroup needs a podGroupName", ("schedulingGroup", "podGroupName"))
    return None


def _generated_names(status: dict) -> dict[str, str | None]:
    """`status.resourceClaimStatuses`: entry name -> generated claim name (None: the controller made none)."""
    out: dict[str, str | None] = {}
    items = status.get("resourceClaimStatuses")
    for item in items if isinstance(items, list) else ():
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            out[item["name"]] = _text(item.get("resourceClaimName"))
    return out


def resource_claims(spec: dict, status: dict, ctx: Ctx) -> tuple[PodClaim, ...]:
    """`spec.resourceClaims`: each entry names a ResourceClaim or a ResourceClaimTemplate (exactly one)."""
    generated = _generated_names(status)
    out = []
    for i, item in enumerate(as_list(spec.get("resourceClaims"), ctx, ("resourceClaims",), "resourceClaims")):
        name = item.get("name") if isinstance(item, dict) else None
        if not isinstance(name, str) or not name:
            ctx.report("WAS602", "a resourceClaims entry needs a name", ("resourceClaims", i, "name"))
            continue
        claim = as_str(item.get("resourceClaimName"), ctx, ("resourceClaims", i, "resourceClaimName")) or None
        template = as_str(item.get("resourceClaimTemplateName"), ctx,
                          ("resourceClaims", i, "resourceClaimTemplateName")) or None
        if (claim is None) == (template is None):
            ctx.report("WAS602", f"resourceClaims entry {name!r} must set exactly one of resourceClaimName and "
                       "resourceClaimTemplateName", ("resourceClaims", i))
            continue
        out.append(PodClaim(name, claim, template, generated.get(name) if template else None))
    return tuple(out)


def controller_owner(meta: dict) -> Owner | None:
    """The controlling ownerReference (ReplicaSet, Job, ...), which the plan reports as the pod's owner."""
    refs = meta.get("ownerReferences")
    if not isinstance(refs, list):
        return None
    for ref in refs:
        if isinstance(ref, dict) and ref.get("controller") is True and ref.get("kind") and ref.get("name"):
            return Owner(str(ref["kind"]), str(ref["name"]))
    return None


def _text(value: Any) -> str | None:
    """Status and bookkeeping strings the API server wrote itself: taken when they are strings, else ignored."""
    return value if isinstance(value, str) and value else None


def pod_from_parts(meta: dict, spec: dict, status: dict, mctx: Ctx, sctx: Ctx, source: Any = None) -> Pod:
    """Build a `Pod` record; the name and namespace are taken as given (callers check and default them)."""
    requests, non_zero, containers = requests_of(spec, sctx)
    return Pod(
        namespace=meta.get("namespace") or "default",
        name=meta.get("name") or "",
        requests=requests,
        non_zero_requests=non_zero,
        labels=string_map(meta.get("labels"), mctx, ("labels",)),
        node_name=as_str(spec.get("nodeName"), sctx, ("nodeName",)) or None,
        nominated_node_name=_text(status.get("nominatedNodeName")),
        node_selector=string_map(spec.get("nodeSelector"), sctx, ("nodeSelector",)),
        affinity=affinity(spec.get("affinity"), sctx.at("affinity")),
        tolerations=tolerations(spec.get("tolerations"), sctx.at("tolerations")),
        topology_spread=spread_constraints(spec.get("topologySpreadConstraints"), sctx.at("topologySpreadConstraints")),
        host_ports=host_ports(spec, sctx),
        scheduling_gates=_gates(spec, sctx),
        scheduler_name=as_str(spec.get("schedulerName"), sctx, ("schedulerName",)) or DEFAULT_SCHEDULER,
        priority_class_name=as_str(spec.get("priorityClassName"), sctx, ("priorityClassName",)) or None,
        priority=_optional_int(spec, sctx, "priority"),
        preemption_policy=as_str(spec.get("preemptionPolicy"), sctx, ("preemptionPolicy",)) or None,
        pod_group=pod_group_name(spec, sctx),
        owner=controller_owner(meta),
        phase=_text(status.get("phase")) or "Pending",
        terminating=meta.get("deletionTimestamp") is not None,
        creation_timestamp=_text(meta.get("creationTimestamp")),
        start_time=_text(status.get("startTime")),
        uid=_text(meta.get("uid")),
        resource_claims=resource_claims(spec, status, sctx) if spec.get("resourceClaims") else (),
        containers=containers,
        images=images(spec, sctx),
        source=source,
    )


def _part(obj: dict, key: str, ctx: Ctx) -> dict:
    value = obj.get(key)
    if value is None:
        return {}
    if isinstance(value, dict):
        return value
    ctx.report("WAS602", f"{key} must be a map", (key,))
    return {}


def parse_pod(obj: dict, ctx: Ctx) -> Pod:
    """A Pod document (snapshot or manifest)."""
    meta, spec, status = _part(obj, "metadata", ctx), _part(obj, "spec", ctx), _part(obj, "status", ctx)
    return pod_from_parts(meta, spec, status, ctx.at("metadata"), ctx.at("spec"), ctx.doc)
