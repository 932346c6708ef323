"""NodeResourcesFit filter and scoring strategies.

Follows pkg/scheduler/framework/plugins/noderesources/fit_test.go (TestEnoughRequests: "Too many pods",
"Insufficient <resource>", extended resources, UnschedulableAndUnresolvable when the request exceeds allocatable),
least_allocated_test.go / most_allocated_test.go ("resources requested, pods scheduled with resources": 4000m/10000
and 6000m/10000 nodes, pod 3000m/5000 -> 37/50 and 62/50) and requested_to_capacity_ratio_test.go (broken-linear
shape).
"""

from builders import GPU, node, pod
from enginehelp import decide, make_state

from wasplan.cluster.model import Node
from wasplan.engine.profile.config import Profile
from wasplan.engine.plugins import resources_fit
from wasplan.engine.plugins.resources_fit import ScoringStrategy
from wasplan.engine.cycle.rescache import Rows


def raw_node(name, cpu_m, mem, pods=110, **extra):
    return Node(name, {"kubernetes.io/hostname": name}, {"cpu": cpu_m, "memory": mem, "pods": pods, **extra})


def scores(nodes, p, strategy, placed=()):
    state = make_state(nodes, placed, p.requests)
    req, nz = state.vectors(p)
    cols, weights = resources_fit.scored_columns(state.col, strategy, req)
    return resources_fit.score(Rows(state), nz, cols, weights, strategy).tolist()


def test_least_allocated_upstream_case():
    p = pod("p", cpu="3", memory="5000")
    assert scores([raw_node("n1", 4000, 10000), raw_node("n2", 6000, 10000)], p, ScoringStrategy()) == [37, 50]


def test_most_allocated_upstream_case():
    p = pod("p", cpu="3", memory="5000")
    got = scores([raw_node("n1", 4000, 10000), raw_node("n2", 6000, 10000)], p, ScoringStrategy("MostAllocated"))
    assert got == [62, 50]


def test_requested_to_capacity_ratio_shape_scaled_and_rounded():
    p = pod("p", cpu="3", memory="5000")
    strategy = ScoringStrategy("RequestedToCapacityRatio", shape=((0, 0), (100, 10)))
    # cpu 75% -> 75, memory 50% -> 50; round((75 + 50) / 2) = 63 (half away from zero)
    assert scores([raw_node("n1", 4000, 10000)], p, strategy) == [63]


def test_non_zero_defaults_used_for_scoring_pods_without_requests():
    p = pod("p")  # no requests: 100m cpu and 200Mi memory count for scoring
    got = scores([raw_node("n1", 1000, 2000 * 2**20)], p, ScoringStrategy())
    assert got == [(90 + 90) // 2]


def test_insufficient_resources_message_counts_each_resource():
    nodes = [node("a", cpu="1", memory="1Gi"), node("b", cpu="1", memory="8Gi"), node("c", cpu="8", memory="8Gi")]
    name, msg = decide(nodes, pod("p", cpu="2", memory="2Gi"))
    assert name == "c"
    name, msg = decide(nodes, pod("p", cpu="16", memory="2Gi"))
    assert name is None
    assert msg == "0/3 nodes are available: 1 Insufficient memory, 3 Insufficient cpu."


def test_too_many_pods_and_extended_resources():
    nodes = [node("a", pods=1), node("b", gpu=2)]
    placed = [(pod("x"), "a")]
    name, msg = decide(nodes, pod("p", gpu=4), placed)
    assert msg == "0/2 nodes are available: 1 Too many pods, 2 Insufficient nvidia.com/gpu."


def test_request_above_allocatable_is_unresolvable():
    state = make_state([node("a", gpu=2), node("b", gpu=8)], [(pod("x", gpu=7), "b")])
    p = pod("p", gpu=4)
    req = state.request_vector(p)
    lacking, unresolvable = resources_fit.insufficient(state.alloc, state.requested, req,
                                                      resources_fit.checked_columns(req, state.col["pods"]))
    gpu_col = list(resources_fit.checked_columns(req, state.col["pods"])).index(state.col[GPU])
    assert lacking[:, gpu_col].tolist() == [True, True]
    assert unresolvable[:, gpu_col].tolist() == [True, False]


def test_least_allocated_prefers_emptier_node():
    nodes = [node("a", cpu="8"), node("b", cpu="8")]
    name, _ = decide(nodes, pod("p", cpu="1", memory="1Gi"), [(pod("x", cpu="4", memory="4Gi"), "a")])
    assert name == "b"


def test_most_allocated_profile_packs():
    nodes = [node("a", cpu="8"), node("b", cpu="8")]
    profile = Profile(fit_strategy=ScoringStrategy("MostAllocated"))
    name, _ = decide(nodes, pod("p", cpu="1", memory="1Gi"), [(pod("x", cpu="4", memory="4Gi"), "a")], profile)
    assert name == "a"


def test_score_ties_go_to_first_name():
    nodes = [node("b"), node("a"), node("c")]
    assert decide(nodes, pod("p", cpu="1"))[0] == "a"


def test_nominated_node_is_taken_when_it_passes_filters():
    nodes = [node("a", cpu="8"), node("b", cpu="8")]
    p = pod("p", cpu="1")
    p.nominated_node_name = "b"
    assert decide(nodes, p, [(pod("x", cpu="4"), "b")])[0] == "b"
    p.nominated_node_name = "b"
    assert decide(nodes, p, [(pod("x", cpu="8"), "b")])[0] == "a"
