"""NodeName filter.

Follows pkg/scheduler/framework/plugins/nodename/node_name_test.go: no spec.nodeName passes everywhere; a set
nodeName passes only on that node (`node(s) didn't match the requested node name`). Pods that arrive with
spec.nodeName are bound already (kubelet takes them), so the simulator meets this filter only through the plugin.
"""

from builders import node, pod
from enginehelp import make_state

from wasplan.engine.cycle import static
from wasplan.engine.profile.config import Profile
from wasplan.engine.plugins.node_name import passes as node_name_passes
from wasplan.engine.pluginapi.status import REASONS


def test_passes():
    assert node_name_passes(None, "a") and node_name_passes("a", "a") and not node_name_passes("b", "a")


def test_static_verdict_names_the_other_nodes():
    state = make_state([node("a"), node("b")])
    verdict = static.compute(state, pod("p", node_name="b"), Profile())
    assert [REASONS.text[r] for r in verdict.by_plugin["NodeName"]] == \
        ["node(s) didn't match the requested node name", ""]
