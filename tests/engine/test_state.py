"""Cluster state arrays and the undo journal that trial placements rely on."""

import numpy as np
from builders import GPU, node, pod
from enginehelp import make_state


def test_reserve_remove_and_rollback_restore_every_array():
    state = make_state([node("a", gpu=4), node("b", gpu=4)], [(pod("x", cpu="1", gpu=1), "a")])
    before = (state.requested.copy(), state.non_zero.copy(), dict(state.placed))
    mark = state.mark()
    state.reserve(pod("y", cpu="2", gpu=2), state.index["b"])
    state.remove(state.placed["default/x"].pod)
    assert state.requested[state.index["b"], state.col[GPU]] == 2
    assert state.requested[state.index["a"], state.col["pods"]] == 0
    state.rollback(mark)
    assert np.array_equal(state.requested, before[0]) and np.array_equal(state.non_zero, before[1])
    assert state.placed.keys() == before[2].keys()
    assert state.node_of("default/x") == "a" and state.node_of("default/y") is None


def test_non_zero_requests_for_empty_pods():
    state = make_state([node("a")], [(pod("x"), "a")])
    assert state.requested[0, state.col["cpu"]] == 0
    assert state.non_zero[0, state.col["cpu"]] == 100
    assert state.non_zero[0, state.col["memory"]] == 200 * 2**20


def test_adding_a_node_keeps_placements_and_name_order():
    state = make_state([node("b"), node("d")], [(pod("x", cpu="1"), "d")])
    epoch = state.epoch
    state.add_node(node("a"))
    assert [n.name for n in state.nodes] == ["a", "b", "d"]
    assert state.node_of("default/x") == "d" and state.requested[2, state.col["cpu"]] == 1000
    assert state.epoch != epoch


def test_every_change_to_the_node_arrays_gives_a_new_version_and_nothing_else_does():
    """framework.py's "no node fits" memo and the other per-version memos rely on this."""
    state = make_state([node("a", gpu=4), node("b", gpu=4)], [(pod("x", cpu="1", gpu=1), "a")])
    seen = [state.version]

    def changed() -> bool:
        fresh = state.version not in seen
        seen.append(state.version)
        return fresh

    mark = state.mark()
    state.rollback(mark)  # nothing to undo
    state.commit()
    assert not changed()
    state.reserve(pod("y", cpu="2"), state.index["b"])
    assert changed()
    state.remove(state.placed["default/x"].pod)
    assert changed()
    state.rollback(mark)
    assert changed()  # back to the same arrays, under a version never used before
    state.shift([state.placed["default/x"].pod], -1)
    assert changed()
    state.add_node(node("c"))
    assert changed()


def test_a_node_keeps_its_pods_in_nodeinfo_order_and_a_rollback_restores_it():
    # upstream's NodeInfo.RemovePod moves the last pod into the removed one's slot (framework/types.go
    # removeFromSlice); 1.36's victim order reads that order
    pods = [pod(n, cpu="100m") for n in ("p1", "p2", "p3", "p4")]
    state = make_state([node("a")], [(p, "a") for p in pods])
    row = state.index["a"]
    order = lambda: [k.split("/")[1] for k in state.pods_on[row]]  # noqa: E731
    assert order() == ["p1", "p2", "p3", "p4"]
    mark = state.mark()
    state.remove(pods[1])
    assert order() == ["p1", "p4", "p3"]
    state.remove(pods[0])
    assert order() == ["p3", "p4"]
    state.remove(pods[3])
    assert order() == ["p3"]
    state.rollback(mark)
    assert order() == ["p1", "p2", "p3", "p4"]
    state.remove(pods[0])
    state.commit()
    state.reserve(pod("p5", cpu="100m"), row)
    assert order() == ["p4", "p2", "p3", "p5"]
