"""The topology picture of a fabric: its counts are the fabric plan's, its repetition is
elided, and it stays light for large fabrics."""

import math
from pathlib import Path

import plotly.graph_objects as go
import pytest
import yaml

from fabric.plots import fabric_figures
from fabric.solver.results import FabricResult
from fabric.topology_plots import RAIL_COLORS, _units, shown_units, topology_figure
from planner.solver.pipeline import plan_scenario

EXAMPLES = Path(__file__).parents[2] / "examples"


def _design(fabric: dict, nodes: int = 128) -> dict:
    return {
        "name": "topology",
        "compute": {"system": "dgx-h100", "nodes": nodes},
        "racks": {"power_budget_kw": 41, "racks_per_row": 20},
        "fabrics": {"compute": {"switch": "qm9700", **fabric}},
    }


DESIGNS = {
    "rail_optimized_4su": yaml.safe_load((EXAMPLES / "dgx-h100-4su.yaml").read_text()),
    "top_of_rack": _design({"switch": "sn5600", "leaf_placement": "top_of_rack"}, nodes=256),
    "three_tiers_two_planes": _design({"tiers": 3, "planes": 2}, nodes=2048),
    "gpus_16k": _design({"leaf_placement": "rail_optimized"}, nodes=2048),
    "rail_only": _design({"topology": "rail_only"}, nodes=64),
    "dragonfly": _design({"topology": "dragonfly"}, nodes=256),
}


def _fabric(catalog, name: str) -> FabricResult:
    return plan_scenario(DESIGNS[name], catalog).fabrics["compute"]


@pytest.fixture(scope="module", params=sorted(DESIGNS))
def fabric(request, catalog):
    return _fabric(catalog, request.param)


def _markers(figure: dict, name: str) -> dict:
    return next(trace for trace in figure["data"] if trace["name"] == name and trace["mode"] == "markers")


def test_each_tier_is_drawn_with_its_switch_count_and_each_bundle_with_its_links(fabric):
    figure = topology_figure(fabric)
    go.Figure(figure)
    texts = " ".join(annotation["text"] for annotation in figure["layout"]["annotations"])
    for tier in fabric.tiers:
        hovers = _markers(figure, tier.role)["customdata"] if fabric.topology != "dragonfly" else _markers(figure, "groups")["customdata"]
        assert hovers and all(f"{tier.switches:,} in all" in hover for hover in hovers)
        used, free = tier.ports_used / tier.switches, tier.ports_free / tier.switches
        assert f"{used:,.0f} used, {free:,.0f} free" in hovers[0]
    for link in fabric.links:
        if fabric.topology == "dragonfly" and link.from_ == "node":
            continue
        assert f"{link.count:,} links × {link.gbps:,.0f} Gb/s" in texts


@pytest.mark.parametrize("name", ["rail_optimized_4su", "top_of_rack", "three_tiers_two_planes", "gpus_16k"])
def test_the_units_drawn_add_up_to_the_planes_first_tier(catalog, name):
    fabric = _fabric(catalog, name)
    planes = fabric.planes
    per_plane = {tier.role: tier.switches // planes for tier in fabric.tiers}
    units = _units(fabric, per_plane)
    assert units.count * units.leaves == per_plane["leaf"]
    assert units.count * units.nodes >= fabric.endpoints
    if units.spines:
        assert units.count * units.spines == per_plane["spine"]


def test_large_fabrics_show_the_first_two_units_an_ellipsis_and_the_last(catalog):
    fabric = _fabric(catalog, "gpus_16k")
    assert fabric.pods == 16
    figure = topology_figure(fabric)
    texts = [annotation["text"] for annotation in figure["layout"]["annotations"]]
    assert "… 13 more pods …" in texts
    assert [text.split("</b>")[0] for text in texts if text.startswith("<b>Pod")] == ["<b>Pod 1", "<b>Pod 2", "<b>Pod 16"]
    assert shown_units(3) == [0, 1, 2] and shown_units(86) == [0, 1, None, 85]


def test_rail_optimized_leaves_take_their_rails_colour_and_every_system_reaches_each_rail(catalog):
    fabric = _fabric(catalog, "rail_optimized_4su")
    figure = topology_figure(fabric)
    leaves = _markers(figure, "leaf")
    rails = fabric.rails
    for index, color in enumerate(leaves["marker"]["color"]):
        assert color == RAIL_COLORS[index % rails % len(RAIL_COLORS)]
        assert f"rail {index % rails + 1}" in leaves["customdata"][index]
    systems = len(_markers(figure, "Systems")["x"])
    rail_lines = [trace for trace in figure["data"] if trace["name"].startswith("rail ")]
    assert len(rail_lines) == rails
    # one segment from every system drawn to its unit's leaf of that rail
    assert all(trace["x"].count(None) == systems for trace in rail_lines)


def test_top_of_rack_draws_a_leaf_per_rack(catalog):
    fabric = _fabric(catalog, "top_of_rack")
    figure = topology_figure(fabric)
    texts = [annotation["text"] for annotation in figure["layout"]["annotations"]]
    racks = fabric.tiers[0].switches
    assert f"… {racks - 3:,} more racks …" in texts
    assert len(_markers(figure, "leaf")["x"]) == 3


def test_planes_are_drawn_once_and_counted(catalog):
    figure = topology_figure(_fabric(catalog, "three_tiers_two_planes"))
    assert any("× 2 planes" in annotation["text"] for annotation in figure["layout"]["annotations"])
    assert any("per plane" in annotation["text"] for annotation in figure["layout"]["annotations"])


def test_a_dragonfly_is_a_ring_of_groups_joined_by_global_links(catalog):
    fabric = _fabric(catalog, "dragonfly")
    figure = topology_figure(fabric)
    groups = fabric.dragonfly.groups
    assert len(_markers(figure, "groups")["x"]) == groups
    bundles = _markers(figure, "global link bundles")["customdata"]
    assert len(bundles) == math.comb(groups, 2)
    pair = fabric.dragonfly.global_links_per_group_pair
    assert all(f"{pair} links" in hover for hover in bundles)


def test_figures_stay_light_whatever_the_fabric_size(fabric):
    figure = topology_figure(fabric)
    points = sum(len(trace["x"]) for trace in figure["data"])
    assert len(figure["data"]) <= 20
    assert len(figure["layout"]["shapes"]) <= 4
    assert points <= 6000


def test_every_fabric_of_a_plan_is_drawn(catalog):
    plan = plan_scenario(DESIGNS["rail_optimized_4su"], catalog)
    figures = fabric_figures(plan.fabrics, plan.catalog, plan.compute.system)
    assert set(figures) == set(plan.fabrics)
    hover = _markers(figures["compute"], "leaf")["customdata"][0]
    assert "NVIDIA Quantum-2 QM9700" in hover
