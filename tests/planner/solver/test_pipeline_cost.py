"""Cost in the whole pipeline: capex adds up from the BOM, opex from the facility's energy."""

import pytest

from core.solver.errors import ScenarioError
from planner.solver.pipeline import plan_scenario

H100 = {
    "name": "H100 cost",
    "compute": {"system": "dgx-h100", "nodes": 128},
    "fabrics": {"compute": {"switch": "qm9700"}},
    "finance": {"years": 4, "discount_rate": 0.07},
}


def test_capex_is_the_bom_plus_installation(catalog):
    plan = plan_scenario(H100, catalog)
    hardware_usd = sum(line.extended_price_usd for line in plan.bom)
    # installation 5 % of hardware by default
    assert plan.cost.capex_usd == pytest.approx(hardware_usd * 1.05)
    systems = next(line for line in plan.bom if line.category == "compute")
    assert plan.cost.capex_by_category_usd["systems"] == pytest.approx(systems.extended_price_usd)
    assert len(plan.cost.opex_usd_by_year) == 4


def test_energy_opex_is_the_facility_energy_at_the_price(catalog):
    plan = plan_scenario({**H100, "facility": {"electricity_usd_per_kwh": 0.10}}, catalog)
    expected_usd = plan.power.annual_energy_mwh * 1000 * 0.10
    assert plan.cost.opex_by_category_usd_per_year["energy"] == pytest.approx(expected_usd)


def test_goodput_gives_the_useful_gpu_hour(catalog):
    plan = plan_scenario({**H100, "reliability": {}}, catalog)
    assert plan.cost.usd_per_useful_gpu_hour == pytest.approx(
        plan.cost.usd_per_gpu_hour / plan.reliability.goodput)


def test_a_built_facility_adds_construction_to_capex(catalog):
    plan = plan_scenario({**H100, "finance": {"facility": "built", "build_usd_per_mw": 10e6}}, catalog)
    # IT kW / 1,000 x 10 M USD per MW
    assert plan.cost.capex_by_category_usd["facility"] == pytest.approx(plan.power.it_kw / 1000 * 10e6)
    assert plan.cost.opex_by_category_usd_per_year["colocation"] == 0


def test_every_part_on_the_bom_has_a_source(catalog):
    plan = plan_scenario(H100, catalog)
    # one source per part; a cable bought in several stock lengths has one
    assert [source.sku for source in plan.sources] == list(dict.fromkeys(line.sku for line in plan.bom))
    assert all(source.source_url and source.confidence for source in plan.sources)


@pytest.mark.parametrize(
    ("finance", "path", "message"),
    [
        ({"discount_rate": -1}, "finance.discount_rate", "must be a number greater than -1"),
        ({"years": 0}, "finance.years", "must be a positive whole number"),
        ({"maintenance_share_per_year": "ten"}, "finance.maintenance_share_per_year", "must be a number, zero or more"),
        ({"colocation_usd_per_kw_month": -5}, "finance.colocation_usd_per_kw_month", "must be a number, zero or more"),
        ({"facility": "owned"}, "finance.facility", "must be one of: leased, built"),
        ({"spares_percent": {"optics": 101}}, "finance.spares_percent.optics", "must be at most 100 %"),
    ],
)
def test_bad_finance_input_is_named(catalog, finance, path, message):
    with pytest.raises(ScenarioError) as caught:
        plan_scenario({**H100, "finance": finance}, catalog)
    assert caught.value.as_dict() == {path: [message]}


def test_a_negative_quote_is_refused(catalog):
    with pytest.raises(ScenarioError) as caught:
        plan_scenario({**H100, "prices": {"qm9700": -1}}, catalog)
    assert caught.value.as_dict() == {"prices.qm9700": ["must be a number, zero or more"]}


GB200_LIQUID = {
    "name": "GB200 liquid",
    "compute": {"system": "gb200-nvl72", "nodes": 16},
    "racks": {"power_budget_kw": 140, "cooling": "direct_liquid"},
    "facility": {"cooling_redundancy": "2N", "climate": "cool"},
}


@pytest.mark.parametrize(("mode", "payer"), [("leased", "colocation fee"), ("built", "construction cost per MW")])
def test_cooling_capex_buys_only_what_the_facility_does_not_already_pay_for(catalog, mode, payer):
    """16 GB200 NVL72 racks x 132 kW, 80 % to liquid: 1,689.6 kW of warm water.

    - CDUs (the racks' own cooling, bought in both modes): one 2.3 MW CDU, 2N = 2 x 350,000 =
      700,000 USD, the whole cooling capex;
    - CRAHs, chillers and dry coolers are the building's: the colocation fee (leased) or the
      construction cost per MW (built) pays for them. Before, the BOM bought them again:
      6 CRAH x 70,000 + 2 chillers x 400,000 + 4 dry coolers x 150,000 = 1,820,000 USD more.
    """
    plan = plan_scenario({**GB200_LIQUID, "finance": {"facility": mode}}, catalog)
    cooling_lines = {line.sku: line.quantity for line in plan.bom if line.category == "cooling"}
    assert cooling_lines == {"cdu-inrow-2300": 2}
    assert plan.cost.capex_by_category_usd["cooling"] == pytest.approx(2 * 350_000)
    kinds = {unit.unit: unit.kind for unit in plan.power.cooling.units}
    assert {kind for slug, kind in kinds.items() if plan.cost.cooling_paid_by[slug] == payer} == {
        "crah", "chiller", "dry_cooler"}
    assert plan.cost.cooling_paid_by["cdu-inrow-2300"] == "bill of materials"
    assert f"already paid by the {payer}" in plan.cost.cooling_note
    assert "cdu-inrow-2300" in plan.cost.cooling_note.split("Not bought")[0]


def test_an_air_cooled_hall_buys_no_cooling_units(catalog):
    # Air: CRAHs and chillers only, both the building's: no cooling line, no cooling capex.
    plan = plan_scenario(H100, catalog)
    assert [line for line in plan.bom if line.category == "cooling"] == []
    assert "cooling" not in plan.cost.capex_by_category_usd
    assert set(plan.cost.cooling_paid_by.values()) == {"colocation fee"}
