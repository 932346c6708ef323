"""NodeName filter (upstream pkg/scheduler/framework/plugins/nodename): `spec.nodeName`, when set, must match."""

from __future__ import annotations

from wasplan.engine.pluginapi.status import REASONS, Code

NAME = "NodeName"
REASON = REASONS.intern("node(s) didn't match the requested node name", Code.UNRESOLVABLE)


def passes(wanted: str | None, node_name: str) -> bool:
    return not wanted or wanted == node_name


def evaluate_static(nodes, pod, out) -> None:
    """The static verdict (static.py)."""
    if pod.node_name:
        out.by_plugin[NAME][:] = [0 if passes(pod.node_name, x.name) else REASON for x in nodes.state.nodes]


def describe(pod, nodes) -> tuple[str, ...]:
    """The pod's side of the rejection, for explain."""
    return (f"spec.nodeName is {pod.node_name}",)
