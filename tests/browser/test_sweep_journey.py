"""The sweep page in the browser: from a scenario's plan, choose two axes (typed numbers and a
choice list), a limit and two objectives, watch the count of designs, run the sweep (the worker runs
in the test), see the scatter (the refused design faint, the limit a line) and the tables, sort one, and save a design as a scenario.

With UX_SCREENSHOTS=<folder> the form and the result are kept there at 1440 and 390 px."""

import os

import pytest

expect = pytest.importorskip("playwright.sync_api").expect

from jobs.worker import Worker
from planner.models import Scenario
from planner.services import scenario_create
from tests.browser.conftest import WIDTHS, screenshot

pytestmark = pytest.mark.django_db(transaction=True)

POD = {"name": "Pod", "compute": {"system": "dgx-h100", "gpus": 256}, "racks": {"power_budget_kw": 41},
       "fabrics": {"compute": {"switch": "qm9700"}}}


def screenshots(page, name: str) -> None:
    if not os.environ.get("UX_SCREENSHOTS"):
        return
    for width in WIDTHS.values():
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(400)
        screenshot(page, f"{name}-{width}", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_sweep_a_scenario_and_save_a_design(signed_in, live_server, architect, settings, tmp_path):
    settings.JOBS_DIR = tmp_path / "jobs"
    scenario = scenario_create(owner=architect, document=dict(POD))
    page = signed_in
    violations = []
    # The form refused is answered 400, which the console notes; any other error is a fault.
    page.on("console", lambda message: violations.append(message.text)
            if message.type == "error" and "status of 400" not in message.text else None)
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    page.click("a.button:has-text('Sweep')")
    page.wait_for_selector("h1:has-text('Sweep “Pod”')")

    page.select_option("#id-axis-0-key", "compute.gpus")
    expect(page.locator("#id-axis-0-values")).to_be_visible()
    expect(page.locator("#id-axis-0-choices")).to_be_hidden()
    page.fill("#id-axis-0-values", "256, 512, 1,024")
    page.select_option("#id-axis-1-key", "fabrics.compute.topology")
    expect(page.locator("#id-axis-1-values")).to_be_hidden()
    page.check("#id-axis-1-choices input[value=fat_tree]")
    page.check("#id-axis-1-choices input[value=rail_only]")
    expect(page.locator("#design-count")).to_have_text("6")
    # 1,024 GPUs draw about 1.8 MW in either topology: the limit refuses those two designs.
    page.select_option("#id-constraint-0-key", "power.facility_kw")
    page.fill("#id-constraint-0-max", "1,500")
    expect(page.locator("#id-objective-0-key")).to_have_value("cost.tco_usd")
    expect(page.locator("#id-objective-1-key")).to_have_value("power.facility_kw")
    screenshots(page, "form")

    # A value the field cannot take is shown next to it, the rest of the form kept.
    page.fill("#id-axis-0-values", "256, 512, lots")
    page.click("button[type=submit]:has-text('Run the sweep')")
    expect(page.locator("#err-axis-0-values")).to_contain_text("“lots” is not a number")
    expect(page.locator("#error-summary a[href='#id-axis-0-values']")).to_be_visible()
    expect(page.locator("#id-axis-1-choices input:checked")).to_have_count(2)
    screenshots(page, "errors")
    page.fill("#id-axis-0-values", "256, 512, 1,024")
    expect(page.locator("#design-count")).to_have_text("6")

    page.click("button[type=submit]:has-text('Run the sweep')")
    expect(page.locator("#job-progress")).to_contain_text("Waiting for a worker")
    Worker().run_once()
    # The polled panel sees the job done and the page reloads with the result.
    expect(page.locator(".sweep-feasible")).to_contain_text("4 of 6 designs are feasible", timeout=10_000)
    expect(page.locator("#sweep-scatter .main-svg").first).to_be_visible()
    expect(page.locator("#sweep-scatter .legendtext", has_text="Refused by a limit")).to_be_visible()
    expect(page.locator("#scatter-caption")).to_contain_text("in faint grey, designs a limit refused")
    assert page.locator("#sweep-scatter .shapelayer path").count() >= 1  # the limit's line
    expect(page.locator("#front-table tbody tr").first).to_be_visible()
    screenshots(page, "result")

    page.click("#feasible-designs > summary")
    table = page.locator("#feasible-table")
    tco_column = table.locator("th button.sort:has-text('TCO (USD)')")
    tco_column.click()
    expect(table.locator("th[aria-sort='ascending']")).to_have_text("TCO (USD)")
    column = int(tco_column.get_attribute("data-column"))
    values = [float(text) for text in table.locator(f"tbody tr td:nth-child({column + 1})").evaluate_all(
        "cells => cells.map(cell => cell.dataset.sort)")]
    assert values == sorted(values) and len(values) == 4
    tco_column.click()
    expect(table.locator("th[aria-sort='descending']")).to_have_text("TCO (USD)")
    first = table.locator("tbody tr").first
    design = first.get_attribute("data-design")

    first.locator("button:has-text('Save as scenario')").click()
    page.wait_for_selector(f"h1:has-text('Pod · sweep design {design}')")
    saved = Scenario.objects.get(name=f"Pod · sweep design {design}")
    assert page.url == f"{live_server.url}/scenarios/{saved.pk}/"
    assert violations == []
