"""The Pareto front of a set of designs and the best design for each objective.

Every objective is turned into one to minimise (a maximised one is negated). A design dominates
another when it is no worse in any objective and better in at least one; the front is every
design that no other dominates (equal designs do not dominate each other: both stay).
"""

from collections.abc import Sequence

import numpy as np


def dominates(first: Sequence[float], second: Sequence[float], signs: Sequence[int]) -> bool:
    """Whether `first` dominates `second` (objective values; sign +1 minimise, -1 maximise)."""
    a = [sign * value for sign, value in zip(signs, first)]
    b = [sign * value for sign, value in zip(signs, second)]
    return all(x <= y for x, y in zip(a, b)) and any(x < y for x, y in zip(a, b))


def pareto_front(points: Sequence[Sequence[float]], signs: Sequence[int]) -> list[int]:
    """Indices (ascending) of the points no other point dominates.

    Notes: in lexicographic order of the minimised values a point can only be dominated by one
    before it, and if so by one on the front; so one pass, each point checked against the front
    found so far (n x front size comparisons, vectorised).
    """
    if len(points) == 0:
        return []
    values = np.asarray(points, dtype=float) * np.asarray(signs, dtype=float)
    order = np.lexsort(values.T[::-1])
    front: list[int] = []
    kept = np.empty_like(values)
    for index in order:
        point = values[index]
        found = kept[:len(front)]
        if len(front) and np.any(np.all(found <= point, axis=1) & np.any(found < point, axis=1)):
            continue
        kept[len(front)] = point
        front.append(int(index))
    return sorted(front)


def undominated(points: Sequence[Sequence[float]], others: Sequence[Sequence[float]], signs: Sequence[int]) -> list[int]:
    """Indices (ascending) of the points that none of `others` dominates: every point compared
    with each of `others` at once, as arrays."""
    if len(points) == 0 or len(others) == 0:
        return list(range(len(points)))
    sign = np.asarray(signs, dtype=float)
    values = (np.asarray(points, dtype=float) * sign)[:, None, :]
    found = (np.asarray(others, dtype=float) * sign)[None, :, :]
    dominated = (np.all(found <= values, axis=2) & np.any(found < values, axis=2)).any(axis=1)
    return np.flatnonzero(~dominated).tolist()


def best_order(point: Sequence[float], signs: Sequence[int], column: int) -> tuple[float, ...]:
    """How a point ranks for objective `column`: its value, then (for ties) the other objectives
    in order, all minimised; so that the best of an objective is on the front."""
    values = [sign * value for sign, value in zip(signs, point)]
    return (values[column], *values[:column], *values[column + 1:])


def best_by_objective(points: Sequence[Sequence[float]], signs: Sequence[int]) -> list[int | None]:
    """For each objective, the index of the point with its best value, ties broken by the other
    objectives (`best_order`), then by the lowest index; None when there are no points."""
    if len(points) == 0:
        return [None] * len(signs)
    return [
        min(range(len(points)), key=lambda index: (best_order(points[index], signs, column), index))
        for column in range(len(signs))
    ]
