"""Facility parts: rack types, rack PDUs, cooling types and cooling plant units."""

from dataclasses import dataclass
from typing import Literal

from catalog.solver.parts import PartSpec
from core.solver.schema import spec_field

CoolingName = Literal["air", "rear_door", "direct_liquid", "immersion"]
PowerFeeds = Literal["a_b", "single"]
"""a_b: two independent feeds (A and B), each sized to carry the whole rack; single: one feed."""
Redundancy = Literal["N", "N+1", "2N"]
"""N: just enough units; N+1: one spare unit; 2N: a second, complete set."""
Climate = Literal["cool", "temperate", "hot"]
"""How many hours of the year outdoor air (or water) cools without compressors: many, some, few."""
NetworkPlacement = Literal["middle_of_row", "end_of_row", "central_rows"]
"""Where network racks stand on the floor."""


@dataclass(frozen=True, kw_only=True)
class RackTypeSpec(PartSpec):
    usable_u: int = spec_field(unit="U", minimum=1, maximum=60)
    width_mm: float = spec_field(unit="mm", minimum=0, exclusive_minimum=True, maximum=3_000)
    depth_mm: float = spec_field(unit="mm", minimum=0, exclusive_minimum=True, maximum=3_000)
    height_mm: float = spec_field(unit="mm", minimum=0, exclusive_minimum=True, maximum=4_000)
    static_load_kg: float = spec_field(unit="kg", minimum=0, exclusive_minimum=True, maximum=20_000)


@dataclass(frozen=True, kw_only=True)
class PduSpec(PartSpec):
    voltage_v: float = spec_field(unit="V", minimum=0, exclusive_minimum=True, maximum=1_000)
    phases: Literal[1, 3] = spec_field(3)
    current_a: float = spec_field(unit="A", minimum=0, exclusive_minimum=True, maximum=1_000)
    continuous_derating: float = spec_field(
        1.0, minimum=0, exclusive_minimum=True, maximum=1,
        help="0.8 under North American NEC practice; 1.0 for IEC-rated circuits.",
    )
    outlets: int = spec_field(minimum=1, maximum=200)
    rack_units: int = spec_field(0, unit="U", minimum=0, maximum=4)
    management_ports: int = spec_field(
        1, minimum=0, maximum=4,
        help="Network (RJ45) ports of a metered or switched PDU, cabled to the oob network; 0 for a basic PDU.",
    )


@dataclass(frozen=True, kw_only=True)
class CoolingTypeSpec(PartSpec):
    max_rack_kw: float = spec_field(unit="kW", minimum=0, exclusive_minimum=True, maximum=2_000)
    liquid_fraction: float = spec_field(minimum=0, maximum=1, help="Share of heat taken by liquid.")
    typical_pue: float = spec_field(minimum=1, maximum=5)
    price_usd_per_kw: float = spec_field(0.0, unit="USD/kW", minimum=0, maximum=1e6)


@dataclass(frozen=True, kw_only=True)
class CoolingUnitSpec(PartSpec):
    kind: Literal["cdu", "crah", "rdhx", "chiller", "dry_cooler", "cooling_tower"] = spec_field()
    capacity_kw: float = spec_field(unit="kW", minimum=0, exclusive_minimum=True, maximum=100_000)
    power_kw: float = spec_field(unit="kW", minimum=0, maximum=10_000)
    rack_units: int = spec_field(0, unit="U", minimum=0, maximum=60)
