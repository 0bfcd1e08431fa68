"""Facility: IT load by category, PUE (given or from a loss model), facility kW, UPS and
generators, and a year of energy, cost, carbon and water.

Loss model (facility.pue: auto)
-------------------------------
    facility_kw = it_kw + cooling_kw + ups_loss_kw + distribution_loss_kw + other_kw
    cooling_kw            from the cooling plant (`cooling_plant`): fans, pumps, compressors
    ups_loss_kw           = critical_kw × (1 / ups_efficiency - 1), critical = IT + liquid pumps
    distribution_loss_kw  = distribution_loss_fraction × (it_kw + cooling_kw)
    other_kw              = other_loss_fraction × it_kw (lighting, security, offices)
    PUE = facility_kw / it_kw    (ISO/IEC 30134-2: facility energy / IT energy)

A given PUE replaces the model: facility_kw = pue × it_kw, and the overhead is shared out in
the model's proportions. PUE is taken as constant over the year: annual energy =
it_kw × average_load × 8,760 h × PUE.

UPS and generators
------------------
    modules_needed = ceil(load_kw / module_kw);  N: needed, N+1: needed + 1, 2N: 2 × needed
UPS load is the critical load (IT and liquid-loop pumps); generators carry the whole facility.
"""

from dataclasses import dataclass

from power.solver.cooling_plant import CoolingPlantResult, units_needed, units_with_redundancy
from power.solver.specs import FacilitySpec

HOURS_PER_YEAR = 8_760
"""365 days x 24 h: energy bills and GPU-hours count whole days."""

WUE_WITH_COOLING_TOWERS_L_PER_KWH = 1.8
"""Industry average WUE, dominated by evaporative cooling (1.8-1.9 L/kWh, as commonly quoted
from The Green Grid / LBNL figures;
https://unanswered.io/guide/data-center-water-usage-effectiveness-wue)."""

WUE_DRY_L_PER_KWH = 0.2
"""Dry coolers and air-cooled chillers with adiabatic assist on hot days: 0.1-0.4 L/kWh
(https://www.yobitel.com/knowledge-base/wue-water-usage-effectiveness; an estimate)."""


FACILITY_POWER_FIELDS = frozenset({
    "pue", "electricity_usd_per_kwh", "ups_redundancy", "ups_module_kw", "ups_efficiency", "generator_redundancy",
    "generator_kw", "distribution_loss_fraction", "other_loss_fraction", "average_load", "grid_gco2_per_kwh",
    "wue_l_per_kwh",
})
"""The fields of FacilitySpec that `size_facility` alone reads, not the racks, their cooling
plant, parts or warnings (`power_plan.cooled_racks`): a sweep over them cools its racks once."""


def pue_from_energy(facility_kw: float, it_kw: float) -> float:
    """PUE = facility power / IT power (ISO/IEC 30134-2)."""
    return facility_kw / it_kw


def ups_loss_kw(critical_kw: float, ups_efficiency: float) -> float:
    """Power lost in the UPS [kW] carrying `critical_kw`: P_in - P_out = P_out × (1/η - 1)."""
    return critical_kw * (1 / ups_efficiency - 1)


def annual_energy_kwh(power_kw: float, average_load: float) -> float:
    """Energy over a year [kWh] at `average_load` × `power_kw`: E = P × load × 8,760 h."""
    return power_kw * average_load * HOURS_PER_YEAR


def carbon_t_co2(energy_kwh: float, grid_gco2_per_kwh: float) -> float:
    """Emissions [t CO2] of `energy_kwh` on a grid of `grid_gco2_per_kwh`: E × I / 10⁶."""
    return energy_kwh * grid_gco2_per_kwh / 1e6


def water_m3(it_energy_kwh: float, wue_l_per_kwh: float) -> float:
    """Site water [m³] for a year: WUE × IT energy / 1,000 (WUE is litres per kWh of IT energy)."""
    return it_energy_kwh * wue_l_per_kwh / 1_000


@dataclass(frozen=True)
class BackupPowerResult:
    redundancy: str
    load_kw: float
    unit_kw: float
    needed: int
    units: int
    installed_kw: float


def backup_power(load_kw: float, unit_kw: float, redundancy: str) -> BackupPowerResult:
    """Units of `unit_kw` for `load_kw` with N, N+1 or 2N redundancy (see the module docstring)."""
    needed = units_needed(load_kw, unit_kw)
    units = units_with_redundancy(needed, redundancy)
    return BackupPowerResult(redundancy, load_kw, unit_kw, needed, units, units * unit_kw)


@dataclass(frozen=True)
class LossModelResult:
    """Every assumption of the modelled PUE and what each term adds, at design load."""

    cooling_kw: float
    ups_loss_kw: float
    distribution_loss_kw: float
    other_kw: float
    pue: float
    assumptions: dict[str, object]


@dataclass(frozen=True)
class PowerResult:
    it_kw: float
    """All IT equipment at maximum input power: compute, network (optics included), storage and
    management."""
    facility_kw: float
    pue: float
    pue_source: str
    """given (facility.pue) or modelled (the loss model)."""
    it_kw_by_category: dict[str, float]
    overhead_kw_by_category: dict[str, float]
    """cooling, ups_losses, distribution_losses, other: facility_kw - it_kw shared out."""
    loss_model: LossModelResult
    cooling: CoolingPlantResult
    ups: BackupPowerResult
    generators: BackupPowerResult
    pdus: int
    """Rack PDUs in all racks."""
    average_load: float
    annual_it_energy_mwh: float
    annual_energy_mwh: float
    annual_energy_cost_usd: float
    grid_gco2_per_kwh: float
    annual_carbon_t_co2: float
    wue_l_per_kwh: float
    annual_water_m3: float


def loss_model(
    it_kw: float, cooling: CoolingPlantResult, facility: FacilitySpec
) -> LossModelResult:
    """The modelled overheads and PUE (see the module docstring)."""
    critical_kw = it_kw + cooling.ups_backed_kw
    ups_kw = ups_loss_kw(critical_kw, facility.ups_efficiency)
    distribution_kw = facility.distribution_loss_fraction * (it_kw + cooling.cooling_kw)
    other_kw = facility.other_loss_fraction * it_kw
    total = it_kw + cooling.cooling_kw + ups_kw + distribution_kw + other_kw
    return LossModelResult(
        cooling_kw=cooling.cooling_kw,
        ups_loss_kw=ups_kw,
        distribution_loss_kw=distribution_kw,
        other_kw=other_kw,
        pue=pue_from_energy(total, it_kw) if it_kw else 1.0,
        assumptions={
            "climate": facility.climate,
            "chiller_share": cooling.chiller_share,
            "compressor_kw_per_kw": cooling.compressor_kw_per_kw,
            "unit_power_kw_per_kw": {
                unit.role: unit.power_kw / unit.load_kw for unit in cooling.units if unit.load_kw
            },
            "ups_efficiency": facility.ups_efficiency,
            "distribution_loss_fraction": facility.distribution_loss_fraction,
            "other_loss_fraction": facility.other_loss_fraction,
            "liquid_pumps_on_ups": True,
        },
    )


def size_facility(
    it_kw_by_category: dict[str, float],
    cooling: CoolingPlantResult,
    facility: FacilitySpec,
    pdus: int = 0,
) -> PowerResult:
    """Facility power, PUE, backup power and a year of operation for the IT load given."""
    it_kw = sum(it_kw_by_category.values())
    model = loss_model(it_kw, cooling, facility)
    terms = {
        "cooling": model.cooling_kw,
        "ups_losses": model.ups_loss_kw,
        "distribution_losses": model.distribution_loss_kw,
        "other": model.other_kw,
    }
    if isinstance(facility.pue, str):  # auto (a number, or an array of them: a sweep's designs)
        pue, source = model.pue, "modelled"
        overhead = terms
    else:
        pue, source = facility.pue, "given"
        modelled_overhead = sum(terms.values())
        given_overhead = it_kw * (pue - 1)
        overhead = {
            name: (value / modelled_overhead * given_overhead if modelled_overhead else 0.0)
            for name, value in terms.items()
        }
    facility_kw = it_kw * pue
    it_energy_kwh = annual_energy_kwh(it_kw, facility.average_load)
    energy_kwh = it_energy_kwh * pue
    has_towers = any(unit.kind == "cooling_tower" for unit in cooling.units)
    if isinstance(facility.wue_l_per_kwh, str):  # auto
        wue = WUE_WITH_COOLING_TOWERS_L_PER_KWH if has_towers else WUE_DRY_L_PER_KWH
    else:
        wue = facility.wue_l_per_kwh
    return PowerResult(
        it_kw=it_kw,
        facility_kw=facility_kw,
        pue=pue,
        pue_source=source,
        it_kw_by_category=dict(it_kw_by_category),
        overhead_kw_by_category=overhead,
        loss_model=model,
        cooling=cooling,
        ups=backup_power(
            it_kw + cooling.ups_backed_kw, facility.ups_module_kw, facility.ups_redundancy
        ),
        generators=backup_power(facility_kw, facility.generator_kw, facility.generator_redundancy),
        pdus=pdus,
        average_load=facility.average_load,
        annual_it_energy_mwh=it_energy_kwh / 1_000,
        annual_energy_mwh=energy_kwh / 1_000,
        annual_energy_cost_usd=energy_kwh * facility.electricity_usd_per_kwh,
        grid_gco2_per_kwh=facility.grid_gco2_per_kwh,
        annual_carbon_t_co2=carbon_t_co2(energy_kwh, facility.grid_gco2_per_kwh),
        wue_l_per_kwh=wue,
        annual_water_m3=water_m3(it_energy_kwh, wue),
    )
