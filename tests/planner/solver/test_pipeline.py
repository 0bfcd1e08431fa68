"""The whole pipeline on published cases; steps not built are left out of the plan."""

import pytest

from core.solver.errors import InfeasibleError, ScenarioError
from planner.solver.pipeline import plan_scenario

NVIDIA_RA_H100_4SU = {
    "name": "DGX SuperPOD H100, 4 SU",
    "compute": {"system": "dgx-h100", "nodes": 128},
    "racks": {"power_budget_kw": 41},
    "fabrics": {"compute": {"switch": "qm9700", "tiers": 2}},
}


def test_nvidia_ra_h100_four_units_compute_and_racks(catalog):
    plan = plan_scenario(NVIDIA_RA_H100_4SU, catalog).to_dict()
    assert plan["compute"]["gpus"] == 1024
    assert plan["compute"]["it_kw"] == pytest.approx(1305.6)
    assert plan["racks"]["compute"] == 32
    assert plan["racks"]["nodes_per_rack"] == 4
    assert plan["warnings"] == []


def test_sections_not_computed_are_absent(catalog):
    plan = plan_scenario(NVIDIA_RA_H100_4SU, catalog).to_dict()
    assert set(plan) == {"name", "compute", "racks", "fabrics", "power", "cost", "bom", "warnings", "sources", "inputs"}
    assert not {"workload", "storage", "reliability"} & set(plan)


def test_bad_document_raises_scenario_error(catalog):
    with pytest.raises(ScenarioError) as caught:
        plan_scenario({"name": "x", "compute": {"system": "nope", "gpus": 8}}, catalog)
    assert not isinstance(caught.value, InfeasibleError)
    assert list(caught.value.as_dict()) == ["compute.system"]


def test_infeasible_design_raises_infeasible_error(catalog):
    document = {**NVIDIA_RA_H100_4SU, "racks": {"power_budget_kw": 5}}
    with pytest.raises(InfeasibleError):
        plan_scenario(document, catalog)


def test_an_inline_system_plans_like_a_catalog_one(catalog):
    document = {
        "name": "inline",
        "compute": {"system": "host-1g", "gpus": 100},
        "racks": {"power_budget_kw": 10},
        "components": {"systems": [{
            "slug": "host-1g", "name": "1 GbE host", "gpus": 1, "power_kw": 0.3, "rack_units": 1,
            "weight_kg": 15, "price_usd": 4000, "nics": [{"role": "compute", "count": 1, "gbps": 1}],
        }]},
    }
    plan = plan_scenario(document, catalog)
    # 10 kW / 0.3 kW = 33 per rack; 42 U / 1 U = 42; so 33 per rack and ceil(100 / 33) = 4 racks
    assert (plan.racks.nodes_per_rack, plan.racks.compute) == (33, 4)
    assert plan.compute.it_kw == pytest.approx(30.0)


def test_bom_prices_systems_from_the_catalog_or_a_quote(catalog):
    list_price = catalog.systems["dgx-h100"].price_usd
    [line] = [line for line in plan_scenario(NVIDIA_RA_H100_4SU, catalog).bom if line.category == "compute"]
    assert (line.category, line.sku, line.quantity, line.price_source) == ("compute", "dgx-h100", 128, "catalog")
    assert line.extended_price_usd == pytest.approx(128 * list_price)
    quoted = plan_scenario({**NVIDIA_RA_H100_4SU, "prices": {"dgx-h100": 250_000}}, catalog)
    [line] = [line for line in quoted.bom if line.category == "compute"]
    assert (line.unit_price_usd, line.extended_price_usd, line.price_source) == (250_000, 32_000_000, "quote")
