"""Storage parts: appliances and servers of each storage tier."""

from dataclasses import dataclass
from typing import Literal

from catalog.solver.parts import PartSpec
from core.solver.schema import spec_field

StorageTier = Literal["hot_flash", "capacity_flash", "object", "disk"]


@dataclass(frozen=True, kw_only=True)
class StorageSystemSpec(PartSpec):
    tier: StorageTier = spec_field()
    usable_capacity_tb: float = spec_field(unit="TB", minimum=0, exclusive_minimum=True, maximum=1e6)
    read_gbytes_per_s: float = spec_field(unit="GB/s", minimum=0, exclusive_minimum=True, maximum=1e5)
    write_gbytes_per_s: float = spec_field(unit="GB/s", minimum=0, exclusive_minimum=True, maximum=1e5)
    ports: int = spec_field(minimum=1, maximum=1024)
    port_gbps: float = spec_field(unit="Gb/s", minimum=0, exclusive_minimum=True, maximum=10_000)
    power_kw: float = spec_field(unit="kW", minimum=0, exclusive_minimum=True, maximum=1_000)
    rack_units: int = spec_field(unit="U", minimum=1, maximum=60)
    weight_kg: float = spec_field(unit="kg", minimum=0, exclusive_minimum=True, maximum=10_000)
