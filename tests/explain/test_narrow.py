"""`rerun.narrow`, the bisection both suggestion searches use (suggest_nodes: the fewest nodes that place the
target; suggest_devices: the largest ExactCount that does): which values it asks about, in which order, and
the neighbours it returns. The order matters: each question is a verification re-run out of the budget."""

from __future__ import annotations

from wasplan.explain.rerun import narrow


def test_the_largest_value_that_holds_and_the_questions_asked():
    asked = []

    def holds(n: int) -> bool:
        asked.append(n)
        return n <= 5

    assert narrow(1, 16, holds) == (5, 6)
    assert asked == [8, 4, 6, 5]


def test_the_smallest_value_that_holds_is_the_upper_neighbour():
    assert narrow(0, 16, lambda n: not n >= 11) == (10, 11)


def test_neighbours_are_not_asked_about():
    assert narrow(3, 4, lambda n: 1 / 0) == (3, 4)
