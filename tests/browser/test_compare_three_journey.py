"""Compare three scenarios with the last as reference, at 1440 and 390 px: the reference's
column first and on screen, one scenario against it on a phone; axe-clean."""

import pytest

from planner.services import scenario_create
from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import axe_violations

pytestmark = pytest.mark.django_db(transaction=True)


def test_compare_three_scenarios_with_the_last_as_reference(signed_in, live_server, architect, width):
    design = {"racks": {"power_budget_kw": 41}, "fabrics": {"compute": {"switch": "qm9700"}}}
    scenarios = [
        scenario_create(owner=architect, document={"name": name, "compute": {"system": system, "gpus": gpus}, **design})
        for name, system, gpus in (("Pilot H100", "dgx-h100", 128), ("A100 cluster", "hgx-a100", 1024),
                                   ("Production H100", "dgx-h100", 1024))
    ]
    ids = "&".join(f"ids={scenario.pk}" for scenario in scenarios)
    page = signed_in
    page.goto(f"{live_server.url}/compare/?{ids}&ref={scenarios[-1].pk}")
    page.wait_for_selector("table.compare")
    headers = page.locator("table.compare thead th")
    assert "Production H100" in headers.nth(1).inner_text()
    assert headers.nth(1).is_visible()
    if width == "phone":
        assert not headers.nth(3).is_visible()
        page.click(".compare-against a:has-text('A100 cluster')")
        page.wait_for_selector("table.compare")
        assert "A100 cluster" in page.locator("table.compare thead th").nth(2).inner_text()
    assert page.locator("table.compare th:has-text('Dense compute')").count() == 1
    screenshot(page, f"compare-three-{width}", full_page=True)
    screenshot(page.locator("#compare-table"), f"compare-three-table-{width}")
    assert axe_violations(page) == []
