"""NodeAffinity filter, PreFilter and score, and NodeName.

Follows pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go (TestNodeAffinity: nodeSelector,
In/NotIn/Exists/DoesNotExist/Gt/Lt terms, "Pod with matchFields using In operator that matches the existing
node", PreFilter result limiting nodes by metadata.name and the absent-node reason; TestNodeAffinityPriority:
weights summed per node and normalised by the maximum).
"""

from builders import node, node_affinity, pod, req, term
from enginehelp import decide

from wasplan.cluster.model import PreferredSchedulingTerm

NODES = [node("a", labels={"zone": "z1", "gen": "3"}), node("b", labels={"zone": "z2", "gen": "5"}),
         node("c", labels={"zone": "z2"})]


def test_node_selector():
    assert decide(NODES, pod("p", node_selector={"zone": "z2", "gen": "5"}))[0] == "b"
    name, msg = decide(NODES, pod("p", node_selector={"zone": "z9"}))
    assert msg == "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector."


def test_required_terms_operators():
    assert decide(NODES, pod("p", affinity=node_affinity(term(req("gen", "Gt", "4")))))[0] == "b"
    assert decide(NODES, pod("p", affinity=node_affinity(term(req("gen", "DoesNotExist")))))[0] == "c"
    assert decide(NODES, pod("p", affinity=node_affinity(term(req("zone", "NotIn", "z2")))))[0] == "a"
    both = node_affinity(term(req("gen", "Lt", "4")), term(req("zone", "In", "z9")))
    assert decide(NODES, pod("p", affinity=both))[0] == "a"


def test_match_fields_prefilter_reports_absent_nodes():
    affinity = node_affinity(term(fields=[req("metadata.name", "In", "c")]))
    assert decide(NODES, pod("p", affinity=affinity))[0] == "c"
    name, msg = decide(NODES, pod("p", cpu="100", affinity=affinity))
    assert msg == ("0/3 nodes are available: 1 Insufficient cpu, "
                   "2 node(s) didn't satisfy plugin(s) [NodeAffinity].")


def test_conflicting_match_fields_reject_in_prefilter():
    affinity = node_affinity(term(fields=[req("metadata.name", "In", "a"), req("metadata.name", "In", "b")]))
    name, msg = decide(NODES, pod("p", affinity=affinity))
    assert name is None and msg == "0/3 nodes are available: pod affinity terms conflict."


def test_preferred_terms_score():
    preferred = (PreferredSchedulingTerm(1, term(req("zone", "In", "z2"))),
                 PreferredSchedulingTerm(5, term(req("gen", "In", "3"))))
    assert decide(NODES, pod("p", affinity=node_affinity(preferred=preferred)))[0] == "a"
