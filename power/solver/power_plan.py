"""The power step of the pipeline: racks, floor, cooling and facility from the cluster's parts,
with the bill-of-materials lines and the warnings they call for.

Inputs from other steps are plain parameters, so each can be plugged in as it is built:
switch groups from the fabric engine (empty without fabrics), (slug, count) pairs from
storage sizing, and the optics' power from the cable-media step.
"""

from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from catalog.solver.parts import SystemSpec
from core.solver.interfaces import SwitchGroup
from core.solver.kept import kept
from core.solver.management import ServerGroup, server_counts
from core.solver.part_counts import PartCount
from power.solver.cooling_fit import cooling_mismatch_warning
from power.solver.cooling_plant import (
    BOUGHT_WITH_CLUSTER,
    WARM_WATER_COOLING,
    CoolingPlantResult,
    cooling_unit_paid_by,
    size_cooling_plant,
)
from power.solver.facility import FACILITY_POWER_FIELDS, PowerResult, size_facility
from power.solver.rack_packing import RackGroup, RacksResult, pack_racks
from power.solver.specs import FacilitySpec, RacksSpec
from power.solver.support_racks import management_equipment

if TYPE_CHECKING:
    from catalog.solver.snapshot import CatalogSnapshot

STRANDED_SHARE_TO_WARN = 0.25
"""Warn when a quarter or more of every compute rack's power budget cannot be used."""


@dataclass(frozen=True)
class RacksAndPower:
    racks: RacksResult
    power: PowerResult
    part_counts: list[PartCount]
    warnings: list[str]


def in_rack_cdu_units(racks: RacksSpec, facility: FacilitySpec, catalog: "CatalogSnapshot") -> int:
    """Rack units an in-rack CDU takes in each liquid-cooled compute rack (0 for row CDUs)."""
    if facility.cdu == "auto" or racks.cooling not in WARM_WATER_COOLING:
        return 0
    return catalog.cooling_units[facility.cdu].rack_units


@dataclass(frozen=True)
class RackDemand:
    """What the racks hold, the catalog aside: the compute systems, each fabric's switches and
    the power of the modules in their ports, storage systems and servers. Hashable: with the
    facility's air and water temperature rises, the in-rack CDU's units and the floor's layout
    it is the packing cache's key (`packing_key`).

    - `switch_groups` come from the fabric engine (none without fabrics); their placement says
      whether they sit in compute, network or storage racks.
    - `storage_systems` are (catalog slug, count) pairs from storage sizing.
    - `optics_kw` are (switch slug, kW) pairs: the modules in each switch model's ports, all of
      that model's switches together.
    - `servers` are the fabric managers and management servers (`management.server_groups`).
    """

    total_nodes: int
    system: SystemSpec
    """With any NIC modules its rating leaves out (see the pipeline)."""
    racks: RacksSpec
    switch_groups: tuple[SwitchGroup, ...] = ()
    storage_systems: tuple[tuple[str, int], ...] = ()
    optics_kw: tuple[tuple[str, float], ...] = ()
    servers: tuple[ServerGroup, ...] = ()

    @classmethod
    def of(
        cls, total_nodes: int, system: SystemSpec, racks: RacksSpec, *, switch_groups: Sequence[SwitchGroup] = (),
        storage_systems: Sequence[tuple[str, int]] = (), optics_kw_by_switch: dict[str, float] | None = None,
        servers: Sequence[ServerGroup] = (),
    ) -> "RackDemand":
        return cls(total_nodes, system, racks, tuple(switch_groups), tuple(storage_systems),
                   tuple((optics_kw_by_switch or {}).items()), tuple(servers))

    @property
    def optics_kw_by_switch(self) -> dict[str, float]:
        return dict(self.optics_kw)


def it_kw_by_category(demand: RackDemand, catalog: "CatalogSnapshot") -> dict[str, float]:
    """IT power [kW] at maximum input: compute systems (with any NIC modules their rating leaves
    out, see the pipeline), network (switches and the modules in their ports), storage systems,
    management servers and fabric managers."""
    switches_w = sum(g.count * catalog.switches[g.switch].power_w for g in demand.switch_groups)
    storage_kw = sum(
        (count * catalog.storage_systems[slug].power_kw for slug, count in demand.storage_systems), 0.0
    )
    management = management_equipment(server_counts(demand.servers), demand.racks, catalog)
    return {
        "compute": float(demand.total_nodes * demand.system.power_kw),
        "network": switches_w / 1_000 + sum(kw for _, kw in demand.optics_kw),
        "storage": storage_kw,
        "management": sum((count * equipment.power_kw for equipment, count in management), 0.0),
    }


@dataclass(frozen=True)
class CooledRacks:
    """All of `racks_and_power` but the facility's power: the racks, their cooling plant, IT
    load, parts and warnings, none of which reads the PUE, energy, backup or loss fields
    (`facility.FACILITY_POWER_FIELDS`)."""

    racks: RacksResult
    cooling: CoolingPlantResult
    it_kw_by_category: dict[str, float]
    pdus: int
    """Rack PDUs in all racks."""
    part_counts: tuple[PartCount, ...]
    warnings: tuple[str, ...]


def racks_and_power(demand: RackDemand, facility: FacilitySpec, catalog: "CatalogSnapshot", **options) -> RacksAndPower:
    """Pack and lay out every rack, size cooling and facility, and list parts and warnings:
    `cooled_racks` (its options), then the facility's power (`cooled_power`)."""
    cooled = cooled_racks(demand, facility, catalog, **options)
    return RacksAndPower(cooled.racks, cooled_power(cooled, facility), list(cooled.part_counts), list(cooled.warnings))


def cooled_racks(
    demand: RackDemand,
    facility: FacilitySpec,
    catalog: "CatalogSnapshot",
    *,
    finance_facility: str = "leased",
    lay_out_floor: bool = True,
    packing_cache: MutableMapping | None = None,
    compute_racks: tuple[RacksResult, Sequence[RackGroup]] | None = None,
    compute_kw: float | None = None,
    packed: RacksResult | None = None,
    compute_warnings: bool | None = None,
) -> CooledRacks:
    """Pack and lay out every rack, size the cooling plant, and list parts and warnings.

    `finance_facility` (leased or built) says what pays for the building's cooling plant
    (`cooling_plant.cooling_unit_paid_by`). `lay_out_floor` False leaves the floor out (see
    `pack_racks`). `packing_cache`: see `packed_racks`. `packed` is the racks `packed_racks`
    gave for this same demand (the pipeline's last plan-and-pack round), not packed again.

    A site packs each pool's compute racks itself and gives them in `compute_racks` (see
    `pack_racks`) with their systems' kW in `compute_kw`; the warnings about compute racks are
    then the caller's, pool by pool (`compute_rack_warnings`), unless `compute_warnings` (one
    pool: the demand's system and racks are the pool's)."""
    if packed is None:
        packed = packed_racks(
            demand, facility, catalog, lay_out_floor=lay_out_floor, packing_cache=packing_cache,
            compute_racks=compute_racks,
        )
    cooling = size_cooling_plant(packed.per_rack, facility, catalog)
    it_kw = it_kw_by_category(demand, catalog)
    if compute_kw is not None:
        it_kw["compute"] = compute_kw
    return CooledRacks(
        racks=packed,
        cooling=cooling,
        it_kw_by_category=it_kw,
        pdus=sum(group.pdus * group.count for group in packed.per_rack),
        part_counts=tuple(power_part_counts(packed, cooling, catalog, finance_facility)),
        warnings=tuple(power_warnings(
            packed, cooling, demand.system, demand.racks, facility, catalog,
            compute_racks is None if compute_warnings is None else compute_warnings,
        )),
    )


def cooled_power(cooled: CooledRacks, facility: FacilitySpec) -> PowerResult:
    """The facility's power, PUE, backup power and year of operation for the cooled racks."""
    return size_facility(cooled.it_kw_by_category, cooled.cooling, facility, pdus=cooled.pdus)


def cooled_racks_facility(facility: FacilitySpec) -> tuple:
    """The facility as `cooled_racks` reads it: every field but those the facility's power alone
    reads (`FACILITY_POWER_FIELDS`), for a key of the cooled racks."""
    return tuple(getattr(facility, name) for name in _COOLED_RACKS_FIELDS)


_COOLED_RACKS_FIELDS = tuple(
    spec_field.name for spec_field in fields(FacilitySpec) if spec_field.name not in FACILITY_POWER_FIELDS
)


def packed_racks(
    demand: RackDemand,
    facility: FacilitySpec,
    catalog: "CatalogSnapshot",
    *,
    lay_out_floor: bool = True,
    packing_cache: MutableMapping | None = None,
    compute_racks: tuple[RacksResult, Sequence[RackGroup]] | None = None,
    equipment: dict | None = None,
) -> RacksResult:
    """The racks of `racks_and_power` alone, without cooling, facility, parts or warnings: all
    that a plan-and-pack round before the last reads (systems and PDUs per rack).
    `packing_cache` keeps each packing by its inputs, for the designs of a sweep that differ
    only in what comes after the racks (PUE, climate, prices); one catalog for every design
    that uses it. A site's `compute_racks` (see `racks_and_power`) are not kept; `equipment`: see
    `pack_racks`."""
    reserved_u = in_rack_cdu_units(demand.racks, facility, catalog)
    return kept(
        packing_cache if compute_racks is None else None,
        lambda: packing_key(demand, facility, reserved_u, lay_out_floor),
        lambda: pack_racks(
            demand.total_nodes, demand.system, demand.racks, catalog,
            switch_groups=demand.switch_groups, storage_systems=demand.storage_systems, servers=demand.servers,
            optics_kw_by_switch=demand.optics_kw_by_switch, facility=facility,
            reserved_u_per_compute_rack=reserved_u, lay_out=lay_out_floor, compute_racks=compute_racks,
            cache=packing_cache, equipment=equipment,
        ),
    )


def packing_key(demand: RackDemand, facility: FacilitySpec, reserved_u: int, lay_out_floor: bool) -> tuple:
    """Every input of `pack_racks`, the catalog aside: of the facility only the air and water
    temperature rises reach the racks (their air and water flow)."""
    return ("racks", demand, facility.air_delta_t_k, facility.water_delta_t_k, reserved_u, lay_out_floor)


def rack_pdu_counts(racks: RacksResult) -> dict[str, int]:
    """PDUs racked, by catalog slug: the sum over the rack groups of PDUs per rack x racks."""
    pdus: dict[str, int] = {}
    for group in racks.per_rack:
        if group.pdus:
            pdus[group.pdu] = pdus.get(group.pdu, 0) + group.pdus * group.count
    return pdus


def power_part_counts(
    racks: RacksResult, cooling: CoolingPlantResult, catalog: "CatalogSnapshot", finance_facility: str = "leased"
) -> list[PartCount]:
    """Bill-of-materials lines: enclosures (a rack-scale system brings its own), PDUs, the
    management servers and fabric managers racked, and the
    cooling units the cluster buys: CDUs and rear doors, not the building's chillers, dry
    coolers, towers and air handlers, which the colocation fee or the construction cost per MW
    already pays for (`cooling_plant.cooling_unit_paid_by`)."""
    counts = [
        PartCount("racks", group.rack_type, group.count)
        for group in racks.per_rack
        if group.rack_type in catalog.rack_types
    ]
    counts += [PartCount("power", slug, quantity) for slug, quantity in rack_pdu_counts(racks).items()]
    counts += [PartCount("management", slug, count) for slug, count in server_counts(racks.servers)]
    counts += [
        PartCount("cooling", unit.unit, unit.count)
        for unit in cooling.units
        if cooling_unit_paid_by(unit.kind, finance_facility) == BOUGHT_WITH_CLUSTER
    ]
    return counts


def power_warnings(
    racks: RacksResult,
    cooling: CoolingPlantResult,
    system: SystemSpec,
    racks_spec: RacksSpec,
    facility: FacilitySpec,
    catalog: "CatalogSnapshot",
    of_compute_racks: bool = True,
) -> list[str]:
    """Plain sentences about racks their cooling, floor or PDUs cannot carry, and stranded power.
    `of_compute_racks` False leaves out those about the compute racks of `system`
    (`compute_rack_warnings`: a site asks for them pool by pool)."""
    warnings = []
    if of_compute_racks:
        warnings += _rack_type_warnings(system, racks_spec, catalog)
        warnings += _cooling_fit_warnings(system, racks_spec)
        warnings += _cooling_limit_warnings(racks, system, racks_spec, catalog)
    for group in racks.per_rack:
        plural = _racks(group.count, group.kind)
        # "1 compute rack weighs ... over its", "2 compute racks weigh ... each, over their"
        one = group.count == 1
        weigh, draw, their = ("weighs", "draws", "its") if one else ("weigh", "draw", "their")
        if group.floor_load_kg_per_m2 > facility.floor_load_limit_kg_per_m2:
            warnings.append(
                f"{plural} {weigh} {group.weight_kg:,.0f} kg{'' if one else ' each'}, "
                f"{group.floor_load_kg_per_m2:,.0f} kg/m² over {their} {group.footprint_m2:.2f} m² "
                f"footprint, beyond the floor's {facility.floor_load_limit_kg_per_m2:,.0f} kg/m² "
                f"(facility.floor_load_limit_kg_per_m2): spread the load with plates, leave gaps, "
                f"or build on a stronger floor."
            )
        if not group.carries_rack_on_one_feed and racks_spec.power_feeds == "a_b":
            warnings.append(
                f"{plural} {draw} {group.it_kw:g} kW but the {group.pdus_per_feed} PDU(s) of one "
                f"feed carry {group.pdus_per_feed * group.pdu_capacity_kw:g} kW: losing a feed "
                f"would overload the other; use more PDUs per rack (racks.pdus_per_rack) or a "
                f"larger PDU (racks.pdu)."
            )
        elif group.pdus * group.pdu_capacity_kw < group.it_kw - 1e-9:
            warnings.append(
                f"{plural} {draw} {group.it_kw:g} kW, more than {their} {group.pdus} PDU(s) carry "
                f"({group.pdus * group.pdu_capacity_kw:g} kW): use more PDUs per rack or a "
                f"larger PDU."
            )
    warnings += _plant_warnings(racks, cooling, catalog)
    if of_compute_racks:
        warnings += _stranded_power_warnings(racks, system, racks_spec)
    return warnings


def compute_rack_warnings(
    racks: RacksResult, system: SystemSpec, racks_spec: RacksSpec, catalog: "CatalogSnapshot"
) -> list[str]:
    """The warnings about one system's compute racks alone (one pool of a site): a rack type
    shorter than racks.usable_u, cooling the system is not built for, cooling that limits the
    systems per rack, stranded power."""
    return (
        _rack_type_warnings(system, racks_spec, catalog)
        + _cooling_fit_warnings(system, racks_spec)
        + _cooling_limit_warnings(racks, system, racks_spec, catalog)
        + _stranded_power_warnings(racks, system, racks_spec)
    )


def _rack_type_warnings(system: SystemSpec, racks_spec: RacksSpec, catalog: "CatalogSnapshot") -> list[str]:
    rack_type = catalog.rack_types.get(racks_spec.rack_type)
    if rack_type is not None and not system.rack_scale and racks_spec.usable_u > rack_type.usable_u:
        return [
            f"racks.usable_u is {racks_spec.usable_u} U but a {rack_type.name} offers only "
            f"{rack_type.usable_u} U: choose a taller rack type or fewer rack units."
        ]
    return []


def _cooling_fit_warnings(system: SystemSpec, racks_spec: RacksSpec) -> list[str]:
    warning = cooling_mismatch_warning(system, racks_spec.cooling)
    return [warning] if warning else []


def _racks(count: int, kind: str) -> str:
    return f"{count:,} {kind} rack" + ("s" if count != 1 else "")


def _cooling_limit_warnings(
    racks: RacksResult, system: SystemSpec, racks_spec: RacksSpec, catalog: "CatalogSnapshot"
) -> list[str]:
    if racks.limited_by != "racks.cooling":
        return []
    limits = racks.nodes_per_rack_by_limit
    others = {path: count for path, count in limits.items() if path != "racks.cooling"}
    if not others or min(others.values()) <= racks.nodes_per_rack:
        return []
    allowed = min(others.values())
    other_kw = racks.compute_rack_it_kw - racks.nodes_per_rack * system.power_kw
    wanted_kw = allowed * system.power_kw + other_kw
    cooling = catalog.cooling_types[racks_spec.cooling]
    better = sorted(
        name for name, option in catalog.cooling_types.items()
        if option.max_rack_kw >= wanted_kw
        and (option.liquid_fraction > 0 or not system.liquid_cooling_required)
    )
    would = f"; {' or '.join(better)} cooling would remove that" if better else ""
    return [
        f"{racks_spec.cooling} cooling removes at most {cooling.max_rack_kw:g} kW per rack, so "
        f"each compute rack holds {racks.nodes_per_rack} {system.name} where the other limits "
        f"allow {allowed} ({wanted_kw:g} kW){would}."
    ]


def _plant_warnings(
    racks: RacksResult, cooling: CoolingPlantResult, catalog: "CatalogSnapshot"
) -> list[str]:
    """A rack whose liquid share is more than its own rear door or in-rack CDU removes."""
    warnings = []
    for unit in cooling.units:
        spec = catalog.cooling_units[unit.unit]
        if unit.role == "rear_doors":
            served = {"rear_door"}
        elif unit.role == "cdus" and spec.rack_units:
            served = set(WARM_WATER_COOLING)
        else:
            continue
        for group in racks.per_rack:
            if group.cooling in served and group.liquid_kw > spec.capacity_kw + 1e-9:
                warnings.append(
                    f"{_racks(group.count, group.kind)} give {group.liquid_kw:g} kW to liquid, "
                    f"more than the {spec.capacity_kw:g} kW one {spec.name} removes: choose a "
                    f"stronger cooling type or fewer kW per rack."
                )
    return warnings


def _stranded_power_warnings(
    racks: RacksResult, system: SystemSpec, racks_spec: RacksSpec
) -> list[str]:
    if system.rack_scale:
        return []
    warnings = []
    budget = racks_spec.power_budget_kw
    full_kw = racks.compute_rack_it_kw
    if racks.compute > 1 and racks.nodes_in_last_rack * 2 < racks.nodes_per_rack:
        missing = racks.nodes_per_rack - racks.nodes_in_last_rack
        unused = budget - (full_kw - missing * system.power_kw)
        warnings.append(
            f"The last compute rack holds {racks.nodes_in_last_rack} of {racks.nodes_per_rack} "
            f"systems: {unused:g} kW of its {budget:g} kW power budget stay unused."
        )
    stranded_kw = budget - full_kw
    power_bound = racks.limited_by == "racks.power_budget_kw"
    if not power_bound and stranded_kw >= STRANDED_SHARE_TO_WARN * budget:
        warnings.append(
            f"Each full compute rack draws {full_kw:g} kW of its {budget:g} kW power budget "
            f"(limited by {racks.limited_by}): {stranded_kw:g} kW per rack, "
            f"{stranded_kw * racks.compute:,.0f} kW over {racks.compute:,} racks, stay stranded."
        )
    return warnings
