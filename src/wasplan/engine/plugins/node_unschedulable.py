"""NodeUnschedulable filter (upstream pkg/scheduler/framework/plugins/nodeunschedulable).

A node with `spec.unschedulable` rejects pods unless they tolerate `node.kubernetes.io/unschedulable:NoSchedule`.
"""

from __future__ import annotations

from wasplan.cluster.model import Taint, Toleration
from wasplan.engine.pluginapi.status import REASONS, Code
from wasplan.engine.pluginapi.tolerations import tolerates

NAME = "NodeUnschedulable"
REASON = REASONS.intern("node(s) were unschedulable", Code.UNRESOLVABLE)
_TAINT = Taint("node.kubernetes.io/unschedulable", "", "NoSchedule")


def passes(unschedulable: bool, tolerations: tuple[Toleration, ...]) -> bool:
    return not unschedulable or any(tolerates(t, _TAINT) for t in tolerations)


def evaluate_static(nodes, pod, out) -> None:
    """The static verdict (static.py): once per group of nodes with the same taints and cordon."""
    for (_, unschedulable), rows in nodes.taint_groups.items():
        if not passes(unschedulable, pod.tolerations):
            out.by_plugin[NAME][rows] = REASON


def describe(pod, nodes) -> tuple[str, ...]:
    """The pod's side of the rejection, for explain."""
    return ("nodes are cordoned (spec.unschedulable) and the pod does not tolerate it",)
