"""Cable length between two racks: overhead tray run, vertical drops at both ends, and slack.

The fabric engine calls `cable_length_m` with rack positions from the floor layout to choose
media (DAC, AOC, fiber) and stock lengths.

Model
-----
Cables leave a rack at its top, run in overhead trays laid along the rows and across them at
right angles, and drop into the other rack. So the routed length between two racks is

    routed = |x_a - x_b| + |y_a - y_b|                   horizontal tray run (Manhattan)
           + (tray_height_m - port_height_a_m)            drop into rack a
           + (tray_height_m - port_height_b_m)            drop into rack b

and the cable to order is routed × (1 + slack_fraction) + slack_m (service loops at both ends,
dressing in cable managers). Within one rack the cable runs from port to port through the
side cable manager: |port_height_a_m - port_height_b_m| + IN_RACK_LATERAL_M, plus the slack
fraction only.

x runs along the rows, y across them; positions are rack centres on the floor [m].
"""

from dataclasses import dataclass

import numpy as np

PORT_HEIGHT_M = 1.0
"""Middle of a 42U rack's mounting space (1.867 m starting ~0.1 m above the floor): the
average port height when nothing more is known."""

IN_RACK_LATERAL_M = 0.6
"""From a port to the side cable manager and back to the other port (~0.3 m at each end)."""


@dataclass(frozen=True)
class RackPosition:
    """Where a rack stands: its row, its slot in the row, and its centre on the floor."""

    row: int
    slot: int
    x_m: float
    """Along the row, from the hall's wall."""
    y_m: float
    """Across the rows, from the hall's wall."""


def horizontal_run_m(x_a_m, y_a_m, x_b_m, y_b_m):
    """Overhead tray run between two rack centres [m]: |Δx| + |Δy| (numbers or numpy arrays)."""
    return np.abs(np.subtract(x_a_m, x_b_m)) + np.abs(np.subtract(y_a_m, y_b_m))


def vertical_drop_m(tray_height_m: float, port_height_m: float = PORT_HEIGHT_M) -> float:
    """Cable from the overhead tray down to a port [m]: tray height - port height."""
    return max(tray_height_m - port_height_m, 0.0)


def routed_length_m(
    a: RackPosition,
    b: RackPosition,
    tray_height_m: float,
    port_height_a_m: float = PORT_HEIGHT_M,
    port_height_b_m: float = PORT_HEIGHT_M,
) -> float:
    """Length along the cable's path between ports in racks `a` and `b` [m], without slack."""
    if (a.row, a.slot) == (b.row, b.slot):
        return abs(port_height_a_m - port_height_b_m) + IN_RACK_LATERAL_M
    return float(
        horizontal_run_m(a.x_m, a.y_m, b.x_m, b.y_m)
        + vertical_drop_m(tray_height_m, port_height_a_m)
        + vertical_drop_m(tray_height_m, port_height_b_m)
    )


def cable_length_m(
    a: RackPosition,
    b: RackPosition,
    *,
    tray_height_m: float = 2.7,
    slack_m: float = 1.0,
    slack_fraction: float = 0.1,
    port_height_a_m: float = PORT_HEIGHT_M,
    port_height_b_m: float = PORT_HEIGHT_M,
) -> float:
    """The cable to order between a port in rack `a` and one in rack `b` [m].

    length = routed × (1 + slack_fraction) + slack_m between racks; routed × (1 + slack_fraction)
    within one rack. See the module docstring for the routed length. The defaults are those of
    the scenario (racks.cable_tray_height_m, racks.cable_slack_m, racks.cable_slack_fraction).
    """
    routed = routed_length_m(a, b, tray_height_m, port_height_a_m, port_height_b_m)
    same_rack = (a.row, a.slot) == (b.row, b.slot)
    return routed * (1 + slack_fraction) + (0.0 if same_rack else slack_m)


def longest_manhattan_m(x_a, y_a, x_b, y_b) -> float:
    """The largest |Δx| + |Δy| between any point of set a and any point of set b [m], in O(n).

    |Δx| + |Δy| = max over the signs of ±(Δx + Δy), ±(Δx - Δy), so the farthest pair is found
    from the extremes of x + y and x - y of each set.
    """
    x_a, y_a, x_b, y_b = (np.asarray(value, dtype=float) for value in (x_a, y_a, x_b, y_b))
    if not x_a.size or not x_b.size:
        return 0.0
    sum_a, sum_b, diff_a, diff_b = x_a + y_a, x_b + y_b, x_a - y_a, x_b - y_b
    return float(max(
        sum_a.max() - sum_b.min(), sum_b.max() - sum_a.min(),
        diff_a.max() - diff_b.min(), diff_b.max() - diff_a.min(),
    ))
