"""The rack elevations and the floor plan drawn from a plan: every device of every distinct
rack at a U inside the rack, and every rack of the floor inside the hall."""

from collections import Counter
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import plotly.graph_objects as go
import pytest
import yaml

from planner.solver.pipeline import plan_scenario
from planner.solver.plan import Plan
from workspace.plots.floor import aisles, floor_plan_figure, floor_racks
from workspace.plots.racks import MAX_ELEVATIONS, elevations, rack_elevation_figure

EXAMPLES = Path(__file__).parents[2] / "examples"
DESIGNS = {
    "rail_optimized_4su": yaml.safe_load((EXAMPLES / "dgx-h100-4su.yaml").read_text()),
    "nvl72": yaml.safe_load((EXAMPLES / "gb200-nvl72-liquid-facility.yaml").read_text()),
    "llama3_with_storage": yaml.safe_load((EXAMPLES / "llama3-405b-54-days.yaml").read_text()),
    "top_of_rack": {
        "name": "ToR",
        "compute": {"system": "dgx-h100", "nodes": 256},
        "racks": {"power_budget_kw": 41, "racks_per_row": 12},
        "fabrics": {"compute": {"switch": "sn5600", "leaf_placement": "top_of_rack"}},
    },
    "gpus_16k": {
        "name": "16k",
        "compute": {"system": "dgx-h100", "gpus": 16384},
        "racks": {"power_budget_kw": 41, "racks_per_row": 20},
        "fabrics": {"compute": {"switch": "qm9700", "leaf_placement": "rail_optimized"}},
    },
}


@pytest.fixture(scope="module", params=sorted(DESIGNS))
def plan(request, catalog):
    return plan_scenario(DESIGNS[request.param], catalog)


def _distinct_contents(plan: Plan) -> Counter:
    """(kind, slug) -> devices in one rack of each distinct kind, summed over distinct racks."""
    seen, counts = set(), Counter()
    for group in plan.racks.per_rack:
        key = (group.kind, group.rack_type, tuple((i.slug, i.count) for i in group.contents), group.fabric)
        if key in seen:
            continue
        seen.add(key)
        for item in group.contents:
            counts[group.kind, item.slug] += item.count
    return counts


def _racks_of_kind(plan: Plan, kind: str) -> int:
    racks = plan.racks
    return {"compute": racks.compute, "network": racks.network, "storage": racks.storage,
            "management": racks.management}[kind]


def test_every_device_of_every_distinct_rack_is_drawn_once(plan):
    drawn = Counter()
    for rack in elevations(plan):
        for item in rack.placed:
            if item.device.family not in ("reserved", "pdu"):
                drawn[rack.kind, item.device.slug] += 1
    assert drawn == _distinct_contents(plan)
    racks_by_kind = Counter()
    for rack in elevations(plan):
        racks_by_kind[rack.kind] += rack.count
    for kind in ("compute", "network", "storage", "management"):
        assert racks_by_kind[kind] == _racks_of_kind(plan, kind)


def test_devices_sit_inside_the_rack_without_overlapping(plan):
    for rack in elevations(plan):
        taken = set()
        for item in rack.placed:
            units = set(range(item.bottom_u, item.top_u + 1))
            assert units and not units & taken, (rack.title, item)
            taken |= units
            assert 1 <= item.bottom_u and item.top_u <= rack.rack_u
            if item.device.family != "reserved":
                assert item.top_u <= rack.rack_u - (rack.rack_u - rack.usable_u - sum(
                    p.device.units for p in rack.placed if p.device.family == "pdu"))
        free = set(range(rack.free_bottom_u, rack.free_bottom_u + rack.free_u))
        assert not free & taken
        assert len(taken) + rack.free_u == rack.rack_u


def test_the_elevation_figure_names_each_device_and_the_free_space(plan):
    figure = rack_elevation_figure(plan)
    go.Figure(figure)
    devices = figure["data"][0]
    racks = elevations(plan)[:MAX_ELEVATIONS]
    placed = sum(len(rack.placed) for rack in racks)
    with_free = sum(1 for rack in racks if rack.free_u)
    assert len(devices["x"]) == placed + with_free
    free_hovers = [hover for hover in devices["customdata"] if "U free" in hover]
    assert len(free_hovers) == with_free
    for rack, hover in zip([rack for rack in racks if rack.free_u], free_hovers):
        assert hover.startswith(f"<b>{rack.free_u} U free</b>")
    names = figure["data"][1]["text"]
    for rack in racks:
        for item in rack.placed:
            if item.device.family not in ("reserved", "pdu"):
                assert any(item.device.name in name for name in names)
    assert len(figure["data"]) <= 3


def test_no_more_than_eight_racks_side_by_side_and_a_note_says_so(catalog):
    plan = plan_scenario(DESIGNS["rail_optimized_4su"], catalog)
    group = plan.racks.per_rack[0]
    per_rack = tuple(
        replace(group, contents=(replace(group.contents[0], count=count),)) for count in range(1, 11)
    )
    plan = replace(plan, racks=replace(plan.racks, per_rack=per_rack))
    figure = rack_elevation_figure(plan)
    assert len(figure["layout"]["xaxis"]["tickvals"]) == MAX_ELEVATIONS
    assert "The first 8 of 10 distinct racks" in figure["layout"]["annotations"][0]["text"]


def test_the_floor_draws_every_rack_by_kind_inside_the_hall(plan):
    floor = plan.racks.floor
    racks = floor_racks(floor)
    counts = Counter(rack.kind for rack in racks)
    for kind in ("compute", "network", "storage", "management"):
        assert counts[kind] == _racks_of_kind(plan, kind)
    for rack in racks:
        assert floor.end_aisle_m - 1e-9 <= rack.x0_m < rack.x1_m <= floor.length_m - floor.end_aisle_m + 1e-9
        assert 0 < rack.y0_m < rack.y1_m < floor.width_m
    # Rows' racks do not overlap along the row.
    by_row: dict[int, list] = {}
    for rack in racks:
        by_row.setdefault(rack.row, []).append(rack)
    for row in by_row.values():
        for left, right in pairwise(row):
            assert left.x1_m <= right.x0_m + 1e-9


def test_aisles_alternate_cold_and_hot_between_rows_with_the_plans_widths(plan):
    floor = plan.racks.floor
    found = aisles(floor)
    assert len(found) == floor.row_count + 1
    assert found[0][0] == found[-1][0] == "cold"
    widths_m = {"cold": floor.cold_aisle_m, "hot": floor.hot_aisle_m}
    for kind, y0, y1 in found[1:-1]:
        assert y1 - y0 == pytest.approx(widths_m[kind])


def test_the_floor_figure_has_one_trace_per_kind_and_is_drawn_to_scale(plan):
    figure = floor_plan_figure(plan)
    go.Figure(figure)
    kinds = sum(1 for kind in ("compute", "network", "storage", "management") if _racks_of_kind(plan, kind))
    # outline and hover points per kind, cold, hot and end aisles: however many racks
    assert len(figure["data"]) <= 2 * kinds + 3
    assert len(figure["layout"]["shapes"]) == 1
    assert len(figure["layout"]["annotations"]) <= 24
    assert figure["layout"]["yaxis"]["scaleanchor"] == "x"
    hover_points = sum(len(trace["x"]) for trace in figure["data"] if trace.get("mode") == "markers")
    assert hover_points == plan.racks.total
    names = [trace["name"] for trace in figure["data"]]
    if plan.racks.network:
        assert f"Network racks ({plan.racks.network:,})" in names


def test_a_hall_deeper_than_long_is_drawn_with_its_rows_upright(catalog):
    plan = plan_scenario(DESIGNS["gpus_16k"], catalog)
    floor = plan.racks.floor
    assert floor.width_m > 1.5 * floor.length_m
    figure = floor_plan_figure(plan)
    assert figure["layout"]["xaxis"]["range"][1] == pytest.approx(floor.width_m + 0.2)
    compute = next(trace for trace in figure["data"] if trace.get("mode") == "markers")
    first = floor_racks(floor)[0]
    assert (compute["x"][0], compute["y"][0]) == pytest.approx(
        ((first.y0_m + first.y1_m) / 2, (first.x0_m + first.x1_m) / 2)
    )
