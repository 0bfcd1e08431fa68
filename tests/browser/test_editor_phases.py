"""A phase's pools in the form, in Chromium at 1440 and 390 px: the mixed-generation example
opens with one line per pool in each phase row; the pre-production phase tries the H100 pool on another
system, and a phase is added from the page's blank row, saved, and read back from the document.

With UX_SCREENSHOTS=<folder> the screens looked at are kept there."""

import pytest

from planner.models import Scenario
from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import axe_violations
from tests.browser.test_site_journeys import fill_pool

pytestmark = pytest.mark.django_db(transaction=True)


def test_phases_change_sizes_systems_and_retire_pools_in_the_form(signed_in, live_server, width):
    page = signed_in
    page.goto(f"{live_server.url}/scenarios/new/?example=mixed-generation-expansion")
    page.wait_for_selector("text=Filled from the example")
    phases = page.locator("#rows-phases")
    if not phases.is_visible():
        page.locator("#rows-phases").evaluate("element => element.closest('details').open = true")
    first = page.locator("#row-phases-0")
    assert first.locator(".pool-line-name").all_inner_texts() == ["a100", "h100"]
    assert page.input_value("[name='phases.0.pools.a100.size']") == "200"
    assert page.input_value("[name='phases.0.pools.h100.size']") == ""
    assert page.is_checked("[name='phases.3.pools.a100.retire'][type=checkbox]")
    first.scroll_into_view_if_needed()
    screenshot(page, f"editor-phases-{width}", full_page=False)

    page.click("button:has-text('Add a phase')")
    added = page.locator("#row-phases-4")
    added.locator("[name='phases.4.name']").fill("b200-refresh")
    added.locator("[name='phases.4.start']").fill("2030-01-01")
    # the A100 pool retired in phase 4 is left blank: a later phase may not name it
    added.locator("[name='phases.4.pools.h100.size']").fill("1,700")
    # the last phase is the site: the pool keeps its own system there; the pilot tries another
    page.select_option("[name='phases.1.pools.h100.system']", "hgx-h800")
    screenshot(added, f"editor-phase-added-{width}")
    assert axe_violations(page) == []

    page.click("button[type=submit]:has-text('Create scenario')")
    page.wait_for_load_state()
    page.wait_for_selector("h1:has-text('Mixed-generation')")
    document = Scenario.objects.get().document
    assert document["phases"][3] == {"name": "a100-retired", "start": "2029-01-01",
                                     "pools": {"a100": {"retire": True}, "h100": {"gpus": 1700}}}
    assert document["phases"][4]["pools"] == {"h100": {"gpus": 1700}}
    assert document["phases"][1]["pools"] == {"a100": {"gpus": 200}, "h100": {"gpus": 600, "system": "hgx-h800"}}


def test_a_phases_storage_tiers_in_the_form(signed_in, live_server, width):
    page = signed_in
    page.goto(f"{live_server.url}/scenarios/new/?example=slurm-cluster-128-to-10k")
    page.wait_for_selector("text=Filled from the example")
    first = page.locator("#row-phases-0")
    assert first.locator(".tier-line .pool-line-name").all_inner_texts() == ["burst-buffer", "datasets", "archive"]
    assert not page.is_checked("#f-phases-0-storage-burst-buffer-built")
    first.locator(".tier-lines").scroll_into_view_if_needed()
    screenshot(first, f"editor-phase-storage-{width}")
    assert axe_violations(page) == []


def test_a_phase_added_after_a_new_pool_takes_the_cursor_without_errors(signed_in, live_server, width):
    """A pool the phase rows do not know yet makes "Add a phase" post the form: the page comes
    back with the new phase row blank, its first input focused and nothing to fix."""
    page = signed_in
    page.goto(f"{live_server.url}/scenarios/new/?example=mixed-generation-expansion")
    page.wait_for_selector("text=Filled from the example")
    page.click("button:has-text('Add a pool')")
    fill_pool(page, 2, "b200", "dgx-b200", "512")
    page.click("button:has-text('Add a phase')")
    page.wait_for_selector("#row-phases-4")
    focused_row = page.evaluate("document.activeElement.closest('[data-row]')?.dataset.row")
    assert focused_row == "phases.4"
    assert page.evaluate("document.activeElement.name") == "phases.4.name"
    assert page.locator("#scenario-form #error-summary:not(.empty)").count() == 0
    assert page.locator("#row-phases-4 .errors:visible, #row-phases-4 [aria-invalid=true]").count() == 0
    screenshot(page.locator("#row-phases-4"), f"editor-phase-added-after-a-pool-{width}")
