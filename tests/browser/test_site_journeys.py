"""Sites built from an empty form ("New scenario", not an example), as a new user would, in
Chromium at 1440 and 390 px:

- a mixed-generation site in three phases: an A100 pool, an H100 pool added beside it, and three
  phases sizing each pool (a smaller `examples/mixed-generation-expansion.yaml`); "Add a phase"
  after the pools changed posts the form back, so the phase rows have a line for each pool;
- a training and inference site: a training pool with its workload, and a serving pool sized
  from its inference load and latency targets (`examples/training-and-inference-site.yaml`).

Each is saved, read back from the document, and looked at on its dashboard; the form and the
dashboard are axe-clean with their sections open. With UX_SCREENSHOTS=<folder> the screens looked
at are kept there."""

import pytest

from planner.models import Scenario
from tests.browser.conftest import screenshot
from tests.browser.test_accessibility import axe_violations

pytestmark = pytest.mark.django_db(transaction=True)

PHASES = [
    # (name, start, {pool: GPUs at the end of the phase})
    ("validation", "2026-03-01", {"a100": 64}),
    ("pre-production", "2026-09-01", {"a100": 64, "h100": 128}),
    ("production", "2027-06-01", {"a100": 64, "h100": 256}),
]
SERVING = {
    # the serving pool of examples/training-and-inference-site.yaml: Llama 3.1 70B in FP8
    "parameters_billion": 70,
    "precision": "fp8",
    "layers": 80,
    "kv_heads": 8,
    "head_dim": 128,
    "input_tokens": 2000,
    "output_tokens": 400,
    "requests_per_s": 200,
    "time_per_output_token_ms": 40,
    "time_to_first_token_ms": 2000,
}


def start_a_site(page, live_server, name: str):
    page.goto(live_server.url + "/scenarios/new/")
    page.fill('[name="name"]', name)
    page.click("button:has-text('Make it a site of several pools')")
    page.wait_for_selector('[name="pools.0.system"]', state="attached")


def fill_pool(page, row: int, name: str, system: str, gpus: str = "") -> None:
    page.locator(f"#row-pools-{row} > fieldset > details.row-fold").evaluate("element => element.open = true")
    page.fill(f'[name="pools.{row}.name"]', name)
    page.select_option(f'[name="pools.{row}.system"]', system)
    page.fill(f'[name="pools.{row}.gpus"]', gpus)


def recomputed(page) -> None:
    """The preview has caught up with the last input (it posts 300 ms after typing stops)."""
    page.wait_for_timeout(400)
    page.wait_for_selector(".htmx-request", state="detached")


def fits_the_width(page) -> bool:
    """Nothing on the page (a long address in a note) widens it beyond the screen."""
    return page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def open_all(page, selector: str) -> None:
    page.locator(selector).evaluate_all("elements => elements.forEach(element => element.open = true)")


def look_and_save(page, sections: str, shot: str, title: str) -> None:
    """The filled form with `sections` open, recomputed, kept and checked by axe; then saved, and
    the dashboard of `title` shown."""
    open_all(page, sections)
    recomputed(page)
    screenshot(page, shot, full_page=True)
    assert axe_violations(page) == []
    page.click("button[type=submit]:has-text('Create scenario')")
    page.wait_for_selector(f"h1:has-text('{title}')")


def test_a_mixed_generation_site_in_three_phases_from_an_empty_form(signed_in, live_server, width):
    page = signed_in
    start_a_site(page, live_server, "A100 then H100 in three phases")
    fill_pool(page, 0, "a100", "hgx-a100", "64")
    page.click("button[data-row-add][value='pools']")
    fill_pool(page, 1, "h100", "dgx-h100", "256")

    # The pools changed since the page was drawn: adding a phase posts the form back, and the
    # phase comes back with a line for each pool.
    page.click("button[data-row-add][value='phases']")
    page.wait_for_selector("#row-phases-0 .pool-line-name >> nth=1")
    for number, (name, start, sizes) in enumerate(PHASES):
        if number:
            page.click("button[data-row-add][value='phases']")
        row = page.locator(f"#row-phases-{number}")
        assert row.locator(".pool-line-name").all_inner_texts() == ["a100", "h100"]
        row.locator(f"[name='phases.{number}.name']").fill(name)
        row.locator(f"[name='phases.{number}.start']").fill(start)
        for pool, gpus in sizes.items():
            row.locator(f"[name='phases.{number}.pools.{pool}.size']").fill(str(gpus))
    assert page.input_value("[name='pools.0.name']") == "a100"
    assert page.input_value("[name='pools.1.system']") == "dgx-h100"
    look_and_save(page, "#scenario-form details.row-fold", f"journey-phases-form-{width}",
                  "A100 then H100 in three phases")
    document = Scenario.objects.get().document
    assert document["pools"] == [
        {"name": "a100", "system": "hgx-a100", "gpus": 64},
        {"name": "h100", "system": "dgx-h100", "gpus": 256},
    ]
    assert document["phases"] == [
        {"name": name, "start": start, "pools": {pool: {"gpus": gpus} for pool, gpus in sizes.items()}}
        for name, start, sizes in PHASES
    ]

    phases = page.locator("#plan-phases")
    page.wait_for_selector("#chart-buildout-timeline .main-svg")
    assert phases.locator("details.phase-changes").count() == 3
    for name, _, _ in PHASES:
        assert name in phases.inner_text()
    open_all(page, "#plan-phases details.phase-changes")
    assert fits_the_width(page)
    screenshot(page, f"journey-phases-dashboard-{width}", full_page=True)
    phases.scroll_into_view_if_needed()
    screenshot(phases, f"journey-phases-table-{width}")
    assert axe_violations(page) == []


def test_a_training_and_inference_site_from_an_empty_form(signed_in, live_server, width):
    page = signed_in
    start_a_site(page, live_server, "Training and serving")
    fill_pool(page, 0, "training", "dgx-h100", "256")
    summary = page.locator("#row-pools-0 .row-summary")
    assert summary.inner_text() == "training · NVIDIA DGX H100 · 256 GPUs · on the site's compute fabric"
    # a pool's workload and inference are folded and left out until opened and filled
    assert page.locator("#part-pools-0-workload .badge").text_content() == "optional: left out while empty"
    page.click("#part-pools-0-workload > summary")
    page.fill('[name="pools.0.workload.parameters_billion"]', "70")
    page.fill('[name="pools.0.workload.tokens_trillion"]', "2")
    assert page.locator("#part-pools-0-workload .badge").text_content() == "included"
    assert page.locator("#part-pools-0-inference .badge").text_content() == "optional: left out while empty"
    page.click("button[data-row-add][value='pools']")
    # The serving pool is sized from its load and latency targets: no GPUs given.
    fill_pool(page, 1, "serving", "dgx-h200")
    page.click("#part-pools-1-inference > summary")
    for key, value in SERVING.items():
        field = page.locator(f'[name="pools.1.inference.{key}"]:not([type=hidden])')
        if key == "precision":
            field.select_option(value)
        else:
            field.fill(str(value))
    assert page.locator("#part-pools-1-inference .badge").text_content() == "included"
    look_and_save(page, "#scenario-form details.row-fold, #scenario-form details.row-part",
                  f"journey-inference-form-{width}", "Training and serving")
    pools = Scenario.objects.get().document["pools"]
    assert [(pool["name"], pool["system"]) for pool in pools] == [("training", "dgx-h100"), ("serving", "dgx-h200")]
    assert pools[0]["gpus"] == 256
    assert pools[0]["workload"] == {"parameters_billion": 70, "tokens_trillion": 2}
    assert "inference" not in pools[0]
    # FP8, picked in the form, is the default precision: the document leaves it out
    assert pools[1]["inference"] == {key: value for key, value in SERVING.items() if key != "precision"}
    assert "gpus" not in pools[1] and "workload" not in pools[1]

    tile = page.locator(".lead-tile[data-key='usd_per_million_output_tokens']")
    assert tile.locator("dt").text_content().strip() == "Per million output tokens"
    assert tile.locator(".unit").inner_text() == "USD" and float(tile.locator(".value").inner_text()) > 0
    page.locator("#plan-pools > summary").click()
    inference = page.locator("#plan-pools-serving-inference")
    inference.locator("> summary").click()
    for words in ("Tokens per s per GPU", "USD per million output tokens", "GPUs needed"):
        assert words in inference.inner_text()
    assert fits_the_width(page)
    screenshot(page, f"journey-inference-dashboard-{width}", full_page=True)
    inference.scroll_into_view_if_needed()
    screenshot(inference, f"journey-inference-figures-{width}")
    assert axe_violations(page) == []
