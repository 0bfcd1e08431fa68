"""Start from an example: the home page lists the shipped scenarios with their figures; one
picked opens the form filled, and creating it plans it. At 1440 and 390 px, axe-clean."""

import pytest

from planner.models import Scenario
from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import axe_violations

pytestmark = pytest.mark.django_db(transaction=True)


def test_start_from_an_example(signed_in, live_server, width):
    page = signed_in
    page.goto(live_server.url + "/")
    cards = page.locator(".example-card")
    assert cards.count() >= 8
    assert "racks" in cards.first.inner_text().lower()
    screenshot(page, f"home-examples-{width}", full_page=True)
    assert axe_violations(page) == []
    page.click(".example-card a:has-text('DGX H100 SuperPOD')")
    page.wait_for_selector("text=Filled from the example")
    assert page.locator('[name="name"]').input_value() == "DGX H100 SuperPOD, 4 scalable units"
    page.wait_for_selector('#preview .key-figure[data-key="gpus"]')
    screenshot(page, f"editor-from-example-{width}")
    assert axe_violations(page) == []
    page.click("button[type=submit]:has-text('Create scenario')")
    page.wait_for_selector("h1:has-text('DGX H100 SuperPOD')")
    assert Scenario.objects.get().document["compute"]["nodes"] == 128


def test_the_new_form_offers_the_examples(signed_in, live_server):
    page = signed_in
    page.goto(live_server.url + "/scenarios/new/")
    page.click("summary:has-text('Start from an example instead')")
    page.click(".example-card a:has-text('Two pools, one site')")
    page.wait_for_selector("text=Filled from the example")
    assert "Two pools" in page.locator('[name="name"]').input_value()
