"""A site of several pools built in the form: one cluster made a site, a second pool added and
filled, the pools folded to their summary lines; saved, it plans. At 1440 and 390 px."""

import pytest

from planner.models import Scenario
from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import axe_violations

pytestmark = pytest.mark.django_db(transaction=True)


def test_make_a_site_of_several_pools_in_the_form(signed_in, live_server, width):
    page = signed_in
    page.goto(live_server.url + "/scenarios/new/")
    page.fill('[name="name"]', "Two pools from the form")
    page.click("button:has-text('Make it a site of several pools')")
    page.wait_for_selector('[name="pools.0.system"]', state="attached")
    assert page.locator('[name="compute.system"]').count() == 0
    page.click("button[data-row-add][value='pools']")
    second = page.locator('[data-row-list="pools"] > ol > li').nth(1)
    second.locator('input[name$=".name"]').first.fill("fine-tuning")
    second.locator('select[name$=".system"]').first.select_option("hgx-a100")
    second.locator('input[name$=".gpus"]').first.fill("64")
    screenshot(page, f"editor-site-{width}", full_page=True)
    assert axe_violations(page) == []
    page.click("button[type=submit]:has-text('Create scenario')")
    page.wait_for_selector("h1:has-text('Two pools from the form')")
    pools = Scenario.objects.get().document["pools"]
    assert [pool["system"] for pool in pools] == ["dgx-h100", "hgx-a100"]
    page.goto(live_server.url + f"/scenarios/{Scenario.objects.get().pk}/edit/")
    summaries = page.locator("details.row-fold > summary")
    assert summaries.count() == 2
    assert "hgx" not in summaries.nth(1).inner_text().lower() or "A100" in summaries.nth(1).inner_text()
    screenshot(page, f"editor-site-folded-{width}")
