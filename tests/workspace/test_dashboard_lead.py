"""The plan page's lead screen and the plan's values in words (workspace.dashboard.lead,
workspace.dashboard.plan_text)."""

import re
from pathlib import Path

import pytest
import yaml
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape

from planner.services import scenario_create
from planner.solver.pipeline import plan_scenario
from planner.solver.warning_groups import SEVERITY_ORDER
from workspace.dashboard.lead import lead_screen
from workspace.dashboard.plan_text import Shown, short_name, with_part_names
from workspace.dashboard.sections import (
    attach_charts,
    part_names,
    plan_figures,
    plan_sections,
    warning_lines,
)

EXAMPLE = yaml.safe_load((Path(__file__).parents[2] / "examples" / "dgx-h100-4su.yaml").read_text())
RAW_KEY = re.compile(r"\b[a-z]+_[a-z]+\b")


def plain(text: str) -> str:
    """Text with its non-breaking spaces and hyphens as plain ones."""
    return text.replace("\u00a0", " ").replace("\u2011", "-")


@pytest.fixture
def plan(catalog):
    return plan_scenario(EXAMPLE, catalog)


def lead_of(plan, catalog, warnings=None):
    charts = plan_figures(plan)
    sections = plan_sections(plan)
    attach_charts(sections, charts)
    names = part_names(catalog, plan)
    lines = warning_lines(plan.warnings if warnings is None else warnings, sections, names)
    return lead_screen(plan, lines, charts, names)


def test_the_lead_answers_the_architects_questions_for_the_example(plan, catalog):
    lead = lead_of(plan, catalog)
    tiles = {tile.figure.key: tile for tile in lead.tiles}
    assert list(tiles) == [
        "gpus",
        "racks",
        "it_mw",
        "capex_usd",
        "tco_usd",
        "usd_per_gpu_hour",
        "switches",
    ]

    compute = plan.compute
    system = catalog.systems[compute.system]
    assert tiles["gpus"].figure.text == f"{compute.gpus:,}"
    assert tiles["gpus"].lines == (f"{compute.total_nodes:,} × {short_name(system.name)}",)
    assert compute.system in tiles["gpus"].title, "the slug stays in the tooltip"

    racks = plan.racks
    assert tiles["racks"].figure.text == f"{racks.total:,}"
    where, made_of = map(plain, tiles["racks"].lines)
    assert where == f"{racks.rows} rows · {racks.floor.area_m2:,.0f} m²"
    counts = {}
    for rack in racks.per_rack:
        counts[rack.kind] = counts.get(rack.kind, 0) + rack.count
    assert made_of == " · ".join(f"{count} {kind}" for kind, count in counts.items())

    fabric = plan.fabrics["compute"]
    switch = short_name(catalog.switches[fabric.switch].name)
    tiers = " + ".join(f"{tier.switches} {tier.role}" for tier in fabric.tiers)
    shape = f"Fat tree, {len(fabric.tiers)} tiers"
    assert plain(tiles["switches"].lines[0]) == (
        f"Compute: {shape}: {tiers} {switch} ({fabric.rails} rails, leaf 1:1)"
    )
    assert tiles["switches"].figure.value == sum(tier.switches for tier in fabric.tiers)

    power = plan.power
    assert tiles["it_mw"].figure.text == f"{power.it_kw / 1000:.2f}"
    assert plain(tiles["it_mw"].lines[0]) == (
        f"{power.facility_kw / 1000:.2f} MW facility · PUE {power.pue:.2f}"
    )
    cost = plan.cost
    assert tiles["capex_usd"].figure.text == f"{cost.capex_usd / 1e6:.1f} M"
    assert tiles["tco_usd"].figure.text == f"{cost.tco_usd / 1e6:.1f} M"
    assert tiles["usd_per_gpu_hour"].figure.text == f"{cost.usd_per_gpu_hour:.2f}"
    assert plain(tiles["capex_usd"].lines[0]) == (
        f"{cost.capex_usd / compute.gpus:,.0f} USD per GPU"
    )
    assert [picture.chart_id for picture in lead.pictures] == [
        "chart-racks-floor",
        "chart-bom-cost",
    ]
    assert lead.warnings == [] and lead.more_warnings == 0


WARNINGS = [
    "Spine 3 leaves ports free.",
    "The link of 12 m runs long.",
    "The link of 14 m runs long.",
    "The job is small.",
    "The leaf-spine links have no transceiver for 30 m.",
    "Rack 7 weighs 1,300 kg.",
]


def test_the_lead_shows_the_three_most_serious_warnings_and_links_the_rest(plan, catalog):
    lead = lead_of(plan, catalog, WARNINGS)
    severities = [line.group.severity for line in lead.warnings]
    assert len(lead.warnings) == 3
    assert severities == sorted(severities, key=SEVERITY_ORDER.index)
    assert severities[0] == "critical" and "no transceiver" in lead.warnings[0].text
    assert lead.warnings[1].group.count == 2, "of the same severity, the larger group first"
    assert "Spine" not in " ".join(line.text for line in lead.warnings), "a notice waits"
    kinds = len({re.sub(r"[\d,]+", "#", warning) for warning in WARNINGS})
    assert lead.more_warnings == kinds - 3
    html = render_to_string(
        "planner/inc/plan_lead.html", {"lead": lead, "warning_count": len(WARNINGS)}
    )
    assert f'<a href="#plan-warnings">and {kinds - 3} more kinds of warning' in html
    assert 'href="#plan-fabrics"' in html, "the critical one links to its section"


def _visible_texts(sections):
    for section in sections:
        yield section.title
        for name, value in section.facts:
            yield name
            yield value
        yield from section.notes
        for table in section.tables:
            yield from (heading for heading, _ in table.columns)
            yield from (cell for row in table.rows for cell, _, link, *_ in row if not link)
        yield from _visible_texts(section.subsections)


def test_the_plans_facts_and_tables_are_in_words_with_parts_by_name(plan, catalog):
    sections = plan_sections(plan)
    texts = [text for text in _visible_texts(sections) if not getattr(text, "code", False)]
    slugs = {slug for parts in vars(catalog).values() for slug in parts}
    assert not [text for text in texts if RAW_KEY.search(text)]
    assert not [text for text in texts if text in slugs]
    assert not [text for text in texts if text in {"compute", "network", "fiber", "air", "leased"}]
    racks = next(section for section in sections if section.key == "racks")
    per_rack = next(table for table in racks.tables if table.title == "Per rack")
    kinds = [row[0][0] for row in per_rack.rows]
    assert kinds == [rack.kind.capitalize() for rack in plan.racks.per_rack]
    rack_type = per_rack.rows[0][[heading for heading, _ in per_rack.columns].index("Rack type")][0]
    slug = plan.racks.per_rack[0].rack_type
    assert rack_type == short_name(catalog.rack_types[slug].name) and slug in rack_type.slug
    fabric = next(section for section in sections if section.key == "fabrics").subsections[0]
    links = next(table for table in fabric.tables if table.title == "Links")
    headings = [heading for heading, _ in links.columns]
    assert links.rows[0][headings.index("Segment")][0] == "Node → leaf"
    assert links.rows[0][headings.index("Media")][0] == "Fiber"
    fact_names = [name for name, _ in fabric.facts]
    assert "Dragonfly" not in fact_names and "Warnings" not in fact_names, (
        "empty facts are left out"
    )
    assert "Optics power by device (kW): NVIDIA Quantum-2 QM9700" in fact_names
    bom = next(section for section in sections if section.key == "bom")
    table = bom.tables[0]
    sku = table.rows[0][[heading for heading, _ in table.columns].index("SKU")][0]
    assert isinstance(sku, Shown) and sku.code and sku == plan.bom[0].sku, (
        "the BOM keeps SKUs"
    )


def test_numbers_are_values_that_keep_to_one_line_and_prose_wraps(plan, catalog):
    sections = plan_sections(plan)
    facts = [fact for section in sections for fact in section.facts]
    html = render_to_string("planner/inc/plan_section_body.html", {"view": sections[0]})
    assert '<dd class="value">1,024</dd>' in html
    cost = next(section for section in sections if section.key == "cost")
    note = next(fact for fact in cost.facts if fact.name == "Cooling note")
    assert note.long and not any(
        fact.long for fact in facts if re.fullmatch(r"[\d,.]+", fact.value)
    )


def test_the_plan_page_leads_with_the_lead_and_folds_each_section(client, django_user_model):
    ada = django_user_model.objects.create_user("ada", password="x")
    client.force_login(ada)
    scenario = scenario_create(owner=ada, document=dict(EXAMPLE))
    response = client.get(reverse("workspace:scenario-detail", args=[scenario.pk]))
    html = response.content.decode()
    lead = response.context["lead"]
    assert html.index('class="lead"') < html.index('class="plan-section"')
    for section in response.context["sections"]:
        assert f'<details class="plan-section" id="{section.anchor}">' in html
    assert f'data-figure="{lead.pictures[0].chart_id}"' in html
    assert f'title="{escape(lead.tiles[0].title)}"' in html


def test_prose_names_parts_and_fields_in_words_but_leaves_addresses(catalog):
    names = part_names(catalog)
    text = (
        "12 crah-200 units (racks.power_budget_kw) per https://example.com/crah-200 and nvidia.com"
    )
    assert with_part_names(text, names) == (
        f"12 {short_name(catalog.cooling_units['crah-200'].name)} units (Racks › Power budget (kW))"
        " per https://example.com/crah-200 and nvidia.com"
    )


def test_a_site_of_pools_leads_with_each_pools_systems_and_fabric(catalog):
    site = yaml.safe_load((Path(__file__).parents[2] / "examples" / "training-and-inference-site.yaml").read_text())
    plan = plan_scenario(site, catalog)
    names = part_names(catalog, plan)
    tiles = {tile.figure.key: tile for tile in lead_screen(plan, [], {}, names).tiles}
    # 1,024 H100 in DGX H100 of 8: 128 systems; the serving pool's load sizes 5 DGX H200 (33 GPUs at
    # H200's interactive point, tests/planner/solver/test_site.py).
    assert [plain(line) for line in tiles["gpus"].lines] == [
        "128 × NVIDIA DGX H100 (training)", "5 × NVIDIA DGX H200 (serving)"]
    fabrics = [plain(line).split(":")[0] for line in tiles["switches"].lines[:-1]]
    assert fabrics == ["Compute (training)", "Compute (serving)", "Storage", "OOB"]
    assert [section.title for section in plan_sections(plan)][:2] == ["Compute", "Pools"]


def test_an_inference_plan_shows_its_cost_per_million_tokens_beside_the_gpu_hour(catalog):
    document = yaml.safe_load((Path(__file__).parents[2] / "examples" / "llama-70b-inference.yaml").read_text())
    plan = plan_scenario(document, catalog)
    charts = plan_figures(plan)
    sections = plan_sections(plan)
    attach_charts(sections, charts)
    names = part_names(catalog, plan)
    lead = lead_screen(plan, warning_lines(plan.warnings, sections, names), charts, names)
    keys = [tile.figure.key for tile in lead.tiles]
    assert keys.index("usd_per_million_output_tokens") == keys.index("usd_per_gpu_hour") + 1
    tile = lead.tiles[keys.index("usd_per_million_output_tokens")]
    assert tile.figure.value == plan.cost.usd_per_million_output_tokens == plan.inference.usd_per_million_output_tokens
    assert tile.figure.text == f"{plan.cost.usd_per_million_output_tokens:.2f}"
    assert tile.lines == ("The inference pools' share of the TCO over the output tokens they serve in 5 years",)


def test_an_inference_pools_figures_read_as_words_and_a_long_slug_takes_its_row():
    from workspace.dashboard.sections import describe

    view = describe("pools.serving.inference", {
        "name": "", "operating_point": "h200-llama2-70b-interactive-v5.0", "usable_memory_gb_per_gpu": 126.9,
        "required_output_tokens_per_s": 80000, "time_per_output_token_floor_ms": 14.58, "gpus_needed": 33,
    }, "Inference", 1)
    facts = {fact.name: fact for fact in view.facts}
    assert "Name" not in facts, "an empty value is left out"
    assert {"Usable memory per GPU (GB)", "Output tokens needed per second", "Time per output token, floor (ms)"} <= set(facts)
    assert facts["Operating point"].long and not facts["GPUs needed"].long
