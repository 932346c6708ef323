"""NodeUnschedulable filter (upstream pkg/scheduler/framework/plugins/nodeunschedulable).

A node with `spec.unschedulable` rejects pods unless they tolerate `node.kubernetes.io/unschedulable:NoSchedule`.
"""

from __future__ import annotations

from wasplan.cluster.model import Taint, Toleration
from wasplan.engine.plugins.taint_toleration import tolerates
from wasplan.engine.status import REASONS, Code

NAME = "NodeUnschedulable"
REASON = REASONS.intern("node(s) were unschedulable", Code.UNRESOLVABLE)
_TAINT = Taint("node.kubernetes.io/unschedulable", "", "NoSchedule")


def passes(unschedulable: bool, tolerations: tuple[Toleration, ...]) -> bool:
    return not unschedulable or any(tolerates(t, _TAINT) for t in tolerations)
