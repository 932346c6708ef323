"""Nodes, PriorityClasses, PodDisruptionBudgets and the scheduling kinds as records.

Every reader here takes a whole object and a context, never raises on bad input, and reports what it had to
leave out (WAS6xx) so a snapshot with one odd object still plans.
"""

from __future__ import annotations

from typing import Any

from wasplan.api.convert import CONVERTIBLE_KINDS, KNOWN_VERSIONS, to_hub
from wasplan.api.fields import FieldError
from wasplan.api.releases import SCHEDULING_GROUP
from wasplan.cluster import dra_gate
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Group, Node, NodeImage, PodDisruptionBudget, PriorityClass, Record, Resources
from wasplan.cluster.parse_pod import parse_pod
from wasplan.cluster.placement import taints
from wasplan.cluster.resources import quantities, to_units
from wasplan.cluster.selectors import as_str, label_selector, string_map

PREEMPT_LOWER = "PreemptLowerPriority"


def _section(obj: dict, key: str, ctx: Ctx) -> dict:
    value = obj.get(key)
    if isinstance(value, dict):
        return value
    if value is not None:
        ctx.report("WAS602", f"{key} must be a map", (key,))
    return {}


# a node shape's quantity texts -> its resources, for shapes read without a finding: the nodes of a pool repeat
# them, and the exact (Fraction) arithmetic of to_units costs more than the lookup
_SHAPES: dict[tuple, Resources] = {}
_MAX_SHAPES = 4096


def _shape_key(raw: object) -> tuple | None:
    """A quantity map written as texts, as a key of `_SHAPES`; None for anything else (never cached)."""
    if not isinstance(raw, dict):
        return None
    items = tuple(raw.items())
    return items if all(type(k) is str and type(v) is str for k, v in items) else None


def node_capacity(status: dict, ctx: Ctx) -> Resources:
    """`status.allocatable` (what the scheduler fits against), or `status.capacity` when a hand-written node has
    no allocatable. Computed once per node shape (the same quantity texts); each node gets its own dict."""
    field = "allocatable" if status.get("allocatable") else "capacity"
    raw = status.get(field)
    key = _shape_key(raw)
    found = _SHAPES.get(key) if key is not None else None
    if found is not None:
        return dict(found)
    reported = len(ctx.diags)
    resources = to_units(quantities(raw, ctx, ("status", field)))
    if key is not None and len(ctx.diags) == reported and len(_SHAPES) < _MAX_SHAPES:
        _SHAPES[key] = dict(resources)
    return resources


def parse_node(obj: dict, ctx: Ctx) -> Node:
    meta, spec, status = (_section(obj, k, ctx) for k in ("metadata", "spec", "status"))
    unschedulable = spec.get("unschedulable", False)
    if not isinstance(unschedulable, bool):
        ctx.report("WAS602", f"spec.unschedulable must be true or false, got {unschedulable!r}", ("spec", "unschedulable"))
        unschedulable = False
    return Node(
        name=meta.get("name") or "",
        labels=string_map(meta.get("labels"), ctx, ("metadata", "labels")),
        allocatable=node_capacity(status, ctx),
        taints=taints(spec.get("taints"), ctx.at("spec", "taints")),
        unschedulable=unschedulable,
        source=ctx.doc,
        images=node_images(status.get("images"), ctx) if status.get("images") else (),
    )


def node_images(raw: Any, ctx: Ctx) -> tuple[NodeImage, ...]:
    """`status.images` (the kubelet's list: every name of an image and its sizeBytes), read by ImageLocality.
    An entry with a malformed name list or size is reported and left out."""
    if not isinstance(raw, list):
        ctx.report("WAS602", "status.images must be a list", ("status", "images"))
        return ()
    out = []
    for i, entry in enumerate(raw):
        at = ("status", "images", i)
        names = entry.get("names") if isinstance(entry, dict) else None
        size = entry.get("sizeBytes", 0) if isinstance(entry, dict) else None
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            ctx.report("WAS602", "status.images[] must have names: a list of strings", at + ("names",))
        elif not isinstance(size, int) or isinstance(size, bool) or size < 0:
            ctx.report("WAS602", f"status.images[].sizeBytes must be a non-negative integer, got {size!r}",
                       at + ("sizeBytes",))
        else:
            out.append(NodeImage(tuple(names), size))
    return tuple(out)


def parse_priority_class(obj: dict, ctx: Ctx) -> PriorityClass | None:
    value = obj.get("value")
    if not isinstance(value, int) or isinstance(value, bool):
        ctx.report("WAS602", f"PriorityClass value must be an integer, got {value!r}", ("value",))
        return None
    policy = obj.get("preemptionPolicy") or PREEMPT_LOWER
    if policy not in (PREEMPT_LOWER, "Never"):
        ctx.report("WAS602", f"preemptionPolicy must be PreemptLowerPriority or Never, got {policy!r}", ("preemptionPolicy",))
        policy = PREEMPT_LOWER
    return PriorityClass(
        name=meta.get("name") or "" if isinstance(meta := obj.get("metadata"), dict) else "",
        value=value,
        global_default=obj.get("globalDefault") is True,
        preemption_policy=policy,
        source=ctx.doc,
    )


def _int_or_percent(spec: dict, key: str, ctx: Ctx) -> int | str | None:
    value = spec.get(key)
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
        return value
    if isinstance(value, str) and value.endswith("%") and value[:-1].isdigit():
        return value
    ctx.report("WAS602", f"{key} must be a non-negative integer or a percentage such as 50%, got {value!r}",
               ("spec", key))
    return None


def parse_pdb(obj: dict, ctx: Ctx) -> PodDisruptionBudget:
    meta, spec, status = (_section(obj, k, ctx) for k in ("metadata", "spec", "status"))
    allowed = status.get("disruptionsAllowed")
    return PodDisruptionBudget(
        namespace=meta.get("namespace") or "default",
        name=meta.get("name") or "",
        selector=label_selector(spec.get("selector"), ctx.at("spec", "selector")),
        min_available=_int_or_percent(spec, "minAvailable", ctx),
        max_unavailable=_int_or_percent(spec, "maxUnavailable", ctx),
        disruptions_allowed=allowed if isinstance(allowed, int) and not isinstance(allowed, bool) else None,
        source=ctx.doc,
    )


def parse_group(obj: dict, ctx: Ctx) -> Group | None:
    """A Workload, PodGroup or CompositePodGroup of any known version, through the hub conversion. Validation
    reports shape problems in detail; here a failure only means the planner cannot use the object."""
    try:
        hub_obj = to_hub(obj)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        # to_hub's own refusals (a ValueError) name the field and the value; anything else is shown with its type
        detail = str(exc) if isinstance(exc, ValueError) else f"{exc.__class__.__name__}: {exc}"
        ctx.report("WAS608", f"{ctx.subject()} cannot be read for planning ({detail}); "
                   "run `wasplan validate` for details", exc.path if isinstance(exc, FieldError) else ())
        return None
    meta = obj.get("metadata") or {}
    return Group(namespace=meta.get("namespace") or "default", name=meta.get("name") or "", obj=hub_obj, source=ctx.doc)


def is_scheduling_kind(api_version: str, kind: str) -> bool:
    return kind in CONVERTIBLE_KINDS and (api_version in KNOWN_VERSIONS or api_version.startswith(SCHEDULING_GROUP + "/"))


def parse_record(obj: dict, ctx: Ctx) -> Record | None:
    """One object to its record, or None for kinds the planner does not read (Services, ConfigMaps, ...)."""
    api_version, kind = obj.get("apiVersion") or "", obj.get("kind") or ""
    if kind == "Pod" and api_version == "v1":
        return parse_pod(obj, ctx)
    if kind == "Node" and api_version == "v1":
        return parse_node(obj, ctx)
    if kind == "PriorityClass" and api_version.startswith("scheduling.k8s.io/"):
        return parse_priority_class(obj, ctx)
    if kind == "PodDisruptionBudget" and api_version.startswith("policy/"):
        return parse_pdb(obj, ctx)
    if is_scheduling_kind(api_version, kind):
        return parse_group(obj, ctx)
    if dra_gate.is_dra_kind(api_version, kind):
        return dra_gate.parse(obj, ctx)
    return None


def object_name(obj: dict) -> Any:
    meta = obj.get("metadata")
    return meta.get("name") if isinstance(meta, dict) else None
