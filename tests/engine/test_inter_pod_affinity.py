"""InterPodAffinity filter and score.

Follows pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go (TestRequiredAffinitySingleNode:
affinity satisfied by a pod in the same domain; "first pod of a series that have affinity to themselves";
anti-affinity to a matching pod on the node; existing pod's anti-affinity against the incoming pod; the three
reason strings) and scoring_test.go (preferred affinity/anti-affinity weights per topology domain, normalised
(s - min)·100/(max - min)).
"""

from builders import node, pod, selector
from enginehelp import decide, make_state
from hypothesis import given, settings
from hypothesis import strategies as st

from wasplan.cluster.model import Affinity, PodAffinityTerm, WeightedPodAffinityTerm
from wasplan.engine.plugins.inter_pod_affinity import (REASON_AFFINITY, REASON_ANTI, REASON_EXISTING, filter_reasons,
                                                       term_matches)

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


def _naive(nodes, placed_pods, p):
    """filtering.go node by node: affinity counts, anti-affinity counts, existing pods' anti-affinity."""
    where = {n.name: n for n in nodes}
    a = p.affinity
    aff, anti, blocked = {}, {}, set()
    for q, node_name in placed_pods:
        labels = where[node_name].labels
        if a.pod_required and all(term_matches(t, p, q) for t in a.pod_required):
            for t in a.pod_required:
                if t.topology_key in labels:
                    aff[(t.topology_key, labels[t.topology_key])] = aff.get((t.topology_key, labels[t.topology_key]), 0) + 1
        for t in a.anti_required:
            if term_matches(t, p, q) and t.topology_key in labels:
                anti[(t.topology_key, labels[t.topology_key])] = 1
        for t in (q.affinity.anti_required if q.affinity else ()):
            if term_matches(t, q, p) and t.topology_key in labels:
                blocked.add((t.topology_key, labels[t.topology_key]))
    self_ok = not aff and all(term_matches(t, p, p) for t in a.pod_required)
    out = []
    for n in nodes:
        keys_ok = all(t.topology_key in n.labels for t in a.pod_required)
        exist = all(aff.get((t.topology_key, n.labels.get(t.topology_key)), 0) > 0 for t in a.pod_required)
        if a.pod_required and not (keys_ok and (exist or self_ok)):
            out.append(REASON_AFFINITY)
        elif any((t.topology_key, n.labels.get(t.topology_key)) in anti for t in a.anti_required):
            out.append(REASON_ANTI)
        elif any(kv in blocked for kv in n.labels.items()):
            out.append(REASON_EXISTING)
        else:
            out.append(0)
    return out


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(["z1", "z2", None]), min_size=1, max_size=6),
       st.lists(st.tuples(st.integers(0, 5), st.sampled_from(["web", "db", "cache"]), st.booleans(),
                          st.sampled_from(["default", "other"])), max_size=10),
       st.sampled_from(["web", "db"]), st.sampled_from([(), ("db",), ("db", "cache")]),
       st.sampled_from([(), ("web",)]), st.sampled_from(["zone", HOST]))
def test_filter_matches_the_node_by_node_reference(zones, placements, app, affine_to, anti_to, key):
    nodes = [node(f"n{i}", labels={"zone": z} if z else {}) for i, z in enumerate(zones)]
    guard = Affinity(anti_required=(aff_term({"app": "web"}, key),))
    placed_pods = [(pod(f"q{i}", namespace=ns, labels={"app": label}, affinity=guard if guarded else None),
                    nodes[idx % len(nodes)].name) for i, (idx, label, guarded, ns) in enumerate(placements)]
    p = pod("p", labels={"app": app}, affinity=Affinity(
        pod_required=tuple(aff_term({"app": t}, key) for t in affine_to),
        anti_required=tuple(aff_term({"app": t}, key) for t in anti_to)))
    state = make_state(nodes, placed_pods)
    assert filter_reasons(state, p).tolist() == _naive(nodes, placed_pods, p)
