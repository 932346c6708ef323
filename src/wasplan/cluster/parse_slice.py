"""ResourceSlices (`resource.k8s.io/v1`) as `ResourceSlice` records.

What a driver publishes: a pool (`driver`, `pool.name`, `generation`, `resourceSliceCount`), where its devices
are reachable (exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection`), the devices with
typed attributes, capacities, counter consumption, taints and binding conditions, or `sharedCounters`. Shapes
follow `k8s.io/api` `resource/v1/types.go` (v0.36.0). A slice the allocator could not place (no pool, no node
selection) is left out with a finding; a bad device entry loses only itself. Duplicate device names inside a pool
are NOT dropped here: upstream marks such a pool invalid at allocation time, and so does the allocator.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from wasplan.api import dra_rules
from wasplan.cluster import dra_fields as f
from wasplan.cluster.devices import (
    Attribute, Capacity, CounterSet, Device, NodeSelection, RequestPolicy, ResourceSlice,
)
from wasplan.cluster.issues import Ctx
from wasplan.cluster.selectors import node_selector

_ATTRIBUTE_KINDS = ("int", "bool", "string", "version")


def _attribute(raw: Any, ctx: Ctx, name: str) -> Attribute | None:
    """One typed value (the API's rule, `dra_rules.attribute`); the finding context is only narrowed for a bad one."""
    problem = dra_rules.attribute(name, raw)
    if problem is not None:
        ctx.at(name).report("WAS649", problem.message, problem.path)
        return None
    key = next(k for k in _ATTRIBUTE_KINDS if k in raw)
    return Attribute(key, raw[key])  # type: ignore[arg-type]


def _attributes(raw: Any, ctx: Ctx) -> dict[str, Attribute]:
    out = {}
    for name, value in f.as_map(raw, ctx, "attributes").items():
        attr = _attribute(value, ctx, str(name))
        if attr is not None:
            out[str(name)] = attr
    return out


def _optional_quantity(raw: Any, ctx: Ctx, what: str) -> Fraction | None:
    return None if raw is None else f.quantity(raw, ctx, what)


def _policy(raw: Any, ctx: Ctx, name: str) -> RequestPolicy | None:
    """`requestPolicy {default, validValues | validRange {min, max, step}}` of one capacity."""
    if raw is None:
        return None
    raw = f.as_map(raw, ctx, "requestPolicy")
    what = f"capacity {name} requestPolicy"
    rng = f.as_map(raw.get("validRange"), ctx.at("validRange"), "validRange")
    values = [f.quantity(v, ctx.at("validValues", i), f"{what}.validValues[{i}]")
              for i, v in enumerate(f.as_items(raw.get("validValues"), ctx.at("validValues"), "validValues"))]
    bound = {key: _optional_quantity(rng.get(key), ctx.at("validRange", key), f"{what}.validRange.{key}")
             for key in ("min", "max", "step")}
    return RequestPolicy(default=_optional_quantity(raw.get("default"), ctx.at("default"), f"{what}.default"),
                         valid_values=tuple(v for v in values if v is not None),
                         range_min=bound["min"], range_max=bound["max"], range_step=bound["step"])


def _stored(value: Any) -> Any:
    """A capacity's or counter's `value` as the API server stores it: a resource.Quantity left out (or null)
    decodes to zero, and the server accepts it (validate/checker.py SERVER_OPTIONAL)."""
    return 0 if value is None else value


def _capacity(raw: Any, ctx: Ctx) -> dict[str, Capacity]:
    out = {}
    for name, entry in f.as_map(raw, ctx, "capacity").items():
        ectx = ctx.at(name)
        entry = f.as_map(entry, ectx, f"capacity {name}")
        value = f.quantity(_stored(entry.get("value")), ectx.at("value"), f"capacity {name}")
        if value is not None:
            out[str(name)] = Capacity(value, _policy(entry.get("requestPolicy"), ectx.at("requestPolicy"), str(name)))
    return out


def _counters(raw: Any, ctx: Ctx) -> tuple[tuple[str, Fraction], ...]:
    out = []
    for name, entry in f.as_map(raw, ctx, "counters").items():
        raw_value = f.as_map(entry, ctx.at(name), "counter").get("value")
        value = f.quantity(_stored(raw_value), ctx.at(name, "value"), f"counter {name}")
        if value is not None:
            out.append((str(name), value))
    return tuple(out)


def counter_sets(raw: Any, ctx: Ctx, name_key: str, what: str) -> tuple[CounterSet, ...]:
    out = []
    for i, item in enumerate(f.as_items(raw, ctx, what)):
        ictx = ctx.at(i)
        item = f.as_map(item, ictx, what)
        name = item.get(name_key)
        if not isinstance(name, str) or not name:
            ictx.report("WAS642", f"{what}[{i}] has no {name_key}; it was left out", (name_key,))
            continue
        out.append(CounterSet(name, _counters(item.get("counters"), ictx.at("counters"))))
    return tuple(out)


def _selection(raw: dict, ctx: Ctx, keys: tuple[str, ...], what: str) -> NodeSelection | None:
    """Exactly one of `keys` must be set (a `false` boolean counts as unset, as the API's validation reads it)."""
    key, problem = dra_rules.node_selection(raw, keys, what)
    if problem is not None or key is None:
        ctx.report("WAS641", problem.message if problem else what, ())
        return None
    if key == "nodeName":
        return NodeSelection(node_name=f.text(raw[key], ctx.at(key), key) or None)
    if key == "nodeSelector":
        return NodeSelection(node_selector=node_selector(raw[key], ctx.at(key)) or ())
    return NodeSelection(all_nodes=raw[key] is True) if key == "allNodes" else NodeSelection()


def _device(raw: Any, ctx: Ctx, per_device: bool) -> Device | None:
    raw = f.as_map(raw, ctx, "a device")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        ctx.report("WAS642", "a device has no name; it was left out", ("name",))
        return None
    node = NodeSelection()
    if per_device:
        selected = _selection(raw, ctx, ("nodeName", "nodeSelector", "allNodes"), f"device {name!r}")
        if selected is None:
            return None
        node = selected
    def field(key: str, parse, default):
        """Parse an optional field only when present, so a clean device builds no finding contexts."""
        value = raw.get(key)
        return default if value is None else parse(value, ctx.at(key), key)

    return Device(
        name=name,
        attributes=field("attributes", lambda v, c, _: _attributes(v, c), {}),
        capacity=field("capacity", lambda v, c, _: _capacity(v, c), {}),
        consumes_counters=field("consumesCounters", lambda v, c, k: counter_sets(v, c, "counterSet", k), ()),
        taints=field("taints", lambda v, c, _: f.taints(v, c), ()),
        binds_to_node=field("bindsToNode", f.flag, None) is True,
        binding_conditions=field("bindingConditions", f.strings, ()),
        binding_failure_conditions=field("bindingFailureConditions", f.strings, ()),
        allow_multiple_allocations=field("allowMultipleAllocations", f.flag, None),
        node=node,
    )


def _pool(spec: dict, ctx: Ctx) -> tuple[str, str, int, int] | None:
    problems = dra_rules.pool(spec)
    for problem in problems:
        ctx.report("WAS640", problem.message, problem.path)
    if problems:
        return None
    pool = spec["pool"]
    return spec["driver"], pool["name"], pool.get("generation", 0), pool["resourceSliceCount"]


def parse_resource_slice(obj: dict, ctx: Ctx) -> ResourceSlice | None:
    spec = f.as_map(obj.get("spec"), ctx.at("spec"), "spec")
    sctx = ctx.at("spec")
    pool = _pool(spec, sctx)
    if pool is None:
        return None
    counters = counter_sets(spec.get("sharedCounters"), sctx.at("sharedCounters"), "name", "sharedCounters")
    keys = ("nodeName", "nodeSelector", "allNodes", "perDeviceNodeSelection")
    node = _selection(spec, sctx, keys, "ResourceSlice spec") if not counters or any(spec.get(k) for k in keys) \
        else NodeSelection()
    if node is None:
        return None
    per_device = spec.get("perDeviceNodeSelection") is True
    items = f.as_items(spec.get("devices"), sctx, "devices")
    devices = (_device(d, sctx.at("devices", i), per_device) for i, d in enumerate(items))
    return ResourceSlice(
        name=(obj.get("metadata") or {}).get("name") or "", driver=pool[0], pool=pool[1], generation=pool[2],
        slice_count=pool[3], node=node, per_device_node_selection=per_device,
        devices=tuple(d for d in devices if d is not None), shared_counters=counters, source=ctx.doc)
