"""A phased plan on the dashboard in Chromium at 1440 and 390 px: the phase figures, each phase
folded with its added and removed parts, the timeline, each date on one line; axe-clean with a
phase open.

With UX_SCREENSHOTS=<folder> the screens looked at are kept there."""

from pathlib import Path

import pytest

from planner.services import scenario_create
from planner.solver.documents import parse_document
from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import axe_violations

pytestmark = pytest.mark.django_db(transaction=True)

MIXED = Path(__file__).parents[2] / "examples" / "mixed-generation-expansion.yaml"


def test_the_phases_of_a_site_read_at_a_glance(signed_in, live_server, architect, width):
    page = signed_in
    scenario = scenario_create(owner=architect, document=parse_document(MIXED.read_text()))
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    phases = page.locator("#plan-phases")
    page.wait_for_selector("#chart-buildout-timeline .main-svg")
    assert phases.locator("details.phase-changes").count() == 4
    assert phases.locator(".date").count() == 2 + 4 * 2 * 2
    assert phases.locator(".date").evaluate_all("dates => dates.every(date => date.getClientRects().length === 1)"), \
        "a date is on one line"
    screenshot(page, f"dashboard-phased-{width}", full_page=True)
    page.click("#phase-4 > summary")
    assert page.locator("#phase-4 table.phase-parts").count() == 2
    phases.scroll_into_view_if_needed()
    screenshot(phases, f"dashboard-phases-{width}")
    assert axe_violations(page) == []


def test_the_phase_comparison_fits_with_each_date_on_one_line_and_a_phone_picks_the_phase(signed_in, live_server, architect, width):
    page = signed_in
    scenario = scenario_create(owner=architect, document=parse_document(MIXED.read_text()))
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    page.click("a:has-text('Compare the phases side by side')")
    page.wait_for_selector("table.compare")
    if width == "phone":  # one phase against the reference, picked from the row of buttons
        page.click(".compare-against a:has-text('a100-retired')")
        page.wait_for_selector("table.compare")
        assert page.locator("table.compare thead th").nth(2).is_visible()
        assert "a100-retired" in page.locator("table.compare thead th").nth(2).inner_text()
    dates = page.locator("main .date")
    assert dates.count() >= 4
    # A phone shows the reference and one other phase; the dates shown are each on one line.
    assert dates.evaluate_all("dates => dates.filter(date => date.offsetParent)"
                              ".every(date => date.getClientRects().length === 1)"), "a date is on one line"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"
    screenshot(page, f"compare-phases-{width}", full_page=True)
    screenshot(page.locator("#compare-table"), f"compare-phases-table-{width}")
    assert axe_violations(page) == []
