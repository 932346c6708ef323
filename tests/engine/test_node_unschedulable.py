"""NodeUnschedulable filter.

Follows pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable_test.go: an unschedulable node
rejects pods (`node(s) were unschedulable`) unless they tolerate node.kubernetes.io/unschedulable:NoSchedule.
"""

from builders import node, pod, toleration
from enginehelp import decide

from wasplan.engine.plugins.node_unschedulable import passes as unschedulable_passes


def test_node_unschedulable():
    assert not unschedulable_passes(True, ())
    assert unschedulable_passes(True, (toleration("node.kubernetes.io/unschedulable", operator="Exists",
                                                  effect="NoSchedule"),))
    name, msg = decide([node("a", unschedulable=True), node("b", cpu="1")], pod("p", cpu="2"))
    assert msg == "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable."
