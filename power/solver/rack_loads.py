"""What one rack draws, gives off, needs and weighs, for each group of identical racks."""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from power.solver.heat import (
    air_flow_cfm,
    air_flow_m3_per_h,
    delta_t_f_from_k,
    rack_heat_btu_per_h,
    water_flow_l_per_min,
)
from power.solver.pdu import rack_pdus
from power.solver.specs import FacilitySpec, RacksSpec

if TYPE_CHECKING:
    from catalog.solver.power_parts import RackTypeSpec
    from catalog.solver.snapshot import CatalogSnapshot

RackKind = Literal["compute", "network", "storage", "management"]

RACK_SCALE_WIDTH_M = 0.6
RACK_SCALE_DEPTH_M = 1.068
"""A rack-scale system's own rack: the GB200 NVL72 MGX rack is 600 x 1,068 mm (orv3-48ou)."""


def rack_footprint_m(rack_type: "RackTypeSpec | None") -> tuple[float, float]:
    """Width and depth [m] of a rack type; a rack-scale system's own rack when there is none."""
    if rack_type is None:
        return RACK_SCALE_WIDTH_M, RACK_SCALE_DEPTH_M
    return rack_type.width_mm / 1_000, rack_type.depth_mm / 1_000


@dataclass(frozen=True)
class RackItem:
    """So many of one piece of equipment in one rack."""

    slug: str
    """Catalog slug (or `management-server` for the scenario's management servers)."""
    count: int


@dataclass(frozen=True)
class RackGroup:
    """Identical racks as packing leaves them: what one holds, draws and weighs."""

    kind: RackKind
    count: int
    rack_type: str
    """Catalog slug of the enclosure; a rack-scale system's own slug when it is the rack."""
    contents: tuple[RackItem, ...]
    units_used: int
    usable_u: int
    it_kw: float
    equipment_weight_kg: float
    cooling: str = ""
    """Cooling type slug; empty means the hall's (racks.cooling)."""
    fabric: str = ""
    """For network racks: the fabric whose switches they hold."""
    rack_scale: bool = False


@dataclass(frozen=True)
class RackGroupResult:
    """One group of identical racks, fully described. Totals are for one rack."""

    kind: RackKind
    count: int
    rack_type: str
    fabric: str
    contents: tuple[RackItem, ...]
    units_used: int
    usable_u: int
    it_kw: float
    heat_btu_per_h: float
    cooling: str
    liquid_kw: float
    """Heat carried away by liquid at the rack (cold plates, rear door, immersion)."""
    air_kw: float
    """Heat left to the room air."""
    air_flow_cfm: float
    """Air through the rack for its air share at facility.air_delta_t_k."""
    air_flow_m3_per_h: float
    liquid_flow_l_per_min: float
    """Coolant for its liquid share at facility.water_delta_t_k."""
    pdu: str
    pdus: int
    pdus_per_feed: int
    pdu_capacity_kw: float
    """Continuous kW of one PDU (after derating)."""
    carries_rack_on_one_feed: bool
    weight_kg: float
    """Equipment plus the empty rack (racks.empty_rack_weight_kg)."""
    footprint_m2: float
    floor_load_kg_per_m2: float
    """Weight over the rack's own footprint: what the floor under it must carry."""


def describe_rack_group(
    group: RackGroup, racks: RacksSpec, facility: FacilitySpec, catalog: "CatalogSnapshot"
) -> RackGroupResult:
    """Heat, air and liquid flow, PDUs and weight of one rack of `group`.

    heat = 3.412 BTU/h per W of IT power; the liquid share is the cooling type's liquid_fraction
    of the heat, the rest is air; flows from `heat` (air at air_delta_t_k, water at
    water_delta_t_k); PDUs from `pdu.rack_pdus`; weight = equipment + empty rack (a rack-scale
    system's weight already includes its rack).
    """
    cooling_slug = group.cooling or racks.cooling
    cooling = catalog.cooling_types[cooling_slug]
    liquid_kw = group.it_kw * cooling.liquid_fraction
    air_kw = group.it_kw - liquid_kw
    pdu = catalog.pdus[racks.pdu]
    pdus = rack_pdus(group.it_kw, pdu, racks.power_feeds, racks.pdus_per_rack)
    enclosure_kg = 0.0 if group.rack_scale else racks.empty_rack_weight_kg
    weight_kg = group.equipment_weight_kg + enclosure_kg
    rack_type = catalog.rack_types.get(group.rack_type)
    width_m, depth_m = rack_footprint_m(rack_type)
    footprint_m2 = width_m * depth_m
    return RackGroupResult(
        kind=group.kind,
        count=group.count,
        rack_type=group.rack_type,
        fabric=group.fabric,
        contents=group.contents,
        units_used=group.units_used + pdus.pdus * pdu.rack_units,
        usable_u=group.usable_u,
        it_kw=group.it_kw,
        heat_btu_per_h=rack_heat_btu_per_h(group.it_kw),
        cooling=cooling_slug,
        liquid_kw=liquid_kw,
        air_kw=air_kw,
        air_flow_cfm=air_flow_cfm(1_000 * air_kw, delta_t_f_from_k(facility.air_delta_t_k)),
        air_flow_m3_per_h=air_flow_m3_per_h(1_000 * air_kw, facility.air_delta_t_k),
        liquid_flow_l_per_min=water_flow_l_per_min(liquid_kw, facility.water_delta_t_k),
        pdu=pdu.slug,
        pdus=pdus.pdus,
        pdus_per_feed=pdus.pdus_per_feed,
        pdu_capacity_kw=pdus.capacity_kw_per_pdu,
        carries_rack_on_one_feed=pdus.carries_rack_on_one_feed,
        weight_kg=weight_kg,
        footprint_m2=footprint_m2,
        floor_load_kg_per_m2=weight_kg / footprint_m2,
    )
