"""DRA devices of the `Cluster` kind: the ResourceSlices a real driver would publish for a node pool, and
network-attached device pools.

A kubelet plugin publishes, per node and driver, one pool named after the node in one ResourceSlice with
`nodeName` set (the layout of the example driver in kubernetes-sigs/dra-example-driver and of
`k8s.io/dynamic-resource-allocation` `resourceslice` helpers for node-local devices): so `nodePools[].devices[]`
becomes, for every node, one slice per driver named `<node>-<driver>`, pool `<node>`, generation 1, one slice in
the pool. A `devicePools[]` entry is a network-attached pool: one slice named after the pool with either a node
selector (the given labels, ANDed, as one term) or `allNodes`.

Device names come from `namePattern` (default `<driver's first label>-{index}`, e.g. `gpu-0`) over the device's
index within its entry; string attribute values are templates over the same index (`pcieRoot: "pci-{index // 4}"`),
and `{int: "{index // 4}"}` gives an integer attribute computed the same way (for `matchAttribute` on a NUMA node).
The device records of a node pool are built once and shared by all its nodes (they are identical), which also lets
the allocator's CEL cache evaluate each selector once per device shape instead of once per node.
"""

from __future__ import annotations

from typing import Any

from wasplan.api.quantity import parse_quantity
from wasplan.cluster.devices import Attribute, Capacity, Device, DeviceTaint, NodeSelection, ResourceSlice
from wasplan.cluster.issues import Ctx
from wasplan.cluster.model import Node, NodeSelectorTerm, Requirement
from wasplan.cluster.template import compile_reported, render_reported

DEVICE_NAMES = frozenset({"index", "index1", "count"})


def _attribute(value: Any, env: dict, ctx: Ctx, path: tuple) -> Attribute | None:
    if isinstance(value, bool):
        return Attribute("bool", value)
    if isinstance(value, int):
        return Attribute("int", value)
    if isinstance(value, dict) and "version" in value:
        return Attribute("version", value["version"])
    text_path = path + ("int",) if isinstance(value, dict) else path
    template = compile_reported(value["int"] if isinstance(value, dict) else value, DEVICE_NAMES, ctx, text_path)
    text = None if template is None else render_reported(template, env, ctx, text_path)
    if text is None:
        return None
    if not isinstance(value, dict):
        return Attribute("string", text)
    try:
        return Attribute("int", int(text))
    except ValueError:
        ctx.report("WAS605", f"attribute template {value['int']!r} gives {text!r}, not an integer", text_path)
        return None


def _devices(entry: dict, ctx: Ctx) -> list[Device] | None:
    """The entry's devices, or None after a WAS605 finding (the schema already checked the shapes)."""
    default = entry["driver"].split(".")[0] + "-{index}"
    name_t = compile_reported(entry.get("namePattern", default), DEVICE_NAMES, ctx, ("namePattern",))
    if name_t is None:
        return None
    capacity = {k: Capacity(parse_quantity(v).amount) for k, v in (entry.get("capacity") or {}).items()}
    taints = tuple(DeviceTaint(t["key"], t.get("value", ""), t["effect"]) for t in entry.get("taints") or ())
    count, out = entry["count"], []
    for index in range(count):
        env = {"index": index, "index1": index + 1, "count": count}
        name = render_reported(name_t, env, ctx, ("namePattern",))
        attrs = {k: _attribute(v, env, ctx, ("attributes", k)) for k, v in (entry.get("attributes") or {}).items()}
        if name is None or any(a is None for a in attrs.values()):
            return None
        out.append(Device(name, attrs, capacity, taints=taints))  # type: ignore[arg-type]
    return out


def _by_driver(entries: list, ctx: Ctx) -> dict[str, tuple[Device, ...]] | None:
    """Per driver (in order of first mention), the devices of all its entries; duplicate names are a finding."""
    out: dict[str, list[Device]] = {}
    for i, entry in enumerate(entries):
        devices = _devices(entry, ctx.at("devices", i))
        if devices is None:
            return None
        have = out.setdefault(entry["driver"], [])
        taken = {d.name for d in have}
        for d in devices:
            if d.name in taken:
                ctx.at("devices", i).report("WAS605", f"device name {d.name!r} of driver {entry['driver']} is used "
                                                      "twice on one node; give the entries different namePatterns",
                                            ("namePattern",))
                return None
            taken.add(d.name)
        have.extend(devices)
    return {driver: tuple(devices) for driver, devices in out.items()}


def node_pool_slices(pool: dict, nodes: list[Node], ctx: Ctx) -> list[ResourceSlice]:
    """One ResourceSlice per node and driver for `nodePools[].devices` (`ctx` points at the pool)."""
    per_driver = _by_driver(pool.get("devices") or [], ctx)
    if not per_driver:
        return []
    return [ResourceSlice(name=f"{node.name}-{driver}", driver=driver, pool=node.name, generation=1, slice_count=1,
                          node=NodeSelection(node_name=node.name), devices=devices, source=ctx.doc)
            for node in nodes for driver, devices in per_driver.items()]


def network_pool_slice(entry: dict, ctx: Ctx) -> ResourceSlice | None:
    """`devicePools[]`: one slice reachable from the nodes with the given labels, or from every node."""
    devices = _devices(entry, ctx)
    if devices is None:
        return None
    if entry.get("allNodes"):
        where = NodeSelection(all_nodes=True)
    else:
        term = NodeSelectorTerm(tuple(Requirement(k, "In", (v,)) for k, v in sorted(entry["nodeSelector"].items())))
        where = NodeSelection(node_selector=(term,))
    return ResourceSlice(name=entry["name"], driver=entry["driver"], pool=entry["name"], generation=1, slice_count=1,
                         node=where, devices=tuple(devices), source=ctx.doc)
