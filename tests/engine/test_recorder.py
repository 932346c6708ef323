"""The per-plugin recorder explanations read: every plugin judged on its own, not just the first that fails."""

from builders import node, pod
from enginehelp import make_state

from wasplan.engine.profile.config import Profile
from wasplan.engine.cycle.framework import Evaluator
from wasplan.engine.cycle.recorder import record


def test_every_plugin_is_judged_on_every_node():
    nodes = [node("a", cpu="1", taints=["gpu=true:NoSchedule"]), node("b", cpu="1"), node("c", cpu="8")]
    state = make_state(nodes)
    ev = Evaluator(state, Profile())
    p = pod("p", cpu="2")
    verdicts = record(ev, p)
    assert verdicts.counts("TaintToleration") == {"node(s) had untolerated taint(s)": 1}
    # the tainted node is also too small: the FitError shows only the taint, the recorder shows both
    assert verdicts.counts("NodeResourcesFit") == {"Insufficient cpu": 2}
    assert verdicts.node_reasons(0) == {"TaintToleration": ["node(s) had untolerated taint(s)"],
                                        "NodeResourcesFit": ["Insufficient cpu"]}
    assert verdicts.node_reasons(2) == {}
    assert ev.find_node(p).node == 2
    big = pod("big", cpu="16")
    assert ev.find_node(big).message == ("0/3 nodes are available: 1 node(s) had untolerated taint(s), "
                                         "2 Insufficient cpu.")
    assert ev.find_node(big).diagnosis.node_reasons(0) == ["node(s) had untolerated taint(s)"]
    assert ev.find_node(big).diagnosis.unresolvable.tolist() == [True, True, True]
