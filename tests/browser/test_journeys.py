"""What an architect does in the browser: sign in, fill the form, read the plan, compare."""

import json
from pathlib import Path

import pytest

expect = pytest.importorskip("playwright.sync_api").expect

from planner.models import Scenario
from planner.services import scenario_create
from tests.browser.conftest import WIDTHS, screenshot

pytestmark = pytest.mark.django_db(transaction=True)

SMALL = {"name": "Small H100", "compute": {"system": "dgx-h100", "gpus": 64}}


def key_figure(page, key):
    return page.locator(f'#preview .key-figure[data-key="{key}"] .value')


def test_sign_in_lands_on_the_scenario_list(signed_in):
    assert signed_in.locator("h1").inner_text() == "Scenarios"
    assert "Sign out ada" in signed_in.locator(".topbar").inner_text()


def test_create_a_scenario_through_the_form_and_see_its_plan(signed_in, live_server):
    page = signed_in
    violations = []
    page.on("console", lambda message: violations.append(message.text) if "Content Security Policy" in message.text else None)
    page.click("text=New scenario")
    page.fill('[name="name"]', "Browser made")
    page.select_option('[name="compute.system"]', "dgx-h100")
    page.fill('[name="compute.gpus"]', "256")
    page.click("button[type=submit]:has-text('Create scenario')")
    page.wait_for_selector("h1:has-text('Browser made')")
    assert page.locator('.key-figure[data-key="gpus"] .value').inner_text() == "256"
    page.wait_for_selector(".js-plotly-plot", state="attached")
    assert page.locator(".js-plotly-plot").count() >= 2
    assert Scenario.objects.get(name="Browser made").document["compute"]["gpus"] == 256
    page.wait_for_timeout(300)
    assert violations == [], "the editor, htmx, the dashboard and plotly live with the CSP"


def test_key_figures_recompute_as_a_field_changes_without_a_reload(
    signed_in, live_server, architect
):
    scenario = scenario_create(owner=architect, document=dict(SMALL))
    page = signed_in
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/edit/")
    assert key_figure(page, "gpus").inner_text() == "64"
    page.evaluate("window.notReloaded = true")
    page.fill('[name="compute.gpus"]', "2048")
    # expect() polls from Playwright's side: the pages' CSP forbids the eval wait_for_function needs.
    expect(page.locator('#preview .key-figure[data-key="gpus"] .value')).to_have_text("2,048")
    assert page.evaluate("window.notReloaded") is True
    assert key_figure(page, "nodes").inner_text() == "256"


def test_a_bad_value_shows_an_error_beside_its_field_and_clears(signed_in, live_server, architect):
    scenario = scenario_create(owner=architect, document=dict(SMALL))
    page = signed_in
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/edit/")
    page.fill('[name="racks.usable_u"]', "lots")
    error = page.locator("#err-racks-usable-u")
    error.filter(has_text="“lots” is not a number").wait_for()
    expect(page.locator("#preview-status")).to_contain_text("from the last input that planned")
    assert key_figure(page, "gpus").inner_text() == "64", "the last good figures stay"
    page.fill('[name="racks.usable_u"]', "42")
    expect(page.locator("#err-racks-usable-u")).to_have_text("")
    assert key_figure(page, "gpus").inner_text() == "64"


def test_saving_a_bad_value_keeps_the_input_and_names_the_field(signed_in, live_server, architect):
    scenario = scenario_create(owner=architect, document=dict(SMALL))
    page = signed_in
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/edit/")
    page.fill('[name="compute.gpus"]', "-8")
    page.click("button[type=submit]:has-text('Save revision 2')")
    page.wait_for_selector("#err-compute-gpus:has-text('must be a positive whole number')")
    assert page.input_value('[name="compute.gpus"]') == "-8"
    scenario.refresh_from_db()
    assert scenario.revision == 1


def test_download_the_plan_and_the_bill_of_materials(signed_in, live_server, architect):
    scenario = scenario_create(owner=architect, document=dict(SMALL))
    page = signed_in
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    with page.expect_download() as download:
        page.click(".exports >> text=Plan (JSON)")
    plan = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert plan["compute"]["gpus"] == 64 and plan["bom"]
    bom_link = page.locator(".exports >> text=BOM (CSV)")
    if bom_link.count():
        with page.expect_download() as download:
            bom_link.click()
        text = Path(download.value.path()).read_text(encoding="utf-8")
        assert "dgx-h100" in text
    with page.expect_download() as download:
        page.click(".exports >> text=Scenario (YAML)")
    assert "Small H100" in Path(download.value.path()).read_text(encoding="utf-8")


def test_compare_two_scenarios(signed_in, live_server, architect):
    first = scenario_create(owner=architect, document=dict(SMALL))
    second = scenario_create(
        owner=architect,
        document={**SMALL, "name": "Twice as big", "compute": {"system": "dgx-h100", "gpus": 128}},
    )
    page = signed_in
    page.goto(f"{live_server.url}/scenarios/")
    page.check(f"#compare-{first.pk}")
    page.check(f"#compare-{second.pk}")
    page.click("text=Compare selected")
    page.wait_for_selector("table.compare")
    assert f"ids={first.pk}" in page.url and f"ids={second.pk}" in page.url
    table = page.locator("table.compare").inner_text()
    assert "Twice as big" in table and "Small H100" in table
    assert "+100.0 %" in table  # in the order ticked: the first is the reference
    page.wait_for_selector(".js-plotly-plot", state="attached")


def test_download_the_cabling_plan_as_csv_and_as_parquet(signed_in, live_server, architect):
    """A cabled pod's dashboard offers its cabling plan both ways; each downloads the same rows."""
    import csv

    import pyarrow.parquet as pq

    document = {**SMALL, "name": "Cabled H100", "fabrics": {"compute": {"switch": "qm9700"}}}
    scenario = scenario_create(owner=architect, document=document)
    page = signed_in
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    exports = page.locator(".exports")
    for width in WIDTHS.values():
        page.set_viewport_size({"width": width, "height": 900})
        screenshot(exports, f"dashboard-exports-{width}")
    with page.expect_download() as download:
        page.click(".exports >> text=Cabling plan (CSV)")
    with Path(download.value.path()).open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    with page.expect_download() as download:
        page.click(".exports >> text=Cabling plan (Parquet)")
    assert download.value.suggested_filename == "cabled-h100.cabling.parquet"
    table = pq.read_table(download.value.path())
    assert table.num_rows == len(rows) == 64  # 8 systems x 8 rails, each to its rail's one leaf
    assert table.column("from_device").to_pylist() == [row["from_device"] for row in rows]
