"""The editor's repeatable rows in Chromium, at a desktop's width and a phone's: a new scenario
with two storage tiers and a NIC override entered entirely in the form, saved and planned; the
same rows without script.

With UX_SCREENSHOTS=<folder> the screens looked at are kept there."""

import pytest

expect = pytest.importorskip("playwright.sync_api").expect

from planner.models import Scenario
from tests.browser.conftest import PASSWORD, screenshot
from tests.browser.test_accessibility import axe_violations

pytestmark = pytest.mark.django_db(transaction=True)

def shot(page, name, element=None):
    screenshot(element or page, name)


def fill_tier(row, system, name, ticked, **numbers):
    row.locator("select[name$='.system']").select_option(system)
    row.locator("input[name$='.name']").fill(name)
    for label in ticked:
        row.get_by_label(label, exact=True).check()
    for key, value in numbers.items():
        row.locator(f"input[name$='.{key}']").fill(value)


def test_a_new_scenario_with_two_storage_tiers_and_a_nic_override(signed_in, live_server, width):
    page = signed_in
    page.goto(f"{live_server.url}/scenarios/new/")
    page.fill('[name="name"]', f"Tiers and HCAs ({width})")

    page.click("button:has-text('Add a NIC override')")
    override = page.locator("#row-compute-nics-0")
    expect(override.locator("select[name='compute.nics.0.role']")).to_be_focused()
    override.locator("select[name='compute.nics.0.role']").select_option(label="Storage")
    override.locator("[name='compute.nics.0.count']").fill("2")
    override.locator("[name='compute.nics.0.gbps']").fill("200")
    shot(page, f"nic-override-{width}", page.locator("#section-compute"))

    page.locator("#section-fabrics-storage > summary").click()
    page.check("#include-fabrics-storage")
    page.select_option('[name="fabrics.storage.switch"]', "sn5600")

    page.locator("#section-storage > summary").click()
    page.fill('[name="storage.checkpoint_tb"]', "12")
    for _ in range(3):
        page.click("button:has-text('Add a storage tier')")
    rows = page.locator("#rows-storage-tiers > ol > li")
    expect(rows).to_have_count(3)
    fill_tier(rows.nth(0), "ddn-ai400x2-turbo", "Hot NVMe", ["Training reads", "Checkpoint writes"])
    fill_tier(rows.nth(2), "object-hdd-4u60", "Archive", ["Checkpoints"], retained_checkpoints="10")
    # The second tier goes: the third moves up, renamed, with what was typed into it.
    rows.nth(1).locator("button:has-text('Remove')").click()
    expect(rows).to_have_count(2)
    assert page.input_value('[name="storage.tiers.1.name"]') == "Archive"
    assert page.input_value('[name="storage.tiers.1.retained_checkpoints"]') == "10"
    expect(rows.nth(1).locator("legend.row-title")).to_have_text("Storage tier 2")
    expect(rows.nth(1).get_by_label("Checkpoints", exact=True)).to_be_checked()
    expect(page.locator("#row-storage-tiers-1")).to_have_count(1)
    expect(page.locator("#row-storage-tiers-2")).to_have_count(0)

    status = page.locator("#preview-status")
    expect(page.locator('#preview .key-figure[data-key="gpus"] .value')).to_have_text("1,024")
    expect(status).to_have_text("")
    shot(page, f"tiers-{width}", page.locator("#section-storage"))
    violations = axe_violations(page)
    assert not violations, "\n".join(violations)
    page.click("button[type=submit]:has-text('Create scenario')")
    page.wait_for_selector(f"h1:has-text('Tiers and HCAs ({width})')")

    scenario = Scenario.objects.get(name=f"Tiers and HCAs ({width})")
    assert scenario.document["compute"]["nics"] == [{"role": "storage", "count": 2, "gbps": 200}]
    assert [tier["name"] for tier in scenario.document["storage"]["tiers"]] == ["Hot NVMe", "Archive"]
    text = page.locator("main").text_content()  # the plan's sections are folded
    assert "Hot NVMe" in text and "Archive" in text, "the plan shows both tiers"
    plan = page.request.get(f"{live_server.url}/scenarios/{scenario.pk}/plan.json").json()
    assert [link["gbps"] for link in plan["fabrics"]["storage"]["links"] if link["from"] == "node"] == [200]
    shot(page, f"plan-{width}")

    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/edit/")
    expect(page.locator("#f-compute-nics-0-gbps")).to_have_value("200")
    expect(page.locator("#f-storage-tiers-1-name")).to_have_value("Archive")
    shot(page, f"edit-saved-{width}", page.locator("#section-storage"))


def test_rows_without_script_are_added_and_removed_by_posting(browser, live_server, architect):
    context = browser.new_context(viewport={"width": 1440, "height": 900}, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", architect.username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.goto(f"{live_server.url}/scenarios/new/")
    page.locator("#section-storage > summary").click()
    page.click("button:has-text('Add a storage tier')")
    page.wait_for_selector("#row-storage-tiers-0")
    expect(page.locator("#f-storage-tiers-0-system")).to_be_focused()
    page.select_option("#f-storage-tiers-0-system", "ddn-ai400x2-turbo")
    page.locator("#row-storage-tiers-0").get_by_label("Training reads", exact=True).check()
    page.click("button:has-text('Add a storage tier')")
    page.wait_for_selector("#row-storage-tiers-1")
    page.locator("#row-storage-tiers-1 button:has-text('Remove')").click()
    page.wait_for_selector("#row-storage-tiers-1", state="detached")
    expect(page.locator("#f-storage-tiers-0-system")).to_have_value("ddn-ai400x2-turbo")
    page.click("button[type=submit]:has-text('Create scenario')")
    page.wait_for_selector("h1:has-text('New scenario')")
    assert Scenario.objects.get().document["storage"]["tiers"] == [
        {"system": "ddn-ai400x2-turbo", "serves": ["training_reads"]}]
    context.close()
