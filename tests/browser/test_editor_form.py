"""The editor as people type into it, at a desktop's width and a phone's: numbers with
separators and percent signs, a refused save whose banner links to each field.

With UX_SCREENSHOTS=<folder> the screens looked at are kept there."""

import pytest

expect = pytest.importorskip("playwright.sync_api").expect

from planner.models import Scenario
from tests.browser.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)

def shot(page, name):
    """The screen as the user sees it, and the whole page."""
    screenshot(page, name)
    screenshot(page, f"{name}-full", full_page=True)


def test_a_refused_save_links_each_error_to_its_field(signed_in, live_server, width):
    page = signed_in
    page.goto(f"{live_server.url}/scenarios/new/")
    shot(page, f"editor-new-{width}")
    page.fill('[name="name"]', "Typed by hand")
    page.fill('[name="compute.gpus"]', "1,02,4")
    page.locator("#section-facility > summary").click()
    page.fill('[name="facility.ups_efficiency"]', "120%")
    page.click("button[type=submit]:has-text('Create scenario')")
    banner = page.locator("#error-summary")
    expect(banner).to_contain_text("Not saved: 2 problems to fix")
    shot(page, f"editor-refused-{width}")
    assert banner.is_visible() and banner.bounding_box()["y"] < 900, "the banner is on the first screen"
    link = banner.locator("a", has_text="Facility › UPS efficiency")
    link.click()
    field = page.locator("#f-facility-ups-efficiency")
    expect(field).to_be_focused()
    expect(field).to_be_in_viewport()
    assert page.input_value("#f-compute-gpus") == "1,02,4"
    shot(page, f"editor-refused-link-followed-{width}")
    assert not Scenario.objects.exists()


def test_numbers_with_separators_and_percent_signs_are_saved(signed_in, live_server):
    page = signed_in
    page.goto(f"{live_server.url}/scenarios/new/")
    page.fill('[name="name"]', "Grouped")
    page.fill('[name="compute.gpus"]', "2,048")
    expect(page.locator('#preview .key-figure[data-key="gpus"] .value')).to_have_text("2,048")
    page.locator("#section-finance > summary").click()
    page.fill('[name="finance.discount_rate"]', "6.5%")
    page.click("button[type=submit]:has-text('Create scenario')")
    page.wait_for_selector("h1:has-text('Grouped')")
    document = Scenario.objects.get(name="Grouped").document
    assert document["compute"]["gpus"] == 2048
    assert document["finance"]["discount_rate"] == pytest.approx(0.065)


def test_the_404_page_has_the_sites_navigation(signed_in, live_server, width):
    page = signed_in
    response = page.goto(f"{live_server.url}/no/such/page/")
    assert response.status == 404
    expect(page.locator(".topbar")).to_contain_text("Scenarios")
    shot(page, f"404-{width}")


def test_the_home_catalog_table_shows_that_it_scrolls(signed_in, live_server, width):
    page = signed_in
    page.goto(f"{live_server.url}/")
    table = page.locator(".catalog-table")
    hidden = table.evaluate("element => element.scrollWidth > element.clientWidth")
    hint = page.locator(".scroll-hint")
    shot(page, f"home-{width}")
    if hidden:
        expect(hint).to_be_visible()
        first_column = page.locator(".catalog-table tbody tr:first-child td:first-child")
        before = first_column.bounding_box()["x"]
        table.evaluate("element => { element.scrollLeft = 400; }")
        assert first_column.bounding_box()["x"] == before, "the system's name stays in view"
        shot(page, f"home-scrolled-{width}")
    else:
        expect(hint).to_be_hidden()
    assert width == "desktop" or hidden, "a phone cannot show nine columns"
    assert "200000.0" not in page.content()


def test_while_typing_a_bad_value_the_preview_keeps_its_figures_and_says_why(
    signed_in, live_server, width
):
    page = signed_in
    page.goto(f"{live_server.url}/scenarios/new/")
    gpus = page.locator('#preview .key-figure[data-key="gpus"] .value')
    expect(gpus).to_have_text("1,024")
    page.fill('[name="compute.gpus"]', "2 048")
    expect(gpus).to_have_text("2,048")
    page.fill('[name="compute.gpus"]', "2 04")
    status = page.locator("#preview-status")
    expect(status).to_contain_text("from the last input that planned")
    expect(status.locator("a", has_text="Compute › GPUs")).to_be_visible()
    expect(gpus).to_have_text("2,048")
    shot(page, f"editor-typing-bad-{width}")
    page.fill('[name="compute.gpus"]', "4,096")
    expect(gpus).to_have_text("4,096")
    expect(status).to_have_text("")
