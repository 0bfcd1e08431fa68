"""Cooling plant: the units that take the racks' heat away, counted with redundancy, and the
power they draw.

Heat paths
----------
- Air share of every rack → air handlers (CRAH) → chilled water.
- Liquid share of rear-door racks → one rear-door heat exchanger per rack → chilled water.
- Liquid share of direct-liquid and immersion racks → CDUs → a warm-water loop (~25 °C supply,
  ~45 °C return) that dry coolers reject without compressors most of the year.
- Heat rejection (`facility.heat_rejection`): auto sends chilled water to chillers and warm
  water to dry coolers; a named chiller, dry cooler or cooling tower takes all the heat.

Cooling power (the loss model's cooling term), per path at design load:

    P = heat × (fan/pump ratio of its units + compressor ratio × chiller share)

where a unit's ratio is its catalog power_kw / capacity_kw (CRAH ~5 %, CDU ~1.5 %, dry cooler
~3 %, chiller ~30 % i.e. COP ≈ 3.3), and the chiller share is the part of the year the
compressors run: a climate assumption (CHILLER_SHARE) unless facility.chiller_share gives it.
"""

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from catalog.solver.power_parts import CoolingUnitSpec
from core.solver.errors import ScenarioError
from power.solver.rack_loads import RackGroupResult
from power.solver.specs import FacilitySpec

if TYPE_CHECKING:
    from catalog.solver.snapshot import CatalogSnapshot

WARM_WATER_COOLING = frozenset({"direct_liquid", "immersion"})
"""Cooling types whose liquid runs warm enough (~25-45 °C) for compressor-free heat rejection."""

CHILLER_SHARE: dict[str, dict[str, float]] = {
    "cool": {"chilled": 0.25, "warm": 0.0},
    "temperate": {"chilled": 0.5, "warm": 0.05},
    "hot": {"chilled": 0.85, "warm": 0.25},
}
"""Share of the year the compressors run, by climate and water loop (estimates: chilled water
at ~18 °C can use free cooling below ~10-12 °C outdoors, a warm-water loop below ~30 °C)."""

DEFAULT_COMPRESSOR_RATIO = 0.3
"""kW of compressor power per kW of heat when the catalog has no chiller (COP ≈ 3.3)."""

HEAT_REJECTION_KINDS = ("chiller", "dry_cooler", "cooling_tower")
FACILITY_PLANT_KINDS = frozenset({"chiller", "dry_cooler", "cooling_tower", "crah"})
"""The building's cooling plant: heat rejection (facility water system) and room air handlers.
Bought with the building, not with the cluster (see `cooling_unit_paid_by`)."""
RACK_COOLING_KINDS = frozenset({"cdu", "rdhx"})
"""The racks' own cooling (technology cooling system): CDUs and rear-door heat exchangers,
bought with the cluster."""
BOUGHT_WITH_CLUSTER = "bill of materials"
COVERED_BY = {"leased": "colocation fee", "built": "construction cost per MW"}
"""What already pays for the building's plant, by finance.facility."""
UNIT_KINDS_BY_FIELD = {
    "facility.cdu": ("cdu",),
    "facility.air_handler": ("crah",),
    "facility.heat_rejection": HEAT_REJECTION_KINDS,
}


UNIT_LABELS_BY_FIELD = {
    "facility.cdu": "CDU",
    "facility.air_handler": "air handler",
    "facility.heat_rejection": "chiller, dry cooler or cooling tower",
}


def facility_unit_references(facility: FacilitySpec) -> list[tuple[str, str, tuple[str, ...], str]]:
    """(path, slug, allowed kinds, what they are called) of each cooling unit the scenario names
    (not 'auto')."""
    chosen = {"facility.cdu": facility.cdu, "facility.air_handler": facility.air_handler,
              "facility.heat_rejection": facility.heat_rejection}
    return [
        (path, slug, UNIT_KINDS_BY_FIELD[path], UNIT_LABELS_BY_FIELD[path])
        for path, slug in chosen.items()
        if slug != "auto"
    ]


def units_with_redundancy(needed: int, redundancy: str) -> int:
    """Units to install: N → needed; N+1 → needed + 1; 2N → 2 × needed (none when none needed).
    `needed` a count, or an array of counts (a sweep's designs priced at once)."""
    installed = needed + 1 if redundancy == "N+1" else 2 * needed if redundancy == "2N" else needed
    if isinstance(needed, np.ndarray):
        return np.where(needed > 0, installed, 0)
    return installed if needed > 0 else 0


def units_needed(load_kw: float, capacity_kw: float) -> int:
    """Units whose capacity covers the load: ceil(load_kw / capacity_kw). `load_kw` a load, or an
    array of loads (a sweep's designs priced at once)."""
    if isinstance(load_kw, np.ndarray):
        return np.where(load_kw > 0, np.ceil(load_kw / capacity_kw - 1e-9), 0).astype(np.int64)
    # A single load stays in Python: numpy's round trip costs more than the arithmetic, and a
    # screened design sizes ten cooling units.
    return math.ceil(load_kw / capacity_kw - 1e-9) if load_kw > 0 else 0


def cooling_unit_paid_by(kind: str, facility: str) -> str:
    """Who pays for a cooling unit of `kind` [chiller, dry_cooler, cooling_tower, crah, cdu,
    rdhx] when the facility is `facility` (leased or built): BOUGHT_WITH_CLUSTER, or what
    already covers it (COVERED_BY[facility]).

    Notes
    -----
    Capex is counted once. ASHRAE TC 9.9 (Liquid Cooling Guidelines for Datacom Equipment
    Centers, 2nd ed., 2014) splits a liquid-cooled hall at the CDU: the technology cooling
    system (CDU, rack manifolds, rear doors) serves given racks, the facility water system
    (chillers, dry coolers, towers, pumps) and the room's air handlers serve the building.

    - Chillers, dry coolers, cooling towers and CRAHs are the building's. Leased, the colocation
      fee (USD per kW-month of IT capacity, delivered cooled) pays for them; built, the
      construction cost per MW does (Cushman & Wakefield's Data Center Development Cost Guide
      counts mechanical plant, about a fifth of it, in the cost per MW). Never on the BOM.
    - CDUs (in-rack and in-row) and rear-door heat exchangers are the tenant's in both modes:
      colocation providers deliver facility water or cold air to the hall and leave the CDUs
      and doors that match the racks to the tenant, and a per-MW construction cost for an
      air-cooled hall does not include them. Bought on the BOM.
    """
    if kind in FACILITY_PLANT_KINDS:
        return COVERED_BY[facility]
    return BOUGHT_WITH_CLUSTER


def cooling_units_paid_by(units: "tuple[CoolingUnitCount, ...]", facility: str) -> dict[str, str]:
    """`cooling_unit_paid_by` for every unit of the plant, by catalog slug."""
    return {unit.unit: cooling_unit_paid_by(unit.kind, facility) for unit in units}


@dataclass(frozen=True)
class CoolingUnitCount:
    role: str
    """air_handlers, rear_doors, cdus, chilled_water_rejection, warm_water_rejection or
    heat_rejection."""
    unit: str
    """Catalog slug."""
    kind: str
    load_kw: float
    """Heat this role removes."""
    capacity_kw: float
    """Of one unit."""
    needed: int
    count: int
    """Installed, redundancy included."""
    power_kw: float
    """Fan, pump or compressor power drawn at design load (annual average for compressors)."""


@dataclass(frozen=True)
class CoolingPlantResult:
    liquid_kw: float
    air_kw: float
    chilled_water_kw: float
    warm_water_kw: float
    heat_rejection_kw: float
    """Heat the plant rejects outdoors: the racks' heat plus the fans and pumps inside."""
    redundancy: str
    chiller_share: dict[str, float]
    """Share of the year the compressors run, per loop (chilled, warm)."""
    compressor_kw_per_kw: float
    units: tuple[CoolingUnitCount, ...]
    cooling_kw: float
    """Power of the whole plant at design load: the loss model's cooling term."""
    ups_backed_kw: float
    """Pump power of the liquid loops, which rides on the UPS (liquid must keep flowing)."""


def _ratio(unit: CoolingUnitSpec) -> float:
    return unit.power_kw / unit.capacity_kw


def choose_unit(
    catalog: "CatalogSnapshot",
    chosen: str,
    kinds: tuple[str, ...],
    load_kw: float,
    redundancy: str,
    in_rack: bool = False,
) -> CoolingUnitSpec | None:
    """The named unit, or (auto) the unit of `kinds` whose installed count costs least for the
    load (ties: larger units). In-rack CDUs are only used when named."""
    if chosen != "auto":
        return catalog.cooling_units[chosen]
    options = [
        unit for unit in catalog.cooling_units.values()
        if unit.kind in kinds and (in_rack or unit.rack_units == 0)
    ]
    if not options:
        return None
    return min(
        options,
        key=lambda unit: (units_with_redundancy(units_needed(load_kw, unit.capacity_kw), redundancy)
                          * unit.price_usd, -unit.capacity_kw),
    )


def size_cooling_plant(
    groups: tuple[RackGroupResult, ...], facility: FacilitySpec, catalog: "CatalogSnapshot"
) -> CoolingPlantResult:
    """Units and power of the plant for the racks in `groups` (see the module docstring)."""
    redundancy = facility.cooling_redundancy
    doors = [group for group in groups if group.cooling == "rear_door"]
    warm = [g for g in groups if g.cooling in WARM_WATER_COOLING and g.liquid_kw > 0]
    air_kw = sum((group.air_kw * group.count for group in groups), 0.0)
    door_kw = sum((group.liquid_kw * group.count for group in doors), 0.0)
    door_racks = sum(group.count for group in doors)
    warm_kw = sum((group.liquid_kw * group.count for group in warm), 0.0)
    climate_share = CHILLER_SHARE[facility.climate]
    if facility.chiller_share == "auto":
        share = dict(climate_share)
    else:
        share = {"chilled": facility.chiller_share, "warm": facility.chiller_share}
    chillers = [unit for unit in catalog.cooling_units.values() if unit.kind == "chiller"]
    compressor_ratio = min((_ratio(unit) for unit in chillers), default=DEFAULT_COMPRESSOR_RATIO)

    units: list[CoolingUnitCount] = []

    def add(role: str, unit: CoolingUnitSpec | None, load_kw: float, power_kw: float | None = None,
            needed: int | None = None, count: int | None = None) -> None:
        if unit is None or load_kw <= 0:
            return
        needed = units_needed(load_kw, unit.capacity_kw) if needed is None else needed
        units.append(CoolingUnitCount(
            role=role,
            unit=unit.slug,
            kind=unit.kind,
            load_kw=load_kw,
            capacity_kw=unit.capacity_kw,
            needed=needed,
            count=units_with_redundancy(needed, redundancy) if count is None else count,
            power_kw=load_kw * _ratio(unit) if power_kw is None else power_kw,
        ))

    air_handler = choose_unit(catalog, facility.air_handler, ("crah",), air_kw, redundancy)
    add("air_handlers", air_handler, air_kw)
    door = choose_unit(catalog, "auto", ("rdhx",), door_kw, "N")
    if door is not None and door_racks:
        add("rear_doors", door, door_kw, needed=door_racks, count=door_racks)
    named_cdu = facility.cdu != "auto"
    cdu = choose_unit(catalog, facility.cdu, ("cdu",), warm_kw, redundancy, in_rack=named_cdu)
    if cdu is not None and cdu.rack_units > 0:
        per_rack = sum(group.count for group in warm)
        add("cdus", cdu, warm_kw, needed=per_rack, count=per_rack)
    else:
        add("cdus", cdu, warm_kw)
    inside_kw = sum((unit.power_kw for unit in units), 0.0)
    ups_backed_kw = sum((unit.power_kw for unit in units if unit.role == "cdus"), 0.0)

    # Heat from fans and pumps inside goes out with the heat of the path they serve.
    room_fans_kw = sum(u.power_kw for u in units if u.role in ("air_handlers", "rear_doors"))
    chilled_kw = air_kw + door_kw + room_fans_kw
    warm_loop_kw = warm_kw + ups_backed_kw
    if facility.heat_rejection != "auto":
        unit = catalog.cooling_units[facility.heat_rejection]
        load = chilled_kw + warm_loop_kw
        if unit.kind == "chiller":
            power = (chilled_kw * share["chilled"] + warm_loop_kw * share["warm"]) * _ratio(unit)
        else:
            power = load * _ratio(unit)
        add("heat_rejection", unit, load, power_kw=power)
    else:
        chiller = choose_unit(catalog, "auto", ("chiller",), chilled_kw, redundancy)
        if chiller is not None:
            compressors_kw = chilled_kw * share["chilled"] * _ratio(chiller)
            add("chilled_water_rejection", chiller, chilled_kw, power_kw=compressors_kw)
        dry = choose_unit(catalog, "auto", ("dry_cooler",), warm_loop_kw, redundancy)
        if dry is not None:
            add("warm_water_rejection", dry, warm_loop_kw,
                power_kw=warm_loop_kw * (_ratio(dry) + share["warm"] * compressor_ratio))
    cooling_kw = sum((unit.power_kw for unit in units), 0.0)
    if not units and (air_kw or warm_kw or door_kw):
        raise ScenarioError.at(
            "facility.heat_rejection", "the catalog holds no cooling units to size the plant with"
        )
    return CoolingPlantResult(
        liquid_kw=door_kw + warm_kw,
        air_kw=air_kw,
        chilled_water_kw=chilled_kw,
        warm_water_kw=warm_loop_kw,
        heat_rejection_kw=air_kw + door_kw + warm_kw + inside_kw,
        redundancy=redundancy,
        chiller_share=share,
        compressor_kw_per_kw=compressor_ratio,
        units=tuple(units),
        cooling_kw=cooling_kw,
        ups_backed_kw=ups_backed_kw,
    )
