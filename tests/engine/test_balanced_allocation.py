"""NodeResourcesBalancedAllocation.

Follows pkg/scheduler/framework/plugins/noderesources/balanced_allocation_test.go: fractions of actual requests
(pod included) over allocatable, |f_cpu - f_mem| / 2 as std for two resources, int((1 - std) * 100); best-effort
pods skip the plugin.
"""

from builders import pod
from enginehelp import make_state

from wasplan.cluster.model import Node
from wasplan.engine.plugins import balanced_allocation
from wasplan.engine.rescache import Rows


def raw_node(name, cpu_m, mem):
    return Node(name, {}, {"cpu": cpu_m, "memory": mem, "pods": 110})


def score(nodes, p, resources=("cpu", "memory"), placed=()):
    state = make_state(nodes, placed, p.requests)
    req = state.request_vector(p)
    return balanced_allocation.score(Rows(state), req, balanced_allocation.columns(state.col, req, resources)).tolist()


def test_upstream_case_3000m_5000():
    p = pod("p", cpu="3", memory="5000")
    # n1: cpu .75, memory .5 -> std .125 -> 87; n2: .5 and .5 -> 100
    assert score([raw_node("n1", 4000, 10000), raw_node("n2", 6000, 10000)], p) == [87, 100]


def test_existing_requests_count_and_fractions_cap_at_one():
    p = pod("p", cpu="1", memory="1000")
    placed = [(pod("x", cpu="4", memory="1000"), "n1")]
    # cpu (4000 + 1000) / 4000 capped at 1, memory 2000 / 10000 = .2 -> std .4 -> 60
    assert score([raw_node("n1", 4000, 10000)], p, placed=placed) == [60]


def test_three_resources_use_population_std():
    nodes = [Node("n1", {}, {"cpu": 1000, "memory": 1000, "ephemeral-storage": 1000, "pods": 110})]
    p = pod("p", cpu="500m", memory="250")
    p.requests["ephemeral-storage"] = 1000
    got = score(nodes, p, ("cpu", "memory", "ephemeral-storage"))
    # fractions .5, .25, 1 -> mean .5833, population std .3118 -> int(68.8) = 68
    assert got == [68]


def test_best_effort_pod_skips():
    state = make_state([raw_node("n1", 1000, 1000)])
    for p, expected in ((pod("p"), True), (pod("p", cpu="1"), False)):
        req = state.request_vector(p)
        assert balanced_allocation.skips(req, balanced_allocation.columns(state.col, req, ("cpu", "memory"))) is expected
