"""The plan page in Chromium: the lead on one screen, folded sections opened by their links,
numbers that never wrap, and no raw keys or slugs in what it shows."""

import re
from pathlib import Path

import pytest
import yaml

expect = pytest.importorskip("playwright.sync_api").expect

from catalog.rows import catalog_snapshot
from planner.services import scenario_create
from tests.browser.test_accessibility import axe_violations

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLE = yaml.safe_load((Path(__file__).parents[2] / "examples" / "dgx-h100-4su.yaml").read_text())
WIDTHS = (1440, 390)

OPEN_ALL = "() => document.querySelectorAll('details').forEach(details => { details.open = true; })"
WRAPPED_VALUES = """() => [...document.querySelectorAll('.value')].filter(element => {
  const range = document.createRange();
  range.selectNodeContents(element);
  const lines = new Set([...range.getClientRects()].filter(rect => rect.width > 0)
    .map(rect => Math.round(rect.top)));
  return lines.size > 1;
}).map(element => element.textContent.trim())"""
VALUE_COUNT = "() => document.querySelectorAll('.value').length"
SHOWN_TEXT = """() => {
  // Text a reader sees: not code, not tooltips' owners, not the figures, not web addresses.
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  const texts = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent.closest('code, script, [title], .js-plotly-plot, a[rel=noreferrer]')) continue;
    if (!parent.getClientRects().length) continue;
    texts.push(node.textContent);
  }
  return texts.join(' ');
}"""
BROKEN_NUMBER = """() => {
  const probe = document.createElement('span');
  probe.className = 'value';
  probe.style.cssText = 'display:inline-block;width:3ch;word-break:break-all';
  probe.textContent = '74,992,229';
  document.querySelector('main').append(probe);
}"""


@pytest.fixture
def plan_page(signed_in, live_server, architect):
    scenario = scenario_create(owner=architect, document=dict(EXAMPLE))
    return signed_in, f"{live_server.url}/scenarios/{scenario.pk}/"


def test_the_lead_fits_one_screen_and_the_sections_are_folded(plan_page):
    page, url = plan_page
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(url)
    for key in ("gpus", "racks", "it_mw", "capex_usd", "usd_per_gpu_hour", "switches"):
        box = page.locator(f'.lead-tile[data-key="{key}"]').bounding_box()
        assert box["y"] + box["height"] <= 900, f"the {key} tile is on the first screen"
    assert page.locator(".lead-warnings").bounding_box()["y"] < 900
    page.locator(".thumb-plot .main-svg").first.wait_for()
    assert page.locator(".thumb-plot.js-plotly-plot").count() == 2
    assert page.locator("details.plan-section[open]").count() == 0


def test_a_link_to_a_section_opens_and_shows_it(plan_page):
    page, url = plan_page
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(url)
    racks = page.locator("details#plan-racks")
    expect(racks).not_to_have_attribute("open", "")
    page.click('.lead-tile[data-key="racks"] dt a')
    expect(racks).to_have_attribute("open", "")
    expect(racks.locator("> summary")).to_be_in_viewport()
    racks.locator(".js-plotly-plot").first.wait_for()  # its figures drawn once it opened
    page.goto(f"{url}#plan-fabrics-compute")
    expect(page.locator("details#plan-fabrics")).to_have_attribute("open", "")
    expect(page.locator("#plan-fabrics-compute h3")).to_be_in_viewport()
    page.goto(f"{url}#power")  # a section's short name opens it too
    expect(page.locator("details#plan-power")).to_have_attribute("open", "")
    expect(page.locator("details#plan-power > summary")).to_be_in_viewport()


@pytest.mark.parametrize("width", WIDTHS)
def test_no_number_breaks_across_lines(plan_page, width):
    page, url = plan_page
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(url)
    page.evaluate(OPEN_ALL)
    page.locator("#plan-racks .js-plotly-plot").first.wait_for()
    assert page.evaluate(VALUE_COUNT) > 100
    assert page.evaluate(WRAPPED_VALUES) == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width, "no sideways page"
    page.evaluate(BROKEN_NUMBER)
    assert page.evaluate(WRAPPED_VALUES) == ["74,992,229"], "the check sees a broken number"


def test_the_page_shows_no_raw_keys_or_slugs(plan_page):
    page, url = plan_page
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(url)
    page.evaluate(OPEN_ALL)
    text = page.evaluate(SHOWN_TEXT)
    assert "NVIDIA DGX H100" in text and "Fat tree" in text
    assert re.findall(r"\b[a-z]+_[a-z]+\b", text) == []
    slugs = {slug for parts in vars(catalog_snapshot()).values() for slug in parts}
    shown = {slug for slug in slugs if re.search(rf"(?<![\w-]){re.escape(slug)}(?![\w-])", text)}
    assert shown == set()
    for raw in ("Dragonfly", "Warnings none", "Optics power kW by device"):
        assert raw not in text


def test_a_warnings_section_link_opens_its_section(signed_in, live_server, architect):
    heavy_floor = {
        **EXAMPLE,
        "facility": {**EXAMPLE["facility"], "floor_load_limit_kg_per_m2": 500},
    }
    scenario = scenario_create(owner=architect, document=heavy_floor)
    page = signed_in
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/scenarios/{scenario.pk}/")
    link = page.locator(".lead-warnings a.section-link").first
    target = link.get_attribute("href")
    section = page.locator(f"details{target}")
    expect(section).not_to_have_attribute("open", "")
    link.click()
    expect(section).to_have_attribute("open", "")
    expect(section.locator("> summary")).to_be_in_viewport()
    assert "Floor load limit (kg/m²)" in link.locator("xpath=..").inner_text(), (
        "a field by its words"
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_the_open_sections_have_no_serious_accessibility_violation(plan_page, width):
    page, url = plan_page
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(url)
    page.evaluate(OPEN_ALL)
    page.locator("#plan-fabrics .js-plotly-plot").first.wait_for()
    violations = axe_violations(page)
    assert not violations, "\n".join(violations)
