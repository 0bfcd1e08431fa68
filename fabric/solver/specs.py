"""The fabrics section of a scenario: each fabric's switch, topology, placement and options."""

from dataclasses import dataclass
from typing import Any, Literal

from fabric.solver.dragonfly import DragonflySpec
from fabric.solver.media import LinkLengthsSpec, OpticalMedia
from planner.solver.schema import spec_field


def _oversubscription_shorthand(value: Any) -> Any:
    """A bare number is the leaf's ratio, as in the format spec."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {"leaf": value}
    return value


@dataclass(frozen=True)
class OversubscriptionSpec:
    """Down:up bandwidth per tier; a bare number is the leaf ratio."""

    leaf: float = spec_field(1.0, minimum=1, maximum=64, help="Leaf downlink:uplink bandwidth.")
    spine: float = spec_field(1.0, minimum=1, maximum=64, help="Spine downlink:uplink bandwidth.")


@dataclass(frozen=True)
class FabricSpec:
    """One network fabric: its switch, topology, leaf placement, tiers, planes and options."""

    switch: str = spec_field(min_length=1, max_length=80, help="Catalog slug of the switch.")
    topology: Literal["fat_tree", "rail_only", "dragonfly"] = spec_field(
        "fat_tree", help="fat_tree: folded Clos of 2 or 3 tiers; rail_only: one fabric per rail; dragonfly."
    )
    leaf_placement: Literal["rail_optimized", "top_of_rack"] = spec_field(
        "rail_optimized",
        help="rail_optimized: NIC i of every node of a unit to leaf i, in network racks; top_of_rack: a leaf in each rack.",
    )
    tiers: Literal["auto", 2, 3] = spec_field("auto", help="Switch tiers of a fat tree.")
    oversubscription: OversubscriptionSpec = spec_field(
        default_factory=OversubscriptionSpec, before=_oversubscription_shorthand
    )
    planes: int = spec_field(1, minimum=1, maximum=16, help="Independent parallel fabrics.")
    spine_switch: str | None = spec_field(
        None, min_length=1, max_length=80,
        help="Catalog slug of the spine and core switches; the leaf switch when left out.",
    )
    dragonfly: DragonflySpec | None = spec_field(
        None, help="Dragonfly p, a, h; what is left out is balanced (a = 2p = 2h) within the radix."
    )
    fabric_manager_ports: int = spec_field(
        0, minimum=0, maximum=64,
        help="Leaf ports taken by a fabric manager appliance (NVIDIA UFM: 4 in the H100 SuperPOD).",
    )
    fabric_manager: str = spec_field(
        "ufm-enterprise-appliance", min_length=1, max_length=80,
        help="Catalog slug of the fabric manager appliance (a server part), used when "
        "fabric_manager_ports is above 0: as many as its fabric ports need.",
    )
    optical_media: OpticalMedia = spec_field(
        "transceivers", help="Beyond copper reach: transceivers plus fiber, or active optical cables."
    )
    link_lengths: LinkLengthsSpec = spec_field(
        default_factory=LinkLengthsSpec,
        help="Assumed cable runs, used where the floor layout has no racks to measure (lengths measured on the floor replace them).",
    )

    def problems(self):
        if self.dragonfly is not None and self.topology != "dragonfly":
            yield "dragonfly", "applies only to topology: dragonfly"


@dataclass(frozen=True)
class FabricsSpec:
    """The networks to plan; a fabric left out is not planned."""

    compute: FabricSpec | None = None
    storage: FabricSpec | None = None
    inband: FabricSpec | None = None
    oob: FabricSpec | None = None
