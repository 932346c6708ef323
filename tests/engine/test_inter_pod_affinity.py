"""InterPodAffinity filter and score.

Follows pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go (TestRequiredAffinitySingleNode:
affinity satisfied by a pod in the same domain; "first pod of a series that have affinity to themselves";
anti-affinity to a matching pod on the node; existing pod's anti-affinity against the incoming pod; the three
reason strings) and scoring_test.go (preferred affinity/anti-affinity weights per topology domain, normalised
(s - min)·100/(max - min)).
"""

from builders import node, pod, selector

from enginehelp import decide
from wasplan.cluster.model import Affinity, PodAffinityTerm, WeightedPodAffinityTerm

HOST = "kubernetes.io/hostname"
NODES = [node("a", labels={"zone": "z1"}), node("b", labels={"zone": "z1"}), node("c", labels={"zone": "z2"})]
SMALL_C = [*NODES[:2], node("c", cpu="1", labels={"zone": "z2"})]


def aff_term(labels, key=HOST):
    return PodAffinityTerm(selector(labels), key)


def test_required_affinity_follows_matching_pod_domain():
    p = pod("p", affinity=Affinity(pod_required=(aff_term({"app": "db"}, "zone"),)))
    assert decide(NODES, p, [(pod("db", labels={"app": "db"}), "c")])[0] == "c"
    big = pod("p", cpu="2", affinity=Affinity(pod_required=(aff_term({"app": "db"}, "zone"),)))
    _, msg = decide(SMALL_C, big, [(pod("db", labels={"app": "db"}), "c")])
    assert msg == "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match pod affinity rules."


def test_first_pod_of_self_affine_series_goes_anywhere():
    p = pod("p", labels={"app": "web"}, affinity=Affinity(pod_required=(aff_term({"app": "web"}),)))
    assert decide(NODES, p)[0] == "a"
    stranger = pod("p", labels={"app": "other"}, affinity=Affinity(pod_required=(aff_term({"app": "web"}),)))
    _, msg = decide(NODES, stranger)
    assert msg == "0/3 nodes are available: 3 node(s) didn't match pod affinity rules."


def test_anti_affinity_and_existing_anti_affinity():
    p = pod("p", labels={"app": "web"}, affinity=Affinity(anti_required=(aff_term({"app": "web"}, "zone"),)))
    existing = [(pod("w", labels={"app": "web"}), "a")]
    assert decide(NODES, p, existing)[0] == "c"
    guard = pod("g", labels={"app": "guard"}, affinity=Affinity(anti_required=(aff_term({"app": "web"}),)))
    guard_zone = pod("g", labels={"app": "guard"}, affinity=Affinity(anti_required=(aff_term({"app": "web"}, "zone"),)))
    _, msg = decide(SMALL_C, pod("p", cpu="2", labels={"app": "web"}), [(guard_zone, "a")])
    assert msg == ("0/3 nodes are available: 1 Insufficient cpu, "
                   "2 node(s) didn't satisfy existing pods anti-affinity rules.")
    assert decide(NODES, pod("p", labels={"app": "web"}), [(guard, "a")])[0] == "b"
    _, msg = decide([NODES[0]], p, existing)
    assert msg == "0/1 nodes are available: 1 node(s) didn't match pod anti-affinity rules."


def test_other_namespace_pods_do_not_match_by_default():
    p = pod("p", labels={"app": "web"}, affinity=Affinity(anti_required=(aff_term({"app": "web"}),)))
    assert decide(NODES[:1], p, [(pod("w", namespace="other", labels={"app": "web"}), "a")])[0] == "a"


def test_preferred_terms_score():
    prefer = Affinity(pod_preferred=(WeightedPodAffinityTerm(10, aff_term({"app": "cache"}, "zone")),),
                      anti_preferred=(WeightedPodAffinityTerm(5, aff_term({"app": "noisy"})),))
    existing = [(pod("cache", labels={"app": "cache"}), "a"), (pod("noisy", labels={"app": "noisy"}), "a")]
    # zone z1 gets +10 on a and b; a also gets -5: b wins
    assert decide(NODES, pod("p", affinity=prefer), existing)[0] == "b"
