"""The build-out timeline (workspace.plots.phases) and its place on the plan page."""

import json
from pathlib import Path

import pytest
from django.urls import reverse

from planner.services import scenario_create
from planner.solver.documents import parse_document
from planner.solver.pipeline import plan_scenario
from workspace.plots.phases import phase_timeline_figure

EXAMPLE = parse_document((Path(__file__).parents[2] / "examples" / "three-phase-expansion.yaml").read_text())


@pytest.fixture(scope="module")
def plan(catalog):
    return plan_scenario(EXAMPLE, catalog)


def traces(figure):
    return {trace["name"]: trace for trace in figure["data"]}


def test_the_timeline_steps_at_each_phase_start(plan):
    figure = traces(phase_timeline_figure(plan))
    # the last phase is drawn to the end of the five-year life, not stopped at its start
    assert figure["GPUs"]["x"] == ["2026-03-01", "2026-09-01", "2027-06-01", "2031-03-01"]
    assert figure["GPUs"]["y"] == [200, 800, 1904, 1904]
    assert figure["IT MW"]["y"][:-1] == pytest.approx([phase.it_kw / 1000 for phase in plan.phases])
    assert figure["Facility MW"]["y"][-1] == pytest.approx(plan.power.facility_kw / 1000)
    spend = figure["Cumulative capex"]["y"]
    assert spend == sorted(spend) and spend[-1] == pytest.approx(plan.cost.capex_usd)


def test_no_phases_no_timeline(catalog):
    single = {key: value for key, value in EXAMPLE.items() if key != "phases"}
    assert phase_timeline_figure(plan_scenario(single, catalog)) is None


@pytest.mark.django_db
def test_the_plan_page_shows_the_timeline_of_a_phased_scenario(client, user):
    client.force_login(user)
    scenario = scenario_create(owner=user, document=dict(EXAMPLE))
    page = client.get(reverse("workspace:scenario-detail", args=[scenario.pk])).content.decode()
    assert 'id="chart-buildout-timeline"' in page and "Built in 3 phases" in page
    charts = json.loads(page.split('id="plan-charts" type="application/json">')[1].split("</script>")[0])
    assert charts["chart-buildout-timeline"]["data"][0]["y"] == [200, 800, 1904, 1904]
