"""Facility: PUE, UPS and generators for N, N+1 and 2N, and a year of energy, by hand."""

import pytest

from power.solver.cooling_plant import CoolingPlantResult
from power.solver.facility import (
    annual_energy_kwh,
    backup_power,
    carbon_t_co2,
    pue_from_energy,
    size_facility,
    ups_loss_kw,
    water_m3,
)
from power.solver.specs import FacilitySpec


def plant(cooling_kw=200.0, ups_backed_kw=0.0) -> CoolingPlantResult:
    return CoolingPlantResult(
        liquid_kw=0.0, air_kw=1_000.0, chilled_water_kw=1_000.0, warm_water_kw=0.0, heat_rejection_kw=1_000.0,
        redundancy="N+1", chiller_share={"chilled": 0.5, "warm": 0.05}, compressor_kw_per_kw=0.3, units=(),
        cooling_kw=cooling_kw, ups_backed_kw=ups_backed_kw,
    )


def test_uptime_average_pue():
    """PUE = facility energy / IT energy; Uptime Institute's 2023 average 1.58."""
    assert pue_from_energy(1_580, 1_000) == pytest.approx(1.58)


@pytest.mark.parametrize(("redundancy", "units", "installed_kw"), [
    # 1,305.6 kW on 500 kW modules: ceil(2.61) = 3 needed
    ("N", 3, 1_500), ("N+1", 4, 2_000), ("2N", 6, 3_000),
])
def test_ups_sizing(redundancy, units, installed_kw):
    ups = backup_power(1_305.6, 500, redundancy)
    assert (ups.needed, ups.units, ups.installed_kw) == (3, units, installed_kw)


def test_loss_model_by_hand():
    result = size_facility({"compute": 1_000.0}, plant(), FacilitySpec())
    # UPS at 95 %: 1,000 x (1 / 0.95 - 1) = 52.63 kW; distribution 2 % of (1,000 + 200) = 24 kW;
    # other 2 % of 1,000 = 20 kW; facility 1,000 + 200 + 52.63 + 24 + 20 = 1,296.63 kW
    assert ups_loss_kw(1_000, 0.95) == pytest.approx(52.6316, abs=1e-4)
    assert result.facility_kw == pytest.approx(1_296.6316, abs=1e-4)
    assert (result.pue, result.pue_source) == (pytest.approx(1.2966316, abs=1e-6), "modelled")
    assert sum(result.overhead_kw_by_category.values()) == pytest.approx(result.facility_kw - result.it_kw)
    assert result.loss_model.assumptions["ups_efficiency"] == 0.95
    # UPS N+1 on 1 MW modules for 1,000 kW: 1 + 1 = 2; generators N+1 on 2.5 MW for 1,296.6 kW: 2
    assert (result.ups.units, result.generators.units) == (2, 2)


def test_liquid_pumps_ride_on_the_ups():
    result = size_facility({"compute": 1_000.0}, plant(ups_backed_kw=30.0), FacilitySpec(ups_module_kw=515))
    # critical load 1,030 kW on 515 kW modules: 2 needed, N+1 = 3
    assert (result.ups.load_kw, result.ups.needed, result.ups.units) == (1_030.0, 2, 3)


def test_a_given_pue_replaces_the_model():
    result = size_facility({"compute": 800.0, "network": 200.0}, plant(), FacilitySpec(pue=1.4))
    assert (result.facility_kw, result.pue_source) == (pytest.approx(1_400.0), "given")
    assert sum(result.overhead_kw_by_category.values()) == pytest.approx(400.0)
    # shared out in the model's proportions: cooling 200 of 296.63 modelled kW
    assert result.overhead_kw_by_category["cooling"] == pytest.approx(400 * 200 / 296.6316, rel=1e-5)


def test_a_year_of_energy_cost_carbon_and_water():
    facility = FacilitySpec(pue=1.25, average_load=0.75, electricity_usd_per_kwh=0.08, grid_gco2_per_kwh=481,
                            wue_l_per_kwh=1.8)
    result = size_facility({"compute": 1_000.0}, plant(), facility)
    # IT: 1,000 kW x 0.75 x 8,760 h = 6,570,000 kWh; facility x 1.25 = 8,212,500 kWh
    assert annual_energy_kwh(1_000, 0.75) == pytest.approx(6_570_000)
    assert result.annual_it_energy_mwh == pytest.approx(6_570)
    assert result.annual_energy_mwh == pytest.approx(8_212.5)
    assert result.annual_energy_cost_usd == pytest.approx(8_212_500 * 0.08)  # 657,000 USD
    assert result.annual_carbon_t_co2 == pytest.approx(8_212_500 * 481 / 1e6)  # 3,950.2 t
    assert carbon_t_co2(1_000, 500) == pytest.approx(0.5)
    # WUE is per kWh of IT energy: 6,570,000 x 1.8 L = 11,826 m3
    assert result.annual_water_m3 == pytest.approx(11_826)
    assert water_m3(1_000, 2.0) == pytest.approx(2.0)


def test_wue_auto_depends_on_cooling_towers():
    assert size_facility({"compute": 100.0}, plant(), FacilitySpec()).wue_l_per_kwh == pytest.approx(0.2)
