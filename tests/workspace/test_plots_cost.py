"""Cost over the years: capex in year 0, each year's operating cost stacked by category, the
cumulative cost ending at the TCO and its present value at the discounted TCO."""

import dataclasses
from pathlib import Path

import plotly.graph_objects as go
import pytest
import yaml

from planner.solver.pipeline import plan_scenario
from workspace.plots.figures import cost_over_years_figure

EXAMPLE = yaml.safe_load((Path(__file__).parents[2] / "examples" / "dgx-h100-4su.yaml").read_text())


@pytest.fixture(scope="module")
def plan(catalog):
    return plan_scenario(EXAMPLE, catalog)


def test_each_years_stack_is_that_years_operating_cost(plan):
    cost = plan.cost
    figure = cost_over_years_figure(plan)
    go.Figure(figure)
    bars = [trace for trace in figure["data"] if trace["type"] == "bar"]
    assert bars[0]["name"] == "Capex" and bars[0]["y"] == [cost.capex_usd]
    categories = bars[1:]
    assert {trace["name"] for trace in categories} == {
        name.capitalize() for name, value in cost.opex_by_category_usd_per_year.items() if value > 0
    }
    for year, expected in enumerate(cost.opex_usd_by_year):
        assert sum(trace["y"][year] for trace in categories) == pytest.approx(expected)


def test_the_lines_end_at_the_tco_and_its_present_value(plan):
    figure = cost_over_years_figure(plan)
    lines = {trace["name"]: trace["y"] for trace in figure["data"] if trace["type"] == "scatter"}
    assert lines["Cumulative"][-1] == pytest.approx(plan.cost.tco_usd)
    present = next(values for name, values in lines.items() if name.startswith("Present value"))
    assert present[-1] == pytest.approx(plan.cost.tco_present_value_usd)


def test_no_discount_draws_no_present_value(plan):
    cost = plan.cost
    undiscounted = dataclasses.replace(
        plan, cost=dataclasses.replace(cost, assumptions=dataclasses.replace(cost.assumptions, discount_rate=0))
    )
    names = [trace["name"] for trace in cost_over_years_figure(undiscounted)["data"]]
    assert not any(name.startswith("Present value") for name in names)
