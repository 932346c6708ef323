"""The program's rules over the group's own placed pods (explain/exact/grouprules.py) on hand-made node classes:
each must stay a necessary condition. A pattern is what a node *may* take, so a rule that counted patterns
instead of placed pods would forbid real assignments (a node whose every maximal pattern includes a shape that
it does not actually take)."""

from __future__ import annotations

import numpy as np

from wasplan.explain.exact import solver
from wasplan.explain.exact.classes import NodeClass, Program
from wasplan.explain.exact.domainrules import Spread


def program(patterns, counts, needed, requests, **rules) -> Program:
    tags = rules.pop("tags", {})
    classes = [NodeClass(-1, patterns, rows=[k], tags=tags.get(k, ())) for k in range(2)]
    return Program(counts, np.array(requests, dtype=np.int64), needed, classes, [], None,
                   tuple(range(len(counts))), **rules)


def test_pods_sharing_a_node_local_claim_on_one_node_leave_the_other_node_to_the_rest():
    """Shape 0 shares a claim; every node's only maximal pattern holds two of shape 0 and one of shape 1. The
    assignment: both shape-0 pods and a shape-1 pod on one node, the other shape-1 pod alone on the other."""
    p = program(((2, 1),), (2, 2), 4, [[1], [5]], together=((0,),))
    assert solver.solve(p, 5.0).status == solver.FITS
    p = program(((2, 1),), (3, 2), 5, [[1], [5]], together=((0,),))
    got = solver.solve(p, 5.0)
    assert (got.status, got.bound) == (solver.NO_FIT, 4)  # the third shape-0 pod would need a second node


def test_a_device_the_whole_group_shares_caps_pods_not_patterns():
    """Each node may take three pods, one shared device in the cluster (column 0): one pod fits, two do not."""
    p = program(((3,),), (2,), 1, [[1]], totals=((0, 1),))
    assert solver.solve(p, 5.0).status == solver.FITS
    got = solver.solve(program(((3,),), (2,), 2, [[1]], totals=((0, 1),)), 5.0)
    assert (got.status, got.bound) == (solver.NO_FIT, 1)


def test_anti_affinity_apart_counts_placed_pods_per_domain():
    """Nodes in two zones (tags 0 and 1), three pods each, one pod per zone: two pods."""
    rules = {"apart": ((0, ((0, 0),)),), "tags": {0: (0,), 1: (1,)}}
    got = solver.solve(program(((3,),), (3,), 3, [[1]], **rules), 5.0)
    assert (got.status, got.bound) == (solver.NO_FIT, 2)
    rules = {"apart": ((0, ((0, 0),)),), "tags": {0: (0,), 1: (1,)}}  # consumed by `program`
    assert solver.solve(program(((3,),), (3,), 2, [[1]], **rules), 5.0).status == solver.FITS


def test_spread_lets_the_bigger_zone_run_max_skew_ahead_of_the_smaller():
    """Zone 0: a class of three nodes, zone 1: one node, one pod each; maxSkew 1: zone 0 ends at most one above
    zone 1, counting the matching pods already running there."""
    classes = [NodeClass(-1, ((1,),), rows=[0, 1, 2], tags=(0,)), NodeClass(-1, ((1,),), rows=[3], tags=(1,))]

    def solve(needed: int, running: tuple[int, int]):
        rule = Spread(0, (0,), 1, running, (0, 1), False)
        p = Program((4,), np.array([[1]], dtype=np.int64), needed, classes, [], None, (0,), spread=(rule,))
        return solver.solve(p, 5.0)

    assert solve(3, (0, 0)).status == solver.FITS  # 2 + 1
    assert (solve(4, (0, 0)).status, solve(4, (0, 0)).bound) == (solver.NO_FIT, 3)
    assert solve(4, (0, 1)).status == solver.FITS  # 3 in zone 0, 1 more beside the running one in zone 1
