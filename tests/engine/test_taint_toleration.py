"""TaintToleration filter and score.

Follows pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go (TestTaintTolerationFilter:
"A pod having no tolerations can't be scheduled onto a node with nonempty taints" with reason
`node(s) had untolerated taint(s)`; Exists/Equal matching; PreferNoSchedule ignored by the filter;
TestTaintTolerationScore: intolerable PreferNoSchedule taints normalised reversed).
"""

from builders import node, pod, taint, toleration
from enginehelp import decide

from wasplan.engine.plugins.taint_toleration import intolerable_prefer_count, tolerates, untolerated_reason
from wasplan.engine.pluginapi.status import REASONS


def test_untolerated_taint_message_names_first_taint():
    nodes = [node("a", taints=["dedicated=user1:NoSchedule", "other=x:NoExecute"])]
    name, msg = decide(nodes, pod("p"))
    assert name is None
    assert msg == "0/1 nodes are available: 1 node(s) had untolerated taint(s)."


def test_toleration_matching():
    t = taint("dedicated=user1:NoSchedule")
    assert tolerates(toleration("dedicated", "user1", "NoSchedule"), t)
    assert tolerates(toleration("dedicated", operator="Exists"), t)
    assert tolerates(toleration(operator="Exists"), t)  # empty key + Exists tolerates everything
    assert not tolerates(toleration("dedicated", "user2", "NoSchedule"), t)
    assert not tolerates(toleration("dedicated", "user1", "NoExecute"), t)
    assert tolerates(toleration("dedicated", "user1"), t)  # empty effect matches all effects


def test_prefer_no_schedule_is_not_a_filter():
    taints = (taint("x=y:PreferNoSchedule"),)
    assert untolerated_reason(taints, ()) == 0
    assert REASONS.text[untolerated_reason((taint("gpu=true:NoSchedule"),), ())] == \
        "node(s) had untolerated taint(s)"


def test_score_prefers_fewest_intolerable_prefer_taints():
    nodes = [node("a", taints=["t1=v:PreferNoSchedule", "t2=v:PreferNoSchedule"]),
             node("b", taints=["t1=v:PreferNoSchedule"]), node("c", taints=["t1=v:PreferNoSchedule"])]
    assert decide(nodes, pod("p"))[0] == "b"
    tolerant = pod("p", tolerations=[toleration("t1", "v", "PreferNoSchedule")])
    assert intolerable_prefer_count(nodes[0].taints, tolerant.tolerations) == 1
    # a toleration limited to NoSchedule does not count for PreferNoSchedule taints
    assert intolerable_prefer_count(nodes[1].taints, (toleration("t1", "v", "NoSchedule"),)) == 1
