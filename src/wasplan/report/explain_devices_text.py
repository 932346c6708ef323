"""The devices part of a pod shape's explanation (explain/devices.py): per claim request the devices left after
each of the allocator's checks, what stopped them with the values devices have, the constraints no node meets,
per topology domain the devices the group needs against the free ones, and the greedy-order finding. Renders
only, wrapped to the console like the rest of `wasplan explain`."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from wasplan.explain.devices_model import DeviceEvidence, RequestDevices
from wasplan.report.fit import print_wrapped
from wasplan.words import plural


def _values(values) -> str:
    return ", ".join(f'"{v.value}" ({v.devices})' for v in values)


def _request(console: Console, r: RequestDevices) -> None:
    amount = "all" if r.count == 0 else str(r.count)
    print_wrapped(console, escape(f"    claim {r.entry} ({r.origin}), request {r.request}: {amount} x "
                                  f"{r.device_class}, {r.needed} needed"))
    for s in r.stages:
        print_wrapped(console, escape(f"      {s.label}: {s.eligible} on nodes it may use ({s.cluster} in the "
                                      "cluster)"))
    print_wrapped(console, escape(f"      free {r.free}, allocated {r.allocated}; at most {r.most_on_node} free "
                                  f"on one node" + (f" ({r.node})" if r.node else "")))
    e = r.eliminated_by
    if e is None:
        return
    if e.kind == "selector" and e.values:
        name = e.attribute.rsplit("/", 1)[-1]
        closest = f' closest to "{e.literal}"' if e.literal else ""
        print_wrapped(console, escape(f"      stopped by the selector; {name} values{closest}: {_values(e.values)}"))
    elif e.kind == "capacity" and e.values:
        print_wrapped(console, escape(f"      stopped by capacity: {e.attribute} {e.literal} requested; devices "
                                      f"have {_values(e.values)}"))
    elif e.kind == "taints" and e.values:
        print_wrapped(console, escape(f"      stopped by untolerated device taints: {_values(e.values)}"))
    elif e.kind != "selector" or e.text not in {s.label.split(" ", 2)[-1] for s in r.stages}:
        print_wrapped(console, escape(f"      stopped by: {e.text}"))
    for u in e.unpublished:
        print_wrapped(console, escape(f"      {u.text()}"))


def render(console: Console, d: DeviceEvidence) -> None:
    print_wrapped(console, escape(f"    devices ({plural(d.nodes, 'node')} {'passes' if d.nodes == 1 else 'pass'} the pod's other filters):"))
    for r in d.requests:
        _request(console, r)
    for c in d.constraints:
        print_wrapped(console, escape(f"    constraint #{c.index} {c.kind} {c.attribute}: needs "
                                      f"{plural(c.needed, 'device')}, at most {c.best} on one node" +
                                      (f" ({c.node}: {_values(c.values)})" if c.node else "")))
    if d.domains:
        per = ", ".join(f"{x.domain} {x.request} {x.free} free of {x.needed}" for x in d.domains)
        print_wrapped(console, escape(f"    devices per domain: {per}"))
    g = d.greedy
    if g is not None and g.named:
        nodes = ", ".join(f"{n.node} {n.in_order} -> {n.together}" for n in g.nodes)
        print_wrapped(console, escape(f"    greedy device order: the allocator fits devices for {g.in_order} of "
                                      f"{plural(g.needed, 'pod')} one pod at a time, {g.together} with another assignment "
                                      f"of devices (it never revisits an earlier pod's devices, "
                                      f"kubernetes/kubernetes#138765); per node: {nodes}"))
    for note in d.notes:
        print_wrapped(console, f"    [dim]note: {escape(note)}[/dim]")
