"""Cost of ownership against hand calculations written out here."""

import pytest

from planner.solver.bom import BomLine
from planner.solver.scenario import FinanceSpec
from planner.solver.tco import (
    colocation_usd_per_year,
    cost_of_ownership,
    escalated_usd_by_year,
    facility_build_usd,
    present_value_usd,
)


def line(category, extended_usd):
    return BomLine(category=category, sku=category, description=category, quantity=1, spares=0,
                   unit_price_usd=extended_usd, extended_price_usd=extended_usd, price_source="catalog")


BOM = (line("compute", 8_000_000.0), line("network", 1_000_000.0), line("optics", 300_000.0),
       line("cables", 100_000.0), line("racks", 100_000.0), line("power", 50_000.0),
       line("cooling", 450_000.0))


def test_present_value_discounts_each_year():
    # 100 now + 110 in a year + 121 in two years at 10 %: 100 + 100 + 100 = 300
    assert present_value_usd((100, 110, 121), 0.10) == pytest.approx(300)


def test_escalation_compounds_from_the_first_year():
    assert escalated_usd_by_year(100, 0.10, 3) == pytest.approx((100, 110, 121))


def test_facility_built_and_leased():
    # 2,000 kW = 2 MW x 11.7 M USD/MW = 23.4 M USD
    assert facility_build_usd(2_000, 11.7e6) == pytest.approx(23.4e6)
    # 2,000 kW x 184.06 USD/kW-month x 12 = 4,417,440 USD/year
    assert colocation_usd_per_year(2_000, 184.06) == pytest.approx(4_417_440)


def test_leased_cluster_hand_calculation():
    finance = FinanceSpec(years=2, discount_rate=0.10, facility="leased", colocation_usd_per_kw_month=100,
                          installation_share=0.05, maintenance_share_per_year=0.10,
                          staff_per_1000_gpus=2.0, staff_usd_per_year_each=150_000,
                          software_usd_per_gpu_per_year=1_000, escalation_per_year=0.10)
    cost = cost_of_ownership(bom=BOM, finance=finance, gpus=512, it_kw=1_000,
                             annual_energy_kwh=10_000_000, electricity_usd_per_kwh=0.08,
                             goodput=0.9, dense_tflops_per_gpu=1_000)
    assert cost.bom_total_usd == pytest.approx(10e6)
    assert cost.bom_usd_by_category["optics"] == pytest.approx(3e5)
    # hardware 10,000,000; installation 5 % = 500,000; capex 10,500,000
    assert cost.capex_by_category_usd == pytest.approx({
        "systems": 8e6, "network": 1e6, "optics_and_cables": 4e5, "racks_and_power": 1.5e5,
        "cooling": 4.5e5, "installation": 5e5})
    assert cost.capex_usd == pytest.approx(10.5e6)
    # energy 10 GWh x 0.08 = 800,000; maintenance 10 % of 10 M = 1,000,000;
    # colocation 1,000 kW x 100 x 12 = 1,200,000; staff 0.512 x 2 x 150,000 = 153,600;
    # software 512 x 1,000 = 512,000; first year 3,665,600
    assert cost.opex_by_category_usd_per_year == pytest.approx({
        "energy": 8e5, "maintenance": 1e6, "colocation": 1.2e6, "staff": 153_600, "software": 512_000})
    assert cost.opex_usd_by_year == pytest.approx((3_665_600, 4_032_160))
    # TCO 10,500,000 + 3,665,600 + 4,032,160 = 18,197,760
    assert cost.tco_usd == pytest.approx(18_197_760)
    # NPV 10,500,000 + 3,665,600 / 1.1 + 4,032,160 / 1.21 = 10,500,000 + 3,332,363.6 + 3,332,363.6
    assert cost.tco_present_value_usd == pytest.approx(17_164_727.27, abs=0.01)
    # GPU-hours 512 x 8,760 x 2 = 8,970,240; 18,197,760 / 8,970,240 = 2.02870 USD
    assert cost.usd_per_gpu_hour == pytest.approx(2.028686, rel=1e-5)
    assert cost.usd_per_useful_gpu_hour == pytest.approx(2.028686 / 0.9, rel=1e-5)
    # 1,000 dense TFLOPS = 1 PFLOP/s per GPU: the same per PFLOP-hour
    assert cost.usd_per_pflop_hour == pytest.approx(2.028686, rel=1e-5)


def test_built_facility_is_capex_and_has_no_colocation():
    finance = FinanceSpec(facility="built", build_usd_per_mw=10e6, installation_share=0)
    cost = cost_of_ownership(bom=BOM, finance=finance, gpus=512, it_kw=1_500,
                             annual_energy_kwh=0, electricity_usd_per_kwh=0.08)
    assert cost.capex_by_category_usd["facility"] == pytest.approx(15e6)
    assert cost.opex_by_category_usd_per_year["colocation"] == 0
    assert cost.usd_per_useful_gpu_hour is None and cost.usd_per_pflop_hour is None
