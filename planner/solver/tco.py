"""Cost of ownership: capex by category, opex per year with escalation, TCO, its present value,
and what a GPU-hour costs.

Conventions: year 0 is the purchase (capex), years 1..N the operation (opex). The TCO is the
plain sum of both; its present value discounts year t by (1 + r)^t.

The cost of ownership takes an array of values where it takes a number for any finance field
but the life, and for the energy price: a sweep prices its designs that differ only in those at
once (`pipeline.PRICED_KEYS`), each to the figure it has alone.
"""

from dataclasses import dataclass, field

import numpy as np

from core.solver.errors import InfeasibleError
from planner.solver.bom import BomLine, bom_totals_by_category_usd
from planner.solver.scenario import FinanceSpec
from power.solver.cooling_plant import BOUGHT_WITH_CLUSTER, COVERED_BY
from power.solver.facility import HOURS_PER_YEAR

BOM_CATEGORY_TO_CAPEX = {
    "compute": "systems",
    "scale_up": "optics_and_cables",
    "network": "network",
    "optics": "optics_and_cables",
    "cables": "optics_and_cables",
    "storage": "storage",
    "management": "management",
    "racks": "racks_and_power",
    "power": "racks_and_power",
    "cooling": "cooling",
}

FINANCE_COST_FIELDS = frozenset({
    "years", "discount_rate", "colocation_usd_per_kw_month", "build_usd_per_mw", "installation_share",
    "maintenance_share_per_year", "staff_per_1000_gpus", "staff_usd_per_year_each", "software_usd_per_gpu_per_year",
    "escalation_per_year",
})
"""The fields of FinanceSpec that only the cost of ownership reads (and, of its years, the cost
per token): not the facility (what pays for the cooling plant) nor the spares (the BOM)."""


@dataclass(frozen=True)
class CostResult:
    bom_usd_by_category: dict[str, float]
    """Extended prices of the bill of materials, by BOM category."""
    bom_total_usd: float
    capex_usd: float
    capex_by_category_usd: dict[str, float]
    """systems, network, optics_and_cables, storage, management, racks_and_power, cooling,
    installation, facility."""
    opex_usd_per_year: float
    """First year of operation; later years escalate."""
    opex_by_category_usd_per_year: dict[str, float]
    """energy, maintenance, colocation, staff, software (first year)."""
    opex_usd_by_year: tuple[float, ...]
    tco_usd: float
    tco_present_value_usd: float
    gpu_hours: float
    usd_per_gpu_hour: float
    usd_per_useful_gpu_hour: float | None
    """Per GPU-hour of useful work, once reliability gives the goodput."""
    usd_per_pflop_hour: float | None
    """Per hour of one dense PFLOP/s at the training precision's throughput."""
    assumptions: FinanceSpec
    cooling_paid_by: dict[str, str] = field(default_factory=dict)
    """Each cooling unit of the plant (catalog slug) and what pays for it: the bill of materials,
    the colocation fee or the construction cost per MW (`cooling_plant.cooling_unit_paid_by`)."""
    cooling_note: str = ""
    """The same in a sentence, for the cost assumptions."""
    usd_per_million_output_tokens: float | None = None
    """The inference pools' share of the TCO over the output tokens they serve (token_cost.py);
    None without an inference pool."""


def capex_by_category_usd(bom_usd_by_category: dict[str, float], installation_share: float) -> dict[str, float]:
    """Hardware capex by capex category from the BOM's totals, plus installation as a share of
    hardware: installation_usd = installation_share x sum(hardware extended prices)."""
    capex: dict[str, float] = {}
    for bom_category, usd in bom_usd_by_category.items():
        category = BOM_CATEGORY_TO_CAPEX.get(bom_category, bom_category)
        capex[category] = capex.get(category, 0.0) + usd
    capex["installation"] = installation_share * sum(capex.values())
    return capex


def facility_build_usd(it_kw: float, build_usd_per_mw: float) -> float:
    """Construction cost of the data hall [USD] = IT capacity [MW] x cost per MW of critical load.

    Cushman & Wakefield, Data Center Development Cost Guide 2025: US average 11.7 M USD per MW.
    """
    return it_kw / 1000 * build_usd_per_mw


def colocation_usd_per_year(it_kw: float, usd_per_kw_month: float) -> float:
    """Colocation fee [USD/year] = IT capacity [kW] x price [USD/kW-month] x 12."""
    return it_kw * usd_per_kw_month * 12


def energy_usd_per_year(annual_energy_kwh: float, usd_per_kwh: float) -> float:
    return annual_energy_kwh * usd_per_kwh


def staff_usd_per_year(gpus: int, staff_per_1000_gpus: float, usd_per_staff_year: float) -> float:
    return gpus / 1000 * staff_per_1000_gpus * usd_per_staff_year


def power(base: float, exponent: int) -> float:
    """base ** exponent, of a number or of each number of an array. numpy's own power differs
    from the C library's pow in the last bit for about 5 % of bases on this AVX-512 machine
    (measured), and a design priced in an array must cost what it costs alone."""
    if isinstance(base, np.ndarray):
        return np.array([value ** exponent for value in base.tolist()])
    return base ** exponent


def escalated_usd_by_year(first_year_usd: float, escalation_per_year: float, years: int) -> tuple[float, ...]:
    """Amounts for years 1..N, each (1 + e) times the year before: A_t = A_1 (1 + e)^(t-1)."""
    return tuple(first_year_usd * power(1 + escalation_per_year, year - 1) for year in range(1, years + 1))


def present_value_usd(amounts_usd_by_year: tuple[float, ...], discount_rate: float) -> float:
    """Net present value of amounts for years 0..N: sum of A_t / (1 + r)^t. A rate near -1 takes
    it beyond a float (inf, which `cost_of_ownership` refuses), for an array as for a number."""
    with np.errstate(over="ignore"):
        return sum(amount / power(1 + discount_rate, year) for year, amount in enumerate(amounts_usd_by_year))


def gpu_hours(gpus: int, years: int) -> float:
    return gpus * HOURS_PER_YEAR * years


def cooling_capex_note(cooling_paid_by: dict[str, str], facility: str) -> str:
    """Which cooling units the capex buys and which the facility already pays for, in a sentence."""
    bought = sorted(slug for slug, payer in cooling_paid_by.items() if payer == BOUGHT_WITH_CLUSTER)
    covered = sorted(slug for slug, payer in cooling_paid_by.items() if payer != BOUGHT_WITH_CLUSTER)
    parts = []
    if bought:
        parts.append(f"Cooling bought with the cluster (the racks' own CDUs and rear doors): {', '.join(bought)}.")
    if covered:
        parts.append(
            f"Not bought, already paid by the {COVERED_BY[facility]} ({facility} facility): "
            f"{', '.join(covered)} (the building's chillers, dry coolers, towers and air handlers)."
        )
    return " ".join(parts)


def cost_of_ownership(
    *,
    bom: tuple[BomLine, ...],
    finance: FinanceSpec,
    gpus: int,
    it_kw: float,
    annual_energy_kwh: float,
    electricity_usd_per_kwh: float,
    goodput: float | None = None,
    dense_tflops_per_gpu: float | None = None,
    cooling_paid_by: dict[str, str] | None = None,
) -> CostResult:
    """Capex, opex and TCO over `finance.years`, and the cost of a GPU-hour.

    usd_per_gpu_hour = TCO / (GPUs x 8,760 h x years); per useful GPU-hour it is divided by the
    goodput; per PFLOP-hour by the GPU's dense PFLOP/s (TFLOPS / 1,000). `cooling_paid_by`
    (unit slug -> payer) is reported with the assumptions: the building's plant is not in the
    BOM, since the colocation fee or the construction cost per MW already pays for it.
    """
    bom_usd = bom_totals_by_category_usd(bom)
    hardware_usd = sum(bom_usd.values())
    capex = capex_by_category_usd(bom_usd, finance.installation_share)
    if finance.facility == "built":
        capex["facility"] = facility_build_usd(it_kw, finance.build_usd_per_mw)
    opex = {
        "energy": energy_usd_per_year(annual_energy_kwh, electricity_usd_per_kwh),
        "maintenance": finance.maintenance_share_per_year * hardware_usd,
        "colocation": (
            colocation_usd_per_year(it_kw, finance.colocation_usd_per_kw_month)
            if finance.facility == "leased" else 0.0
        ),
        "staff": staff_usd_per_year(gpus, finance.staff_per_1000_gpus, finance.staff_usd_per_year_each),
        "software": gpus * finance.software_usd_per_gpu_per_year,
    }
    capex_usd = sum(capex.values())
    opex_usd_per_year = sum(opex.values())
    opex_by_year = escalated_usd_by_year(opex_usd_per_year, finance.escalation_per_year, finance.years)
    tco_usd = capex_usd + sum(opex_by_year)
    hours = gpu_hours(gpus, finance.years)
    per_gpu_hour = tco_usd / hours
    present_value = present_value_usd((capex_usd, *opex_by_year), finance.discount_rate)
    if not np.all(np.isfinite(present_value)):
        # A rate near -1 makes 1 / (1 + r)^t beyond a float: -0.999999 over 50 years is 1e300.
        raise InfeasibleError.at(
            "finance.discount_rate",
            f"discounts {finance.years} years to a present value beyond any number: "
            "give a rate further from -1, or fewer years",
        )
    return CostResult(
        bom_usd_by_category=bom_usd,
        bom_total_usd=hardware_usd,
        capex_usd=capex_usd,
        capex_by_category_usd=capex,
        opex_usd_per_year=opex_usd_per_year,
        opex_by_category_usd_per_year=opex,
        opex_usd_by_year=opex_by_year,
        tco_usd=tco_usd,
        tco_present_value_usd=present_value,
        gpu_hours=hours,
        usd_per_gpu_hour=per_gpu_hour,
        usd_per_useful_gpu_hour=per_gpu_hour / goodput if goodput else None,
        usd_per_pflop_hour=per_gpu_hour / (dense_tflops_per_gpu / 1000) if dense_tflops_per_gpu else None,
        assumptions=finance,
        cooling_paid_by=dict(cooling_paid_by or {}),
        cooling_note=cooling_capex_note(cooling_paid_by or {}, finance.facility),
    )
