"""NodeName filter (upstream pkg/scheduler/framework/plugins/nodename): `spec.nodeName`, when set, must match."""

from __future__ import annotations

from wasplan.engine.status import REASONS, Code

NAME = "NodeName"
REASON = REASONS.intern("node(s) didn't match the requested node name", Code.UNRESOLVABLE)


def passes(wanted: str | None, node_name: str) -> bool:
    return not wanted or wanted == node_name
