"""Cable lengths measured on the floor, by hand for small layouts."""

import numpy as np
import pytest

from fabric.solver.fabric import split_by_shares
from fabric.solver.interfaces import LengthShare
from fabric.solver.specs import FabricSpec
from power.solver.floor import RackBlock, lay_out_floor
from power.solver.link_lengths import (
    cable_runs_m,
    length_shares,
    matched_run_m,
    measured_link_lengths,
    order_length_m,
    pair_runs_m,
    within_pod_runs_m,
)
from power.solver.specs import RacksSpec

RACKS = RacksSpec()  # trays at 2.7 m, ports at 1.0 m, 1 m slack plus 10 %


def test_cable_between_racks_and_within_one():
    # 3 m of tray + two drops of 1.7 m = 6.4 m, x 1.1 = 7.04 m, + 1 m = 8.04 m
    # within a rack: 0.6 m through the side manager x 1.1 = 0.66 m
    assert cable_runs_m(np.array([3.0, 0.0]), RACKS) == pytest.approx([8.04, 0.66])


def test_pairs_use_manhattan_runs():
    compute = np.array([[0.0, 0.0], [3.0, 4.0]])
    network = np.array([[1.0, 0.0], [3.0, 1.0]])
    # |0-1|+|0-0| = 1, |0-3|+|0-1| = 4, |3-1|+|4-0| = 6, |3-3|+|4-1| = 3
    assert sorted(pair_runs_m(compute, network)) == pytest.approx([1, 3, 4, 6])


def test_lengths_round_up_to_the_step_they_are_ordered_in():
    # half metres to 5 m, metres to 20 m, 5 m beyond
    assert order_length_m(np.array([0.66, 4.9, 8.04, 12.0, 20.5, 47.0])) == pytest.approx([1, 5, 9, 12, 25, 50])
    shares = length_shares(np.array([8.04, 8.2, 0.66, 12.0]))
    assert shares == (LengthShare(1.0, 0.25), LengthShare(9.0, 0.5), LengthShare(12.0, 0.25))


def test_split_by_shares_keeps_the_total():
    thirds = (LengthShare(1, 1 / 3), LengthShare(2, 1 / 3), LengthShare(3, 1 / 3))
    assert split_by_shares(1024, thirds) == [342, 341, 341]
    assert sum(split_by_shares(7, (LengthShare(1, 0.5), LengthShare(2, 0.5)))) == 7


def test_one_row_with_a_network_rack_in_the_middle():
    blocks = [RackBlock("compute", 4, 0.6, 1.2, 800.0), RackBlock("network", 1, 0.6, 1.2, 300.0)]
    floor = lay_out_floor(blocks, RacksSpec(racks_per_row=5, network_placement="middle_of_row"))
    lengths = measured_link_lengths(floor, RACKS, {"compute": (FabricSpec(switch="qm9700"), 1)})["compute"]
    # compute racks at 0.6 m and 1.2 m either side of the network rack: runs of 0.6 and 1.2 m;
    # (0.6 + 3.4) x 1.1 + 1 = 5.4 -> 6 m; (1.2 + 3.4) x 1.1 + 1 = 6.06 -> 7 m; half each
    assert lengths["node_to_leaf_m"] == (LengthShare(6.0, 0.5), LengthShare(7.0, 0.5))
    # one network rack: leaf and spine side by side in it
    assert lengths["leaf_to_spine_m"] == (LengthShare(1.0, 1.0),)
    assert lengths["node_to_top_of_rack_m"] == (LengthShare(1.0, 1.0),)


def test_a_segment_without_links_still_names_its_medium(catalog):
    from fabric.solver.fabric import _segment_links
    from fabric.solver.layout import PortEnd, SegmentLayout

    segment = SegmentLayout("leaf-spine", "leaf", "spine", 0, 400.0, 30.0, PortEnd(800, 2), PortEnd(800, 2),
                            run="leaf_to_spine_m")
    shares = (LengthShare(1.0, 0.5), LengthShare(20.0, 0.5))
    link, modules, cables, watts, problems = _segment_links(segment, 1, FabricSpec(switch="qm9700"), catalog, shares)
    assert (link.count, sum(cables.values()), watts, problems) == (0, 0, (0.0, 0.0), [])
    assert link.media and modules == {}


def test_leaf_to_spine_runs_stay_within_pods():
    # 4 network racks in a line, 1 m apart; two pods: racks {0, 1} and {2, 3}
    racks_xy = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0]])
    # within each pod: 0, 1, 1, 0 m; no run between pods (all pairs would reach 3 m)
    assert sorted(within_pod_runs_m(racks_xy, racks_xy, 2)) == [0, 0, 0, 0, 1, 1, 1, 1]
    assert max(within_pod_runs_m(racks_xy, racks_xy, 1)) == 3


def test_each_compute_rack_runs_to_the_network_rack_as_far_along():
    # 4 compute racks and 2 network racks: racks 0, 1 match network rack 0; racks 2, 3 rack 1
    # (floor((k + 1/2) / 4 x 2) = 0, 0, 1, 1)
    compute = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0]])
    network = np.array([[0.5, 2.0], [2.5, 2.0]])
    assert matched_run_m(compute, network) == pytest.approx([2.5, 2.5, 2.5, 2.5])
