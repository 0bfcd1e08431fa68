"""Start from an example: the home page lists the shipped scenarios with their figures; one
picked opens the form filled, and creating it plans it. At 1440 and 390 px, axe-clean."""

import re
from pathlib import Path

import pytest
from django.conf import settings

from planner.models import Scenario
from planner.services import scenario_validate
from tests.browser.conftest import WIDTHS, screenshot
from tests.browser.test_accessibility import axe_violations
from workspace.examples import EXAMPLES_DIRECTORY, example_document

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


def example_slugs() -> list[str]:
    return sorted(path.stem for path in (Path(settings.BASE_DIR) / EXAMPLES_DIRECTORY).glob("*.yaml"))


def slugs_at_alternate_widths() -> list[tuple[str, str]]:
    """Each example once, on a desktop and a phone in turn: both widths are covered without
    planning every example twice."""
    devices = sorted(WIDTHS)
    return [(slug, devices[index % len(devices)]) for index, slug in enumerate(example_slugs())]


@pytest.mark.parametrize(("slug", "device"), slugs_at_alternate_widths())
def test_every_example_saves_as_a_scenario(signed_in, live_server, slug, device):
    page = signed_in
    page.set_viewport_size({"width": WIDTHS[device], "height": 900})
    example = example_document(slug)
    page.goto(live_server.url + "/")
    page.click(f".example-card a[href$='?example={slug}']")
    page.wait_for_selector("text=Filled from the example")
    page.wait_for_selector('#preview .key-figure[data-key="gpus"]')
    page.click("button[type=submit]:has-text('Create scenario')")
    page.wait_for_url(re.compile(r"/scenarios/\d+/$"))
    assert page.locator("h1").inner_text() == example["name"]
    saved = Scenario.objects.get().document
    assert (saved["name"], saved.get("compute"), saved.get("pools")) == (
        example["name"], example.get("compute"), example.get("pools"))
    # The form leaves out what is said to be its default (`max_weight_kg: null`, `protection:
    # none`): the same scenario, not the same text.
    assert scenario_validate(saved) == scenario_validate(example)
    assert axe_violations(page) == []
