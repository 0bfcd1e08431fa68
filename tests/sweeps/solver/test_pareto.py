"""The Pareto front and the best design per objective, against brute force."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sweeps.solver.pareto import best_by_objective, dominates, pareto_front, undominated


def brute_force_front(points, signs) -> list[int]:
    return [
        index for index, point in enumerate(points)
        if not any(dominates(other, point, signs) for other in points)
    ]


def test_dominates_is_no_worse_everywhere_and_better_somewhere():
    assert dominates((1, 2), (2, 2), (1, 1))
    assert not dominates((1, 2), (1, 2), (1, 1))  # equal designs: neither
    assert not dominates((1, 3), (2, 2), (1, 1))  # a trade-off: neither
    assert dominates((1, 3), (2, 2), (1, -1))  # maximise the second: 3 beats 2


def test_a_hand_worked_front():
    # (cost, MW) minimised: (3, 1) and (1, 3) trade off, (2, 2) too; (3, 3) and (2, 4) lose.
    points = [(3, 3), (3, 1), (1, 3), (2, 2), (2, 4), (1, 3)]
    assert pareto_front(points, (1, 1)) == [1, 2, 3, 5]
    assert best_by_objective(points, (1, 1)) == [2, 1]


def test_a_tie_on_the_objective_goes_to_the_better_of_the_others():
    # Equal cost; the second is faster: it is the cheapest design worth having (on the front).
    points = [(100, 135.0), (100, 67.5), (120, 30.0)]
    assert best_by_objective(points, (1, 1)) == [1, 2]
    assert best_by_objective(points, (1, -1)) == [0, 0]


def test_one_objective_front_is_the_minimum_and_its_ties():
    assert pareto_front([(5,), (2,), (7,), (2,)], (1,)) == [1, 3]
    assert pareto_front([(5,), (2,), (7,), (2,)], (-1,)) == [2]


def test_empty():
    assert pareto_front([], (1, 1)) == []
    assert best_by_objective([], (1, -1)) == [None, None]


@pytest.mark.parametrize("signs", [(1, 1), (1, -1), (-1, 1, 1)])
def test_small_grid_front_equals_brute_force(signs):
    rng = np.random.default_rng(14)
    points = [tuple(row) for row in rng.integers(0, 6, size=(60, len(signs)))]
    front = pareto_front(points, signs)
    assert front == brute_force_front(points, signs)


points_strategy = st.integers(1, 3).flatmap(
    lambda width: st.tuples(
        st.lists(st.tuples(*[st.integers(-20, 20)] * width), min_size=1, max_size=40),
        st.tuples(*[st.sampled_from([1, -1])] * width),
    )
)


@settings(max_examples=150, deadline=None)
@given(points_strategy)
def test_no_front_point_is_dominated_and_every_dominated_point_is_off_it(case):
    points, signs = case
    front = set(pareto_front(points, signs))
    for index, point in enumerate(points):
        dominated = any(dominates(other, point, signs) for other in points)
        assert (index in front) == (not dominated)


@settings(max_examples=150, deadline=None)
@given(points_strategy)
def test_best_by_objective_is_the_brute_force_best(case):
    points, signs = case
    best = best_by_objective(points, signs)
    front = pareto_front(points, signs)
    for column, sign in enumerate(signs):
        values = [sign * point[column] for point in points]
        assert values[best[column]] == min(values)
        # The best of an objective is on the front: ties go to the better of the others.
        assert best[column] in front
        tied = [index for index, value in enumerate(values) if value == min(values)]
        others = [[s * v for k, (s, v) in enumerate(zip(signs, points[index])) if k != column] for index in tied]
        assert [s * v for k, (s, v) in enumerate(zip(signs, points[best[column]])) if k != column] == min(others)


@settings(max_examples=80, deadline=None)
@given(points_strategy, st.randoms(use_true_random=False))
def test_the_front_does_not_depend_on_the_order_of_the_points(case, random):
    points, signs = case
    order = list(range(len(points)))
    random.shuffle(order)
    shuffled = [points[index] for index in order]
    front = {points[index] for index in pareto_front(points, signs)}
    assert {shuffled[index] for index in pareto_front(shuffled, signs)} == front
    assert sorted(itertools.chain(front)) == sorted({points[i] for i in brute_force_front(points, signs)})


@settings(max_examples=150, deadline=None)
@given(points_strategy, st.integers(0, 39))
def test_undominated_keeps_the_points_no_other_dominates(case, split):
    points, signs = case
    new, old = points[:split], points[split:]
    kept = undominated(new, old, signs)
    assert kept == [index for index, point in enumerate(new) if not any(dominates(o, point, signs) for o in old)]
