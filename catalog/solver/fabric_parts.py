"""Network parts: switches, optical transceivers and cables."""

from dataclasses import dataclass
from typing import Literal

from catalog.solver.parts import PartSpec
from core.solver.schema import spec_field


@dataclass(frozen=True, kw_only=True)
class SwitchSpec(PartSpec):
    technology: Literal["infiniband", "ethernet"] = spec_field("ethernet")
    ports: int = spec_field(minimum=1, maximum=4096, help="Native ports at port_gbps.")
    port_gbps: float = spec_field(unit="Gb/s", minimum=0, exclusive_minimum=True, maximum=10_000)
    ports_per_cage: int = spec_field(1, minimum=1, maximum=8, help="2 for a twin-port OSFP cage.")
    split: tuple[int, ...] = spec_field(
        (1,), help="Ways one port can be split, e.g. [1, 2] for 800G -> 2 x 400G."
    )
    uplink_ports: int = spec_field(0, minimum=0, maximum=256, help="Fixed extra uplinks.")
    uplink_gbps: float = spec_field(0.0, unit="Gb/s", minimum=0, maximum=10_000)
    power_w: float = spec_field(unit="W", minimum=0, maximum=200_000, help="Power without optics.")
    rack_units: int = spec_field(unit="U", minimum=1, maximum=60)
    weight_kg: float | None = spec_field(None, unit="kg", minimum=0, maximum=5_000)
    modular: bool = spec_field(False, help="A chassis switch with line cards.")

    def problems(self):
        yield from super().problems()
        if 1 not in self.split or any(ways < 1 or ways > 8 for ways in self.split):
            yield "split", "must list whole numbers from 1 to 8, including 1"
        if self.ports % self.ports_per_cage:
            yield "ports_per_cage", f"must divide the {self.ports} ports evenly"
        if self.uplink_ports and self.ports_per_cage > 1:
            # The fabric engine gives each fixed uplink a module of its own, the cabling plan
            # groups ports by cage: twin-port cages beside fixed uplinks are not modelled yet.
            yield "ports_per_cage", "must be 1 for a switch with fixed uplink ports (twin-port cages beside them are not modelled)"


@dataclass(frozen=True, kw_only=True)
class TransceiverSpec(PartSpec):
    form_factor: str = spec_field(min_length=1, max_length=40)
    gbps: float = spec_field(unit="Gb/s", minimum=0, exclusive_minimum=True, maximum=10_000)
    ports: int = spec_field(1, minimum=1, maximum=2, help="2 for a twin-port module.")
    reach_m: float = spec_field(unit="m", minimum=0, exclusive_minimum=True, maximum=100_000)
    fiber: Literal["multimode", "singlemode", "copper"] = spec_field("multimode")
    power_w: float = spec_field(unit="W", minimum=0, maximum=100)
    linear_drive: bool = spec_field(
        False,
        help="A linear-drive module (LPO, no DSP) that works only with hosts designed for it: used "
        "where a system names it (a scale-up network), never chosen for a fabric's ports.",
    )


@dataclass(frozen=True, kw_only=True)
class CableSpec(PartSpec):
    media: Literal["dac", "acc", "aoc", "fiber", "twisted_pair"] = spec_field()
    gbps: float = spec_field(unit="Gb/s", minimum=0, exclusive_minimum=True, maximum=10_000)
    reach_m: float = spec_field(unit="m", minimum=0, exclusive_minimum=True, maximum=100_000)
    stock_lengths_m: tuple[float, ...] = spec_field(())
    power_w: float = spec_field(0.0, unit="W", minimum=0, maximum=100, help="Power per end.")
    price_usd_per_m: float = spec_field(0.0, unit="USD/m", minimum=0, maximum=100_000)
