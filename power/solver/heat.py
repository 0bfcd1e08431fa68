"""Heat and the air or water flow that carries it away.

Every watt of IT power becomes a watt of heat in the room (the energy leaving as light, sound or
network signals is negligible), so the heat of a rack is its IT power. The functions take plain
numbers or numpy arrays and return the same.

Constants
---------
- 1 W = 3.412 BTU/h (1 BTU = 1,055.06 J; 3,600 / 1,055.06 = 3.4121).
- Air at sea level: density 1.2 kg/m³, specific heat 1.005 kJ/(kg·K).
- Water: specific heat 4.186 kJ/(kg·K), about 1 kg per litre.

Sources: ASHRAE fundamentals as summarised by insideHPC, *Calculating CFMs for HPC power and
cooling* (2011), https://insidehpc.com/2011/04/calculating-cfms-for-hpc-power-and-cooling/ ;
the water flow follows from Q = ṁ·cp·ΔT (first principles), see
`../shared/reference/published-cases.md`, "Power and heat".
"""

import numpy as np

BTU_PER_H_PER_W = 3.412
"""Heat flow of one watt in BTU per hour."""

AIR_SENSIBLE_HEAT_FACTOR = 1.08
"""BTU/h per (CFM · °F) for standard air: 60 min/h x 0.075 lb/ft³ x 0.24 BTU/(lb·°F)."""

AIR_DENSITY_KG_PER_M3 = 1.2
AIR_SPECIFIC_HEAT_KJ_PER_KG_K = 1.005
WATER_SPECIFIC_HEAT_KJ_PER_KG_K = 4.186
WATER_DENSITY_KG_PER_L = 1.0

FAHRENHEIT_PER_KELVIN = 1.8
"""A temperature difference of 1 K is a difference of 1.8 °F."""


def _check_positive(name: str, value) -> None:
    if isinstance(value, (int, float)):  # a plain number without numpy's cost (a sweep's racks)
        if value <= 0:
            raise ValueError(f"{name} must be greater than zero")
        return
    if np.any(np.asarray(value) <= 0):
        raise ValueError(f"{name} must be greater than zero")


def heat_btu_per_h(power_w):
    """Heat flow [BTU/h] of a power [W]: Q = 3.412 × P."""
    return BTU_PER_H_PER_W * power_w


def rack_heat_btu_per_h(it_kw):
    """Heat [BTU/h] a rack drawing `it_kw` [kW] gives off: Q = 3.412 × 1,000 × P_kW."""
    return heat_btu_per_h(1_000 * it_kw)


def delta_t_f_from_k(delta_t_k):
    """A temperature rise [°F] from the same rise in kelvin: ΔT_F = 1.8 × ΔT_K."""
    return FAHRENHEIT_PER_KELVIN * delta_t_k


def air_flow_cfm(heat_w, delta_t_f):
    """Air flow [ft³/min] that carries `heat_w` [W] away at a temperature rise `delta_t_f` [°F].

    Notes
    -----
    CFM = 3.412 × W / (1.08 × ΔT_F) ≈ 3.16 × W / ΔT_F. A 10.2 kW DGX H100 at ΔT = 20 °F needs
    3.412 × 10,200 / (1.08 × 20) ≈ 1,611 CFM (the source rounds the factor to 3.16: 1,612).
    """
    _check_positive("delta_t_f", delta_t_f)
    return heat_btu_per_h(heat_w) / (AIR_SENSIBLE_HEAT_FACTOR * delta_t_f)


def air_flow_m3_per_h(heat_w, delta_t_k):
    """Air flow [m³/h] that carries `heat_w` [W] away at a temperature rise `delta_t_k` [K].

    Notes
    -----
    V̇ = 3,600 × W / (ρ × cp × 1,000 × ΔT) with ρ = 1.2 kg/m³ and cp = 1.005 kJ/(kg·K), that is
    V̇ ≈ 2.985 × W / ΔT_K: 299 m³/h per kW at ΔT = 10 K.
    """
    _check_positive("delta_t_k", delta_t_k)
    heat_capacity_j_per_m3_k = AIR_DENSITY_KG_PER_M3 * AIR_SPECIFIC_HEAT_KJ_PER_KG_K * 1_000
    return 3_600 * heat_w / (heat_capacity_j_per_m3_k * delta_t_k)


def water_flow_l_per_min(heat_kw, delta_t_k):
    """Water flow [L/min] that carries `heat_kw` [kW] away at a temperature rise `delta_t_k` [K].

    Notes
    -----
    Q = ṁ × cp × ΔT, so ṁ [kg/s] = P / (4.186 × ΔT) and, at ~1 kg/L,
    flow [L/min] = P [kW] × 60 / (4.186 × ΔT [K]): 1.43 L/min per kW at ΔT = 10 K. Glycol
    mixtures carry less heat per litre (PG25, cp ≈ 3.9: ~1.54 L/min per kW at 10 K).
    """
    _check_positive("delta_t_k", delta_t_k)
    return heat_kw * 60 / (WATER_SPECIFIC_HEAT_KJ_PER_KG_K * WATER_DENSITY_KG_PER_L * delta_t_k)
