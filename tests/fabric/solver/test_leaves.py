"""Leaf counts by placement."""

from fabric.solver.leaves import rail_optimized_leaf_count, top_of_rack_leaf_count


def test_rail_optimized_in_whole_units():
    # 127 DGX x 8 + 4 UFM links = 1,020 over 8 rails of 32-port leaves: 4 units, 32 leaves
    count = rail_optimized_leaf_count(1020, 8, 32)
    assert (count.units, count.leaves, count.leaves_per_unit, count.endpoint_links_per_leaf) == (4, 32, 8, 32)


def test_top_of_rack_with_a_partial_last_rack_and_appliances():
    # 10 systems x 8 links, 4 per rack: racks of 32, 32, 16 links; leaves of 32 down: 1 + 1 + 1;
    # 5 appliance links get a leaf of their own in a network rack
    count = top_of_rack_leaf_count(10, 8, 4, 5, 32)
    assert (count.leaves, count.in_compute_racks, count.units, count.leaves_per_rack) == (4, 3, 3, 1)
    assert (count.endpoint_links_per_leaf, count.nodes_per_leaf) == (32, 4)


def test_top_of_rack_needs_several_leaves_for_a_rack_scale_system():
    # one NVL72 rack: 72 links over 32-link leaves -> 3 leaves per rack
    count = top_of_rack_leaf_count(2, 72, 1, 0, 32)
    assert (count.leaves, count.leaves_per_rack, count.nodes_per_leaf) == (6, 3, 1)
