"""The scenario list and the comparison in the browser, on a desktop and on a phone: ticking
scenarios in an order compares them in that order, and the user picks the reference.

Set UX_SCREENSHOTS to a folder to keep a screenshot of each page at each width."""


import pytest

expect = pytest.importorskip("playwright.sync_api").expect

from planner.services import scenario_create
from tests.browser.conftest import WIDTHS, screenshot

pytestmark = pytest.mark.django_db(transaction=True)

DESIGN = {
    "racks": {"power_budget_kw": 41},
    "fabrics": {"compute": {"switch": "qm9700", "topology": "fat_tree"}},
}


def shot(page, name):
    screenshot(page, name, full_page=True)
    screenshot(page, f"{name}-first-screen")


def page_overflow(page) -> int:
    """How far the page itself scrolls sideways (wide tables scroll inside their own box)."""
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


@pytest.fixture
def scenarios(architect):
    made = {}
    for name, system, gpus in (("Pilot", "dgx-h100", 128), ("AMD pod", "mi300x-8", 512),
                               ("Big cluster", "dgx-h100", 10240)):
        made[name] = scenario_create(
            owner=architect, document={"name": name, "compute": {"system": system, "gpus": gpus}, **DESIGN}
        )
    return made


@pytest.mark.parametrize("device", WIDTHS)
def test_list_then_compare_in_the_order_ticked_with_a_chosen_reference(
    signed_in, live_server, scenarios, device
):
    page = signed_in
    page.set_viewport_size({"width": WIDTHS[device], "height": 900})
    page.goto(f"{live_server.url}/scenarios/")
    expect(page.locator("table.scenarios tbody tr")).to_have_count(3)
    row = page.locator("table.scenarios tbody tr", has=page.locator("text=Big cluster"))
    expect(row.locator("td.num").first).to_have_text("10,240")
    assert page_overflow(page) <= 0
    shot(page, f"list-{device}")

    page.select_option("#id_system", "dgx-h100")
    page.click("button:has-text('Apply')")
    expect(page.locator("table.scenarios tbody tr")).to_have_count(2)
    page.goto(f"{live_server.url}/scenarios/")

    # Ticked: the big cluster first, then the pilot (the page lists the pilot first).
    page.check(f"#compare-{scenarios['Big cluster'].pk}")
    page.check(f"#compare-{scenarios['Pilot'].pk}")
    page.click("button:has-text('Compare selected')")
    page.wait_for_url("**/compare/**")
    assert f"ids={scenarios['Big cluster'].pk}&ids={scenarios['Pilot'].pk}" in page.url
    headings = page.locator("table.compare thead th a[href*='/scenarios/']")
    expect(headings).to_have_text(["Big cluster", "Pilot"])
    expect(page.locator("table.compare thead th", has=page.locator(".badge"))).to_contain_text("Big cluster")

    page.click("text=use as reference")
    page.wait_for_url(f"**ref={scenarios['Pilot'].pk}")
    expect(page.locator("table.compare thead th", has=page.locator(".badge"))).to_contain_text("Pilot")
    # The reference's column comes first; the URL keeps the order ticked.
    expect(headings).to_have_text(["Pilot", "Big cluster"])
    gpus = page.locator("table.compare tr", has=page.locator("th:text-is('GPUs')"))
    expect(gpus.locator("td").nth(1)).to_contain_text("+7,900.0 %")
    page.wait_for_selector(".js-plotly-plot", state="attached")
    expect(page.locator("#compare-diffs")).to_be_visible()
    assert page_overflow(page) <= 0
    shot(page, f"compare-{device}")
    screenshot(page.locator("#compare-diffs + .compare-diffs"), f"compare-diffs-{device}")
    screenshot(page.locator(".compare-charts figure").first, f"compare-chart-{device}")
