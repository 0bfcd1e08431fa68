"""What-if on the dashboard in Chromium at 1440 and 390 px: a slider moved replans the saved
revision without saving, its figures against the saved ones, the charts redrawn; back to the
saved revision. Axe-clean.

With UX_SCREENSHOTS=<folder> the screens looked at are kept there."""

from pathlib import Path

import pytest

expect = pytest.importorskip("playwright.sync_api").expect

from planner.models import Scenario
from planner.services import scenario_create
from planner.solver.documents import parse_document
from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import axe_violations

pytestmark = pytest.mark.django_db(transaction=True)

SUPERPOD = Path(__file__).parents[2] / "examples" / "dgx-h100-4su.yaml"


def slide(page, selector, value):
    page.locator(selector).evaluate(
        "(range, value) => { range.value = value; range.dispatchEvent(new Event('input', {bubbles: true})); }",
        value,
    )


def test_what_if_on_the_dashboard(signed_in, live_server, architect, width):
    page = signed_in
    scenario = scenario_create(owner=architect, document=parse_document(SUPERPOD.read_text()))
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    drawn = page.locator(".plot[data-drawn]").count()
    assert drawn
    page.click("#what-if > summary")
    slide(page, "#what-if-pue", "1.6")
    page.wait_for_selector("table.what-if-figures")
    assert "→ 1.60" in page.inner_text("#what-if-result")
    assert page.inner_text("#what-if-pue-shown") == "1.60"
    facility = page.locator("table.what-if-figures tr", has_text="Facility power")
    assert "+" in facility.inner_text()
    screenshot(page.locator("#what-if"), f"dashboard-what-if-{width}")
    assert axe_violations(page) == []
    assert Scenario.objects.get().revision == scenario.revision
    # the charts on screen are drawn again, from the moved design's figures
    assert page.locator(".plot[data-drawn]").count() == drawn

    page.click("#what-if-reset")
    page.wait_for_selector("table.what-if-figures", state="detached")
    expect(page.locator("#what-if-pue-shown")).not_to_have_text("1.60")
    assert errors == []
