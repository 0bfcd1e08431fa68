"""The editor's sliders in Chromium: moving them sets their fields, redraws the key figures and
the charts, shows the change against the saved revision, and the save keeps the new values.

With UX_SCREENSHOTS=<folder> the screens looked at are kept there."""

import copy
import statistics
import time
from pathlib import Path

import pytest
import yaml

expect = pytest.importorskip("playwright.sync_api").expect

from planner.models import Scenario
from planner.services import scenario_create
from tests.browser.conftest import screenshot

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLE = yaml.safe_load((Path(__file__).parents[2] / "examples" / "dgx-h100-4su.yaml").read_text())
YEARS_CHART = "preview-chart-years"


@pytest.fixture
def saved(architect):
    return scenario_create(owner=architect, document=copy.deepcopy(EXAMPLE))


def figure_text(page, key):
    return page.locator(f'#preview .key-figure[data-key="{key}"] .value').inner_text()


def chart_data(page, chart_id):
    """The data plotly draws in the page (what Plotly.react was last given)."""
    return page.evaluate(f"document.getElementById('{chart_id}').data.map(trace => trace.y || trace.values || null)")


def open_editor(page, url, width=1440):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(url)
    expect(page.locator("#sliders")).to_be_visible()
    wait_until(page, f"() => document.getElementById('{YEARS_CHART}').data !== undefined")


def wait_until(page, predicate, timeout_s=10):
    """Poll a JavaScript function until it returns true (the page's CSP refuses the string
    evaluation that Playwright's wait_for_function polls with)."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(predicate):
        assert time.monotonic() < deadline, f"still false after {timeout_s} s: {predicate}"
        page.wait_for_timeout(50)


def press(page, selector, key, times):
    page.focus(selector)
    for _ in range(times):
        page.keyboard.press(key)


def test_sliders_redraw_the_figures_and_charts_and_the_save_keeps_them(signed_in, live_server, saved):
    page = signed_in
    open_editor(page, f"{live_server.url}/scenarios/{saved.pk}/edit/")
    screenshot(page, "editor-sliders-1440")
    budget = page.locator('[name="racks.power_budget_kw"]')
    assert budget.input_value() == "41"
    assert page.input_value("#slide-rack-kw") == "41"
    racks_before = figure_text(page, "racks")
    years_before = chart_data(page, YEARS_CHART)
    expect(page.locator("#preview .change")).to_have_count(0)

    # Rack power budget: 41 → 20 kW with the keyboard, one step per key press.
    press(page, "#slide-rack-kw", "ArrowLeft", 21)
    assert budget.input_value() == "20"
    assert page.input_value("#slide-rack-kw-value") == "20"
    assert page.get_attribute("#slide-rack-kw", "aria-valuetext") == "20 kW"
    expect(page.locator('#preview .key-figure[data-key="racks"] .value')).not_to_have_text(racks_before)
    expect(page.locator('#preview .key-figure[data-key="racks"] .change')).to_contain_text("+")
    expect(page.locator('#preview .key-figure[data-key="racks"] .change')).to_contain_text("more")
    # Each key press asks for a preview, and an earlier answer may draw first: wait for the
    # chart of the last value (more racks cost more in year 0), not for any redraw.
    wait_until(page, f"() => document.getElementById('{YEARS_CHART}').data[0].y[0] > {years_before[0][0]}")

    # GPUs: the example gives nodes, so the slider sets whole systems of 8 GPUs in Nodes.
    nodes = page.locator('[name="compute.nodes"]')
    gpus_before = figure_text(page, "gpus")
    assert nodes.input_value() == "128" and gpus_before == "1,024"
    press(page, "#slide-gpus", "ArrowRight", 3)
    new_nodes = int(nodes.input_value())
    assert new_nodes > 128
    expect(page.locator('#preview .key-figure[data-key="gpus"] .value')).to_have_text(f"{new_nodes * 8:,}")
    assert page.input_value("#slide-gpus-value") == f"{new_nodes * 8:,}"
    assert page.get_attribute("#slide-gpus", "aria-valuetext") == f"{new_nodes * 8:,} GPUs, {new_nodes} systems"
    screenshot(page, "editor-sliders-moved-1440")

    page.click("button[type=submit]:has-text('Save revision 2')")
    page.wait_for_url(f"{live_server.url}/scenarios/{saved.pk}/")
    document = Scenario.objects.get(pk=saved.pk).revisions.get(number=2).document
    assert document["racks"]["power_budget_kw"] == 20
    assert document["compute"]["nodes"] == new_nodes


def test_pue_slider_starts_at_the_modelled_pue_and_can_go_back_to_it(signed_in, live_server, saved):
    page = signed_in
    open_editor(page, f"{live_server.url}/scenarios/{saved.pk}/edit/")
    pue_field = page.locator('[name="facility.pue"]')
    assert pue_field.input_value().lower() == "auto"
    modelled = float(figure_text(page, "pue"))
    assert float(page.input_value("#slide-pue")) == pytest.approx(modelled, abs=0.01)
    expect(page.locator("#pue-use-modelled")).to_be_hidden()
    press(page, "#slide-pue", "ArrowUp", 10)
    assert float(pue_field.input_value()) == pytest.approx(modelled + 0.10, abs=0.011)
    expect(page.locator('#preview .key-figure[data-key="pue"] .change')).to_contain_text("worse")
    page.click("#pue-use-modelled")
    assert pue_field.input_value().lower() == "auto"
    expect(page.locator('#preview .key-figure[data-key="pue"] .change')).to_have_count(0)


def test_typing_in_a_field_moves_its_slider(signed_in, live_server, saved):
    page = signed_in
    open_editor(page, f"{live_server.url}/scenarios/{saved.pk}/edit/")
    page.locator("#section-facility > summary").click()
    page.fill('[name="facility.electricity_usd_per_kwh"]', "0.25")
    assert page.input_value("#slide-price") == "0.25"
    assert page.input_value("#slide-price-value") == "0.25"
    # The form's own recompute (not the slider's) also names the scenario: the change shows.
    expect(page.locator('#preview .key-figure[data-key="tco_usd"] .change')).to_contain_text("more")
    page.fill("#slide-years-value", "8")
    assert page.input_value('[name="finance.years"]') == "8"
    # Year 0 and eight years of operation: the cumulative line's nine points.
    wait_until(page, f"() => Math.max(...document.getElementById('{YEARS_CHART}').data.map(t => t.x.length)) === 9")


def test_an_error_shown_by_the_preview_clears_once_the_slider_fixes_it(signed_in, live_server, saved):
    page = signed_in
    open_editor(page, f"{live_server.url}/scenarios/{saved.pk}/edit/")
    page.fill("#slide-rack-kw-value", "6")
    errors = page.locator("#err-racks-power-budget-kw")
    expect(errors).to_contain_text("rack")
    expect(page.locator("#preview-status")).to_contain_text("the figures below are from the last input that planned")
    press(page, "#slide-rack-kw", "ArrowUp", 30)
    expect(errors).to_be_empty()
    expect(page.locator("#err-racks-power-budget-kw[role=alert]")).to_have_count(0)
    assert page.input_value('[name="racks.power_budget_kw"]') == "36"


def test_a_new_scenario_shows_no_changes(signed_in, live_server):
    page = signed_in
    open_editor(page, f"{live_server.url}/scenarios/new/")
    gpus_before = figure_text(page, "gpus")
    press(page, "#slide-gpus", "ArrowRight", 2)
    expect(page.locator('#preview .key-figure[data-key="gpus"] .value')).not_to_have_text(gpus_before)
    expect(page.locator("#preview .change")).to_have_count(0)


def test_a_drag_keeps_one_request_in_flight_and_ends_on_the_last_value(signed_in, live_server, saved):
    page = signed_in
    open_editor(page, f"{live_server.url}/scenarios/{saved.pk}/edit/")
    page.evaluate("""() => {
      window.previewLoad = {now: 0, most: 0, sent: 0, moves: 0};
      document.getElementById('slide-rack-kw').addEventListener('input', () => { window.previewLoad.moves += 1; });
      document.body.addEventListener('htmx:beforeRequest', () => {
        const load = window.previewLoad; load.now += 1; load.sent += 1; load.most = Math.max(load.most, load.now); });
      document.body.addEventListener('htmx:afterRequest', () => { window.previewLoad.now -= 1; });
    }""")
    box = page.locator("#slide-rack-kw").bounding_box()
    middle = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] * 0.25, middle)
    page.mouse.down()
    for step in range(60):
        page.mouse.move(box["x"] + box["width"] * (0.25 + step / 100), middle)
    page.mouse.up()
    budget = page.input_value('[name="racks.power_budget_kw"]')
    wait_until(page, "() => window.previewLoad.now === 0 && !document.querySelector('.htmx-request')")
    page.wait_for_timeout(300)
    load = page.evaluate("window.previewLoad")
    print(f"drag: {load['moves']} input events, {load['sent']} preview requests, at most {load['most']} in flight")
    assert load["most"] == 1, load
    assert 1 <= load["sent"] < load["moves"], load
    assert float(budget) > 60
    # The figures are those of the value the drag ended on: the same as a fresh preview of it.
    racks = figure_text(page, "racks")
    page.reload()
    wait_until(page, f"() => document.getElementById('{YEARS_CHART}').data !== undefined")
    page.fill("#slide-rack-kw-value", budget)
    expect(page.locator('#preview .key-figure[data-key="racks"] .value')).to_have_text(racks)


SAMPLES = 7


def test_the_figures_follow_each_slider_value(signed_in, live_server, saved):
    """Each value a slider takes brings the key figures of that value into the page. The time
    from the input event to the figures is printed (pytest -s), not bounded: a timed test flakes
    on a shared machine (162–237 ms median on this one)."""
    page = signed_in
    open_editor(page, f"{live_server.url}/scenarios/{saved.pk}/edit/")
    timings = []
    for step in range(SAMPLES):
        timings.append(page.evaluate(
            """(target) => new Promise((resolve) => {
              const range = document.getElementById('slide-rack-kw');
              const preview = document.getElementById('preview');
              const started = performance.now();
              const observer = new MutationObserver(() => {
                const budget = document.querySelector('[name="racks.power_budget_kw"]').value;
                if (budget === String(target) && preview.querySelector('.key-figure')) {
                  observer.disconnect();
                  requestAnimationFrame(() => resolve(performance.now() - started));
                }
              });
              observer.observe(preview, {childList: true, subtree: true});
              range.value = target;
              range.dispatchEvent(new Event('input', {bubbles: true}));
            })""",
            30 + step,
        ))
    print(f"slider to figures: median {statistics.median(timings):.0f} ms, max {max(timings):.0f} ms over {SAMPLES}")
    assert len(timings) == SAMPLES and all(timing > 0 for timing in timings)
    assert page.input_value('[name="racks.power_budget_kw"]') == str(30 + SAMPLES - 1)


@pytest.mark.parametrize("width", [1440, 390])
def test_screenshots_of_the_editor(signed_in, live_server, saved, width):
    page = signed_in
    open_editor(page, f"{live_server.url}/scenarios/{saved.pk}/edit/", width)
    press(page, "#slide-rack-kw", "ArrowLeft", 11)
    expect(page.locator('#preview .key-figure[data-key="racks"] .change')).to_be_visible()
    expect(page.locator("#recompute")).to_have_css("opacity", "0")
    screenshot(page, f"editor-{width}")
    screenshot(page, f"editor-{width}-full", full_page=True)
    charts = page.locator(".preview-charts")
    if width < 640:
        assert charts.get_attribute("open") is None, "on a phone the charts start folded"
        charts.locator("summary").click()
    chart = page.locator("#preview-chart-years")
    chart.scroll_into_view_if_needed()
    assert chart.bounding_box()["width"] > 250
    screenshot(page.locator(".preview-panel"), f"editor-panel-{width}")
    page.fill('[name="compute.nodes"]', "")
    page.fill('[name="compute.gpus"]', "1,020")
    assert page.input_value("#slide-gpus-value") == "1,020", "the GPU slider follows the GPUs field now"
    expect(page.locator(".preview-warnings li")).not_to_have_count(0)
    page.locator(".preview-warnings").scroll_into_view_if_needed()
    screenshot(page.locator(".preview-panel"), f"editor-panel-warnings-{width}")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, "the page does not scroll sideways"
