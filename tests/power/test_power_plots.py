"""The power path Sankey: every node passes on what it receives, and the grid supplies the
facility's power."""

import dataclasses
from collections import defaultdict
from pathlib import Path

import plotly.graph_objects as go
import pytest
import yaml

from planner.solver.pipeline import plan_scenario
from power.plots import power_flow_figure, power_path

EXAMPLES = Path(__file__).parents[2] / "examples"
DESIGNS = {
    "air_cooled_4su": yaml.safe_load((EXAMPLES / "dgx-h100-4su.yaml").read_text()),
    "liquid_nvl72": yaml.safe_load((EXAMPLES / "gb200-nvl72-liquid-facility.yaml").read_text()),
    "with_storage": yaml.safe_load((EXAMPLES / "llama3-405b-54-days.yaml").read_text()),
}


@pytest.fixture(scope="module", params=sorted(DESIGNS))
def power(request, catalog):
    return plan_scenario(DESIGNS[request.param], catalog).power


def test_inflows_equal_outflows_at_every_node_and_the_grid_is_the_facility(power):
    flows = power_path(power)
    inflow, outflow = defaultdict(float), defaultdict(float)
    for flow in flows:
        assert flow.kw > 0
        outflow[flow.source] += flow.kw
        inflow[flow.target] += flow.kw
    assert outflow["Grid"] == pytest.approx(power.facility_kw, rel=1e-9)
    for node in set(inflow) & set(outflow):
        assert inflow[node] == pytest.approx(outflow[node], rel=1e-9), node
    # The ends: the racks take the IT load by kind, the losses and overheads the rest.
    for kind, kw in power.it_kw_by_category.items():
        if kw:
            assert inflow[f"{kind.capitalize()} racks"] == pytest.approx(kw)
    assert inflow["UPS losses"] == pytest.approx(power.overhead_kw_by_category["ups_losses"])
    assert inflow["Distribution losses"] == pytest.approx(power.overhead_kw_by_category["distribution_losses"])
    assert inflow["Cooling"] == pytest.approx(power.overhead_kw_by_category["cooling"])


def test_liquid_pumps_ride_on_the_ups(catalog):
    power = plan_scenario(DESIGNS["liquid_nvl72"], catalog).power
    backed = power.cooling.ups_backed_kw
    assert backed > 0
    to_cooling = {flow.source: flow.kw for flow in power_path(power) if flow.target == "Cooling"}
    assert to_cooling["UPS"] == pytest.approx(backed)


def test_the_figure_gives_kw_and_share_in_each_hover(power):
    figure = power_flow_figure(power)
    go.Figure(figure)
    trace = figure["data"][0]
    assert trace["node"]["label"][0].startswith("Grid: ")
    assert trace["node"]["customdata"][0] == "100.0%"
    assert all("of the facility" in text for text in trace["link"]["customdata"])
    assert len(trace["link"]["value"]) == len(power_path(power))


def test_no_power_section_draws_nothing(power):
    assert power_flow_figure(None) is None
    assert power_flow_figure(dataclasses.replace(power, facility_kw=0)) is None
