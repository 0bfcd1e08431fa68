"""Floor layout: rows, network rack placement, positions, area and loading, by hand."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from power.solver.cabling_distance import RackPosition, cable_length_m, longest_manhattan_m
from power.solver.floor import (
    KINDS,
    RackBlock,
    RowSegment,
    lay_out_floor,
    positions_by_kind,
    rack_positions,
    row_plan,
)
from power.solver.specs import RacksSpec


def kinds(rows):
    return [[(segment.kind[0].upper(), segment.count) for segment in row] for row in rows]


def test_network_racks_in_the_middle_of_each_row():
    # 30 compute + 2 network in rows of 16: ceil(32 / 16) = 2 rows, one network rack each;
    # 15 compute racks per row, 7 on the left and 8 on the right.
    rows = row_plan({"compute": 30, "network": 2}, 16, "middle_of_row")
    assert kinds(rows) == [[("C", 7), ("N", 1), ("C", 8)], [("C", 7), ("N", 1), ("C", 8)]]


def test_fewer_network_racks_than_rows_go_to_rows_spread_through_the_hall():
    # 1 network rack, 2 rows: row floor((0 + 0.5) x 2 / 1) = 1 takes it.
    rows = row_plan({"compute": 31, "network": 1}, 16, "middle_of_row")
    assert kinds(rows) == [[("C", 16)], [("C", 7), ("N", 1), ("C", 8)]]
    # 2 network racks over 8 rows: rows floor(0.5 x 8 / 2) = 2 and floor(1.5 x 8 / 2) = 6.
    rows = row_plan({"compute": 126, "network": 2}, 16, "middle_of_row")
    assert [index for index, row in enumerate(rows) if any(s.kind == "network" for s in row)] == [2, 6]


def test_end_of_row_and_central_rows():
    assert kinds(row_plan({"compute": 30, "network": 2}, 16, "end_of_row")) == [
        [("C", 15), ("N", 1)], [("C", 15), ("N", 1)]]
    # 48 compute racks make 3 rows; the network row goes in the middle (after row 3 // 2 = 1).
    assert kinds(row_plan({"compute": 48, "network": 4}, 16, "central_rows")) == [
        [("C", 16)], [("N", 4)], [("C", 16)], [("C", 16)]]


def test_storage_and_management_rows_come_last():
    rows = row_plan({"compute": 16, "storage": 20, "management": 1}, 16, "middle_of_row")
    assert kinds(rows) == [[("C", 16)], [("S", 16)], [("S", 4), ("M", 1)]]
    assert rows[0] == [RowSegment("compute", 16)]


def test_positions_area_and_loading_by_hand():
    racks = RacksSpec(racks_per_row=16)  # cold aisle 1.2 m, hot 0.9 m, end aisles 1.2 m
    layout = lay_out_floor([RackBlock("compute", 32, 0.6, 1.2, 700.0)], racks)
    # Row 0 centre: cold aisle 1.2 + half a depth 0.6 = 1.8 m; row 1 shares a hot aisle with it:
    # 1.8 + 0.6 + 0.9 + 0.6 = 3.9 m. Width: 3.9 + 0.6 + 1.2 (cold aisle at the wall) = 5.7 m.
    assert [row.y_m for row in layout.rows] == pytest.approx([1.8, 3.9])
    assert layout.width_m == pytest.approx(5.7)
    # Length: 16 x 0.6 m + 2 x 1.2 m end aisles = 12.0 m; area 12.0 x 5.7 = 68.4 m2.
    assert layout.length_m == pytest.approx(12.0) and layout.area_m2 == pytest.approx(68.4)
    # 32 x 700 kg over 68.4 m2 = 327.5 kg/m2
    assert layout.average_floor_load_kg_per_m2 == pytest.approx(32 * 700 / 68.4)
    first = next(rack_positions(layout))[1]
    assert (first.row, first.slot, first.x_m, first.y_m) == (0, 0, pytest.approx(1.5), pytest.approx(1.8))


def test_a_third_row_faces_a_cold_aisle():
    layout = lay_out_floor([RackBlock("compute", 33, 0.6, 1.2, 700.0)], RacksSpec())
    # row 2: 3.9 + 0.6 + 1.2 (cold) + 0.6 = 6.3 m
    assert layout.rows[2].y_m == pytest.approx(6.3) and layout.row_count == 3


def test_wider_network_racks_lengthen_their_row():
    blocks = [RackBlock("compute", 30, 0.6, 1.2, 700.0), RackBlock("network", 2, 0.8, 1.2, 500.0)]
    layout = lay_out_floor(blocks, RacksSpec())
    assert layout.rows[0].length_m == pytest.approx(15 * 0.6 + 0.8)
    x, y = positions_by_kind(layout, "network")
    # 7 compute racks (4.2 m) after the 1.2 m end aisle, then half of 0.8 m: x = 5.8 m
    assert x == pytest.approx([5.8, 5.8]) and y == pytest.approx([1.8, 3.9])


def test_vectorised_positions_match_the_rack_by_rack_walk():
    blocks = [RackBlock("compute", 100, 0.6, 1.2, 700.0), RackBlock("network", 7, 0.8, 1.2, 500.0),
              RackBlock("storage", 5, 0.6, 1.2, 400.0)]
    layout = lay_out_floor(blocks, RacksSpec(racks_per_row=12))
    for kind in ("compute", "network", "storage"):
        walk = np.array([(p.x_m, p.y_m) for _, p in rack_positions(layout, kind)])
        x, y = positions_by_kind(layout, kind)
        assert np.column_stack([x, y]) == pytest.approx(walk)
    assert sum(1 for _ in rack_positions(layout)) == 112


@given(
    counts=st.tuples(*(st.integers(0, 400) for _ in KINDS)),
    widths=st.tuples(*(st.sampled_from([0.6, 0.75, 0.8, 1.2]) for _ in KINDS)),
    racks_per_row=st.integers(1, 40),
    placement=st.sampled_from(["middle_of_row", "end_of_row", "central_rows"]),
)
def test_floor_runs_are_the_racks_row_by_row(counts, widths, racks_per_row, placement):
    """The floor's runs (what the cabling numbers and places racks from) expanded rack by rack
    are the walk along every row (x to a float's rounding: the walk adds one width a rack);
    its row shapes give back every row."""
    blocks = [RackBlock(kind, count, width, 1.2, 500.0) for kind, count, width in zip(KINDS, counts, widths)]
    layout = lay_out_floor(blocks, RacksSpec(racks_per_row=racks_per_row, network_placement=placement))
    shapes, shape_of_row = layout.row_shapes
    assert [shapes[number] for number in shape_of_row] == [row.segments for row in layout.rows]
    runs = layout.runs
    assert runs.count.sum() == sum(counts)
    offset = np.arange(runs.count.sum()) - np.repeat(np.cumsum(runs.count) - runs.count, runs.count)
    x = np.repeat(runs.first_x_m, runs.count) + np.repeat(runs.width_m, runs.count) * offset
    walk = list(rack_positions(layout))
    assert np.repeat(runs.kind, runs.count).tolist() == [kind for kind, _ in walk]
    assert x.tolist() == pytest.approx([position.x_m for _, position in walk], rel=1e-12)
    assert np.repeat(runs.y_m, runs.count).tolist() == [position.y_m for _, position in walk]
    assert np.repeat(runs.row, runs.count).tolist() == [position.row for _, position in walk]


def test_longest_cable_from_run_ends_matches_all_racks():
    racks = RacksSpec(racks_per_row=10, network_placement="end_of_row")
    blocks = [RackBlock("compute", 57, 0.6, 1.2, 700.0), RackBlock("network", 3, 0.8, 1.2, 500.0)]
    layout = lay_out_floor(blocks, racks)
    run = longest_manhattan_m(*positions_by_kind(layout, "compute"), *positions_by_kind(layout, "network"))
    expected = cable_length_m(RackPosition(0, 0, 0.0, 0.0), RackPosition(0, 1, run, 0.0))
    assert layout.longest_compute_to_network_cable_m == pytest.approx(expected)
