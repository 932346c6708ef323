"""NodePorts filter (upstream pkg/scheduler/framework/plugins/nodeports).

A requested hostPort clashes with a port already used on the node when protocol and port are equal and either
address is 0.0.0.0 or both addresses are equal.
"""

from __future__ import annotations

import numpy as np

from wasplan.cluster.model import HostPort
from wasplan.engine.pluginapi.status import REASONS, Code

NAME = "NodePorts"
REASON = REASONS.intern("node(s) didn't have free ports for the requested pod ports", Code.UNSCHEDULABLE)
_ANY = "0.0.0.0"


def clashes(wanted: HostPort, used: HostPort) -> bool:
    if wanted.port != used.port or wanted.protocol != used.protocol:
        return False
    return wanted.host_ip in (_ANY, "") or used.host_ip in (_ANY, "") or wanted.host_ip == used.host_ip


def fail_reasons(state, ports: tuple[HostPort, ...]) -> np.ndarray:
    out = np.zeros(len(state.nodes), dtype=np.int32)
    if not ports:
        return out
    for i, pods in enumerate(state.pods_on):
        for other in pods.values():
            if any(clashes(w, u) for w in ports for u in other.host_ports):
                out[i] = REASON
                break
    return out


# ---- the exact check's necessary conditions (explain/exact/shapes.py) ------------------------------------------
def exact_allowed(state, pod, sv, codes) -> np.ndarray | None:
    """Nodes whose running pods leave the pod's host ports free (no placement of the group's pods frees them)."""
    if not pod.host_ports:
        return None
    return fail_reasons(state, pod.host_ports) == 0


def exact_conflict(a, b) -> bool:
    """Whether two pods can never share a node: a host port both want."""
    return any(clashes(w, u) for w in a.host_ports for u in b.host_ports)
