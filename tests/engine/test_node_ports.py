"""NodePorts filter.

Follows pkg/scheduler/framework/plugins/nodeports/node_ports_test.go (TestNodePorts: same port and protocol clash,
different protocol or port do not, 0.0.0.0 clashes with any address, different specific addresses do not).
"""

from builders import node, pod

from enginehelp import decide
from wasplan.cluster.model import HostPort
from wasplan.engine.plugins.node_ports import clashes


def test_clash_rules():
    assert clashes(HostPort(8080), HostPort(8080))
    assert not clashes(HostPort(8080, "UDP"), HostPort(8080))
    assert not clashes(HostPort(8081), HostPort(8080))
    assert clashes(HostPort(8080, "TCP", "127.0.0.1"), HostPort(8080))
    assert not clashes(HostPort(8080, "TCP", "127.0.0.1"), HostPort(8080, "TCP", "127.0.0.2"))


def test_filter_message():
    nodes = [node("a"), node("b")]
    placed = [(pod("x", ports=[8080]), "a"), (pod("y", ports=[8080]), "b")]
    name, msg = decide(nodes, pod("p", ports=[8080]), placed)
    assert msg == "0/2 nodes are available: 2 node(s) didn't have free ports for the requested pod ports."
    assert decide(nodes, pod("p", ports=[9090]), placed)[0] == "a"
