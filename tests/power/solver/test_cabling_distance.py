"""Cable length between two rack positions, by hand."""

import numpy as np
import pytest

from power.solver.cabling_distance import (
    RackPosition,
    cable_length_m,
    horizontal_run_m,
    longest_manhattan_m,
    routed_length_m,
    vertical_drop_m,
)


def test_cable_between_two_known_racks():
    a = RackPosition(row=0, slot=0, x_m=1.5, y_m=1.8)
    b = RackPosition(row=2, slot=8, x_m=6.3, y_m=6.9)
    # horizontal: |1.5 - 6.3| + |1.8 - 6.9| = 4.8 + 5.1 = 9.9 m
    assert horizontal_run_m(a.x_m, a.y_m, b.x_m, b.y_m) == pytest.approx(9.9)
    # drops: tray at 2.7 m, ports at 1.0 m -> 1.7 m at each end; routed 9.9 + 3.4 = 13.3 m
    assert vertical_drop_m(2.7) == pytest.approx(1.7)
    assert routed_length_m(a, b, 2.7) == pytest.approx(13.3)
    # ordered: 13.3 x 1.1 + 1.0 m of service loops = 15.63 m
    assert cable_length_m(a, b) == pytest.approx(15.63)
    assert cable_length_m(a, b, tray_height_m=3.0, slack_m=0, slack_fraction=0) == pytest.approx(9.9 + 2 * 2.0)
    assert cable_length_m(a, b) == cable_length_m(b, a)


def test_cable_within_one_rack():
    a = RackPosition(0, 3, 3.3, 1.8)
    # top-of-rack port at 1.9 m to a node port at 0.4 m: 1.5 m + 0.6 m through the cable manager,
    # + 10 %: 2.31 m; no service loops inside a rack
    assert cable_length_m(a, a, port_height_a_m=1.9, port_height_b_m=0.4) == pytest.approx(2.31)


def test_longest_manhattan_matches_brute_force():
    rng = np.random.default_rng(4)
    xa, ya, xb, yb = rng.uniform(0, 50, (4, 60))
    brute = max(abs(x1 - x2) + abs(y1 - y2) for x1, y1 in zip(xa, ya) for x2, y2 in zip(xb, yb))
    assert longest_manhattan_m(xa, ya, xb, yb) == pytest.approx(brute)
    assert longest_manhattan_m([], [], xb, yb) == 0.0
