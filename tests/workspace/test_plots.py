"""Figures of plans are valid plotly figures, and only the sections a plan has are drawn."""

from dataclasses import replace
from pathlib import Path

import plotly.graph_objects as go
import pytest
import yaml
from django.template.loader import render_to_string
from django.utils.html import escape

from core.diff import document_changes, flatten
from planner.key_figures import compare_figures, key_figures
from planner.solver.pipeline import plan_scenario
from workspace.dashboard.sections import attach_charts, plan_figures, plan_sections
from workspace.plots.figures import compare_figures as compare_charts

EXAMPLE = yaml.safe_load((Path(__file__).parents[2] / "examples" / "dgx-h100-4su.yaml").read_text())


@pytest.fixture
def plan(catalog):
    return plan_scenario(EXAMPLE, catalog)


def test_every_figure_of_the_example_is_a_valid_plotly_figure(plan):
    figures = plan_figures(plan)
    assert {"chart-bom-cost", "chart-racks-elevation", "chart-racks-floor"} <= set(figures)
    # the sections the pipeline computes today: power, the compute fabric, cost over the years
    assert {"chart-power-flow", "chart-fabrics-compute", "chart-cost-years"} <= set(figures)
    for figure in figures.values():
        go.Figure(figure)  # raises on any property plotly does not know


def test_sections_absent_from_the_plan_draw_nothing(catalog):
    small = {"name": "x", "compute": {"system": "dgx-h100", "gpus": 8}}
    plan = replace(plan_scenario(small, catalog), power=None, fabrics=None, cost=None)
    figures = plan_figures(plan)
    assert not any(
        key.startswith(("chart-power", "chart-fabrics", "chart-cost-years")) for key in figures
    )


def test_the_dashboard_describes_every_section_and_places_its_figures(plan):
    sections = plan_sections(plan)
    keys = [section.key for section in sections]
    assert keys[0] == "compute" and "bom" in keys and "name" not in keys and "warnings" not in keys
    figures = plan_figures(plan)
    attach_charts(sections, figures)
    racks = next(section for section in sections if section.key == "racks")
    assert "chart-racks-elevation" in [chart for chart, _, _ in racks.charts]
    compute = next(section for section in sections if section.key == "compute")
    assert ("GPUs", "1,024") in compute.facts


def test_key_figures_and_their_comparison(plan):
    figures = {figure.key: figure for figure in key_figures(plan)}
    assert figures["gpus"].text == "1,024"
    assert figures["capex_usd"].value > 0
    rows = {label: cells for label, _, cells in compare_figures([plan, plan, None])}
    assert [cell.text for cell in rows["GPUs"]] == ["1,024", "1,024", "—"]
    assert rows["GPUs"][1].change == ""
    charts = compare_charts(["a", "b"], [figures, figures])
    for chart in charts:
        go.Figure(chart)


def test_flatten_and_changes_by_dotted_path():
    old = {"compute": {"gpus": 64}, "prices": {"a": 1}, "components": {"systems": [{"gpus": 1}]}}
    new = {"compute": {"gpus": 128, "nodes": None}, "components": {"systems": [{"gpus": 2}]}}
    assert flatten(old) == {"compute.gpus": 64, "prices.a": 1, "components.systems[0].gpus": 1}
    changes = {change.path: change.kind for change in document_changes(old, new)}
    assert changes == {
        "compute.gpus": "changed",
        "compute.nodes": "added",
        "components.systems[0].gpus": "changed",
        "prices.a": "removed",
    }
    assert document_changes({"a": 41}, {"a": 41.0}) == []


def test_dashboard_cells_that_are_web_addresses_are_links(plan):
    sources = next(section for section in plan_sections(plan) if section.key == "sources")
    cells = [cell for table in sources.tables for row in table.rows for cell in row]
    links = [text for text, numeric, link, *_ in cells if link]
    assert links and all(text.startswith(("https://", "http://")) for text in links)
    assert not any(text.startswith("http") for text, numeric, link, *_ in cells if not link)
    html = render_to_string("planner/inc/plan_section_body.html", {"view": sources})
    assert html.count('rel="noreferrer"') == len(links)
    assert f'<a href="{escape(links[0])}" rel="noreferrer">' in html
