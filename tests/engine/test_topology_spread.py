"""PodTopologySpread filter and score.

Follows pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go (TestSingleConstraint: "pods spread
across zones as 3/1, only zone2 fits", "node missing the topology key" -> `(missing required label)`, minDomains
forcing the global minimum to 0; nodeAffinityPolicy Honor/Ignore; matchLabelKeys merged into the selector) and
scoring_test.go (ScheduleAnyway: fewer matching pods in the domain score higher; nodes missing the key score 0).
"""

import numpy as np
from builders import node, pod, spread
from hypothesis import given, settings
from hypothesis import strategies as st
from enginehelp import decide, make_state

from wasplan.engine.plugins import topology_spread

ZONES = [node("a1", labels={"zone": "z1"}), node("a2", labels={"zone": "z1"}), node("b1", labels={"zone": "z2"}),
         node("b2", labels={"zone": "z2"})]
SMALL_Z2 = [*ZONES[:2], node("b1", cpu="1", labels={"zone": "z2"}), node("b2", cpu="1", labels={"zone": "z2"})]
FOO = {"foo": ""}


def placed(counts):
    out = []
    for node_name, n in counts.items():
        out += [(pod(f"{node_name}-{i}", labels=FOO), node_name) for i in range(n)]
    return out


def test_skew_allows_only_the_emptier_zone():
    p = pod("p", labels=FOO, spread=[spread("zone", 1, match=FOO)])
    existing = placed({"a1": 2, "a2": 1, "b1": 1})
    name, msg = decide(ZONES, p, existing)
    assert name in ("b1", "b2")
    p_big = pod("p", cpu="2", labels=FOO, spread=[spread("zone", 1, match=FOO)])
    _, msg = decide(SMALL_Z2, p_big, existing)
    assert msg == "0/4 nodes are available: 2 Insufficient cpu, 2 node(s) didn't match pod topology spread constraints."


def test_missing_label_is_unresolvable_reason():
    nodes = [*SMALL_Z2, node("nolabel")]
    p = pod("p", cpu="2", labels=FOO, spread=[spread("zone", 1, match=FOO)])
    _, msg = decide(nodes, p, placed({"a1": 1, "a2": 1}))
    assert msg == ("0/5 nodes are available: 1 node(s) didn't match pod topology spread constraints (missing "
                   "required label), 2 Insufficient cpu, 2 node(s) didn't match pod topology spread constraints.")


def test_min_domains_sets_global_min_to_zero():
    p = pod("p", labels=FOO, spread=[spread("zone", 1, match=FOO, min_domains=3)])
    existing = placed({"a1": 1, "b1": 1})
    name, msg = decide(ZONES, p, existing)
    # only 2 domains < minDomains 3: global min is 0, so 1 + 1 - 0 > 1 everywhere
    assert name is None and "4 node(s) didn't match pod topology spread constraints" in msg


def test_node_affinity_policy_honor_ignores_excluded_nodes():
    p = pod("p", labels=FOO, node_selector={"zone": "z1"}, spread=[spread("zone", 1, match=FOO)])
    existing = placed({"b1": 3})
    # z2 is excluded by the pod's node selector, so its pods do not raise the skew in z1
    assert decide(ZONES, p, existing)[0] in ("a1", "a2")
    ignore = pod("p", labels=FOO, node_selector={"zone": "z1"},
                 spread=[spread("zone", 1, match=FOO, node_affinity_policy="Ignore")])
    assert decide(ZONES, ignore, placed({"a1": 1}))[0] is None


def test_match_label_keys_narrow_the_selector():
    p = pod("p", labels={"foo": "", "rev": "2"}, spread=[spread("zone", 1, match=FOO, match_label_keys=("rev",))])
    old_revision = [(pod(f"o{i}", labels={"foo": "", "rev": "1"}), "a1") for i in range(3)]
    # the other revision's pods do not count: z1 is allowed and its empty node a2 wins on resources
    assert decide(ZONES, p, old_revision)[0] == "a2"
    without = pod("p", labels={"foo": "", "rev": "2"}, spread=[spread("zone", 1, match=FOO)])
    assert decide(ZONES, without, old_revision)[0] == "b1"


def test_schedule_anyway_scores_emptier_domain_higher():
    soft = pod("p", labels=FOO, spread=[spread("zone", 1, hard=False, match=FOO)])
    assert decide(ZONES, soft, placed({"a1": 2}))[0] == "b1"
    state = make_state(ZONES, placed({"a1": 2}))
    feasible = np.ones(4, dtype=bool)
    raw, ignored = topology_spread.raw_scores(state, soft, feasible, feasible, feasible)
    # weight log(2 domains + 2); z1 has 2 matching pods -> round(2 * 1.386) = 3, z2 -> 0
    assert raw.tolist() == [3, 3, 0, 0]
    assert topology_spread.normalize(raw, ignored, feasible).tolist() == [0, 0, 100, 100]


def _naive_filter(nodes, placed_pods, p, c):
    """Upstream's filter written out node by node (filtering.go), as a reference for the vector code."""
    sel = c.label_selector
    eligible = [n for n in nodes if c.topology_key in n.labels]
    per_domain = {}
    for n in eligible:
        per_domain.setdefault(n.labels[c.topology_key], 0)
    for q, node_name in placed_pods:
        n = next(x for x in nodes if x.name == node_name)
        if c.topology_key in n.labels and all(q.labels.get(k) == v for k, v in sel.match_labels):
            per_domain[n.labels[c.topology_key]] += 1
    global_min = min(per_domain.values()) if per_domain else None
    if c.min_domains is not None and len(per_domain) < c.min_domains:
        global_min = 0
    self_match = int(all(p.labels.get(k) == v for k, v in sel.match_labels))
    out = []
    for n in nodes:
        if c.topology_key not in n.labels:
            out.append(topology_spread.REASON_LABEL)
        elif global_min is not None and per_domain[n.labels[c.topology_key]] + self_match - global_min > c.max_skew:
            out.append(topology_spread.REASON_SKEW)
        else:
            out.append(0)
    return out


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(["z1", "z2", "z3", None]), min_size=1, max_size=7),
       st.lists(st.tuples(st.integers(0, 6), st.booleans()), max_size=12),
       st.integers(1, 2), st.sampled_from([None, 2, 4]), st.booleans())
def test_vector_filter_matches_the_node_by_node_reference(zones, placements, max_skew, min_domains, self_labelled):
    nodes = [node(f"n{i}", labels={"zone": z} if z else {}) for i, z in enumerate(zones)]
    placed_pods = [(pod(f"q{i}", labels=FOO if labelled else {}), nodes[idx % len(nodes)].name)
                   for i, (idx, labelled) in enumerate(placements)]
    c = spread("zone", max_skew, match=FOO, min_domains=min_domains)
    p = pod("p", labels=FOO if self_labelled else {}, spread=[c])
    state = make_state(nodes, placed_pods)
    ok = np.ones(len(nodes), dtype=bool)
    assert topology_spread.filter_reasons(state, p, ok, ok).tolist() == _naive_filter(nodes, placed_pods, p, c)
