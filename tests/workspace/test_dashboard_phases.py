"""A phased plan on the dashboard (workspace.dashboard.phases): the figures of each phase, the
same as the phase comparison's, and the parts each phase adds, removes and re-cables, folded
per phase, with quantities and USD."""

from pathlib import Path

import pytest
from django.urls import reverse

from planner.key_figures import phase_as_plan, phase_figures
from planner.services import scenario_create
from planner.solver.documents import parse_document
from planner.solver.pipeline import plan_scenario
from workspace.dashboard.phases import phase_views
from workspace.plots.phases import life_end

EXAMPLES = Path(__file__).parents[2] / "examples"
MIXED = parse_document((EXAMPLES / "mixed-generation-expansion.yaml").read_text())


@pytest.fixture(scope="module")
def plan(catalog):
    return plan_scenario(MIXED, catalog)


def test_each_phase_lists_its_parts_with_quantities_and_usd(plan):
    views = phase_views(plan)
    assert [view.name for view in views] == ["validation", "pre-production", "production", "a100-retired"]
    first, retired = views[0], views[-1]
    systems = next(line for line in first.added if "A100" in line.description)
    assert (systems.category, systems.quantity, systems.extended_price_usd) == ("Compute", 25, 5_000_000)
    assert first.added_usd == pytest.approx(sum(line.extended_price_usd for line in plan.phases[0].added))
    # what a phase removes is shown as positive quantities and prices, with the salvage credited
    assert retired.removed and all(line.quantity > 0 and line.extended_price_usd > 0 for line in retired.removed)
    assert any("A100" in line.description for line in retired.removed)
    assert retired.salvage_usd == pytest.approx(plan.phases[-1].salvage_usd)
    assert "removed" in retired.summary


def test_a_phase_runs_to_the_next_start_and_the_last_to_the_end_of_the_life(plan):
    views = phase_views(plan)
    assert [view.end for view in views[:-1]] == [view.start for view in views[1:]]
    assert views[-1].end == life_end(plan) == "2031-03-01"


def test_the_dashboard_and_the_comparison_read_the_same_phase_figures(plan):
    for index, view in enumerate(phase_views(plan)):
        assert view.figures == phase_figures(plan, index)
        compared = phase_as_plan(plan, plan, index)
        assert compared.compute.gpus == view.figures["gpus"]
        assert compared.cost.capex_usd == view.figures["cumulative_capex_usd"]


@pytest.mark.django_db
def test_the_plan_page_folds_each_phase_with_its_tables(client, user):
    client.force_login(user)
    scenario = scenario_create(owner=user, document=dict(MIXED))
    page = client.get(reverse("workspace:scenario-detail", args=[scenario.pk])).content.decode()
    assert page.count('<details class="phase-changes"') == 4
    assert "Built in 4 phases" in page and ('<span class="date">2026-03-01</span> to <span class="date">2031-03-01</span>') in page
    assert page.count("<table class=\"phase-parts\">") == 4 + 3  # every phase adds; three remove
    assert "Capex to date" in page and "Salvage credited" in page
    assert '<a href="#plan-phases">Phases</a>' in page
    # the phases are no longer a generic section of slash-joined records
    assert 'id="section-phases"' not in page
