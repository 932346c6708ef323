"""NodeResourcesBalancedAllocation.

Follows pkg/scheduler/framework/plugins/noderesources/balanced_allocation_test.go of k8s.io/kubernetes v1.36.5 and
v1.37.2: a node's balance is int((1 - std) * 100) of the fractions of actual requests over allocatable
(|f_cpu - f_mem| / 2 as std for two resources), and the score is 50 + (50 + balance with the pod - balance
without it) // 2; best-effort pods skip the plugin. The differential tests against upstream (tests/oracle)
found wasplan still scoring the balance with the pod alone, the formula of earlier releases.
"""

from builders import pod
from enginehelp import make_state

from wasplan.cluster.model import Node
from wasplan.engine.plugins import balanced_allocation
from wasplan.engine.cycle.rescache import Rows


def raw_node(name, cpu_m, mem):
    return Node(name, {}, {"cpu": cpu_m, "memory": mem, "pods": 110})


def score(nodes, p, resources=("cpu", "memory"), placed=()):
    state = make_state(nodes, placed, p.requests)
    req = state.request_vector(p)
    return balanced_allocation.score(Rows(state), req, balanced_allocation.columns(state.col, req, resources)).tolist()


def test_upstream_case_3000m_5000_on_empty_nodes():
    p = pod("p", cpu="3", memory="5000")
    # n1: balance 100 -> cpu .75, memory .5, std .125, 87: 50 + (50 - 13) // 2 = 68; n2: 100 -> 100: 75
    assert score([raw_node("n1", 4000, 10000), raw_node("n2", 6000, 10000)], p) == [68, 75]


def test_upstream_cases_with_pods_scheduled():
    p = pod("p", cpu="3", memory="5000")
    placed = [(pod("x", cpu="3"), "n1"), (pod("y", cpu="3", memory="5000"), "n2")]
    # n1: cpu .3 -> .6, memory 0 -> .25: 85 -> 82 = 73; n2: .3/.25 -> .6/.5: 97 -> 95 = 74
    assert score([raw_node("n1", 10000, 20000), raw_node("n2", 10000, 20000)], p, placed=placed) == [73, 74]
    # n2 with 50000 memory: .3/.1 -> .6/.2: 90 -> 80 = 70
    assert score([raw_node("n1", 10000, 20000), raw_node("n2", 10000, 50000)], p, placed=placed) == [73, 70]


def test_upstream_cases_reaching_the_maximum_and_the_minimum():
    placed = [(pod("x", cpu="3"), "n1")]
    # n1: cpu 1 and memory 0 -> 1 and 1: 50 -> 100 = 100; n2: 0/0 -> 0/1: 100 -> 50 = 50
    assert score([raw_node("n1", 3000, 5000), raw_node("n2", 3000, 5000)], pod("p", memory="5000"),
                 placed=placed) == [100, 50]


def test_existing_requests_count_and_fractions_cap_at_one():
    p = pod("p", cpu="1", memory="1000")
    placed = [(pod("x", cpu="4", memory="1000"), "n1")]
    # before: cpu 1, memory .1 -> std .45 -> 55; after: cpu capped at 1, memory .2 -> std .4 -> 60
    assert score([raw_node("n1", 4000, 10000)], p, placed=placed) == [50 + (50 + 60 - 55) // 2]


def test_three_resources_use_population_std():
    nodes = [Node("n1", {}, {"cpu": 1000, "memory": 1000, "ephemeral-storage": 1000, "pods": 110})]
    p = pod("p", cpu="500m", memory="250")
    p.requests["ephemeral-storage"] = 1000
    got = score(nodes, p, ("cpu", "memory", "ephemeral-storage"))
    # before: all 0 -> 100; after: fractions .5, .25, 1 -> mean .5833, population std .3118 -> int(68.8) = 68
    assert got == [50 + (50 + 68 - 100) // 2]


def test_best_effort_pod_skips():
    state = make_state([raw_node("n1", 1000, 1000)])
    for p, expected in ((pod("p"), True), (pod("p", cpu="1"), False)):
        req = state.request_vector(p)
        assert balanced_allocation.skips(req, balanced_allocation.columns(state.col, req, ("cpu", "memory"))) is expected
