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
