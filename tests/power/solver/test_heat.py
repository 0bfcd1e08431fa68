"""Heat, air flow and water flow against the published figures (published-cases.md, "Power and heat")."""

import numpy as np
import pytest

from power.solver.heat import (
    air_flow_cfm,
    air_flow_m3_per_h,
    delta_t_f_from_k,
    heat_btu_per_h,
    rack_heat_btu_per_h,
    water_flow_l_per_min,
)


def test_one_watt_is_3_412_btu_per_hour():
    assert heat_btu_per_h(1) == pytest.approx(3.412)
    # A full DGX H100 SuperPOD rack: 4 x 10.2 kW = 40.8 kW -> 40,800 x 3.412 = 139,209.6 BTU/h
    assert rack_heat_btu_per_h(40.8) == pytest.approx(139_209.6)


def test_insidehpc_dgx_h100_at_20_f_needs_about_1612_cfm():
    """CFM = 3.16 x W / dT_F: 3.16 x 10,200 / 20 = 1,611.6, "about 1,612"."""
    assert air_flow_cfm(10_200, 20) == pytest.approx(1_612, rel=1e-3)
    assert air_flow_cfm(10_200, 20) / (10_200 / 20) == pytest.approx(3.16, rel=1e-3)


@pytest.mark.parametrize(("delta_t_f", "cfm_per_kw"), [(20, 158), (25, 126), (30, 105)])
def test_cfm_per_kw_table(delta_t_f, cfm_per_kw):
    """component-facts 6.3: 158 CFM per kW at 20 F, 126 at 25 F, 105 at 30 F."""
    assert air_flow_cfm(1_000, delta_t_f) == pytest.approx(cfm_per_kw, abs=0.6)


@pytest.mark.parametrize(("delta_t_k", "m3_per_h_per_kw"), [(10, 299), (12, 249), (15, 199)])
def test_metric_air_flow_table(delta_t_k, m3_per_h_per_kw):
    """component-facts 6.3: V = 2.98 x W / dT_K -> 299 m3/h per kW at 10 K, 249 at 12 K, 199 at 15 K."""
    assert air_flow_m3_per_h(1_000, delta_t_k) == pytest.approx(m3_per_h_per_kw, abs=0.6)


@pytest.mark.parametrize(("delta_t_k", "l_per_min_per_kw"), [(5, 2.87), (8, 1.79), (10, 1.43), (15, 0.96)])
def test_water_flow_per_kw(delta_t_k, l_per_min_per_kw):
    """flow = P x 60 / (4.186 x dT): 1.43 L/min per kW at 10 K (published-cases.md)."""
    assert water_flow_l_per_min(1.0, delta_t_k) == pytest.approx(l_per_min_per_kw, abs=0.005)


def test_a_kelvin_of_rise_is_1_8_fahrenheit():
    assert delta_t_f_from_k(10) == pytest.approx(18)
    # The same air flow whichever unit the rise is stated in: 1 CFM = 1.699 m3/h.
    assert air_flow_m3_per_h(5_000, 10) / air_flow_cfm(5_000, delta_t_f_from_k(10)) == pytest.approx(1.699, rel=0.01)


def test_vector_call_matches_a_loop_of_scalar_calls():
    heats_w = np.array([0.0, 1_000.0, 10_200.0, 132_000.0])
    deltas = np.array([10.0, 11.0, 12.0, 20.0])
    vector = air_flow_cfm(heats_w, deltas)
    assert vector == pytest.approx([air_flow_cfm(h, d) for h, d in zip(heats_w, deltas)])
    assert water_flow_l_per_min(heats_w / 1_000, 10) == pytest.approx(
        [water_flow_l_per_min(h / 1_000, 10) for h in heats_w])


@pytest.mark.parametrize("function", [air_flow_cfm, air_flow_m3_per_h, water_flow_l_per_min])
def test_no_flow_for_a_zero_temperature_rise(function):
    with pytest.raises(ValueError, match="greater than zero"):
        function(1_000, 0)
