"""The fabrics section of a scenario: each fabric's switch, topology, placement and options."""

from dataclasses import dataclass
from typing import Any, Literal

from core.solver.schema import spec_field
from fabric.solver.dragonfly import DragonflySpec
from fabric.solver.media import LinkLengthsSpec, OpticalMedia


def _oversubscription_shorthand(value: Any) -> Any:
    """A bare number is the leaf's ratio, as in the format spec."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {"leaf": value}
    return value


@dataclass(frozen=True)
class OversubscriptionSpec:
    """Down:up bandwidth per tier; a bare number is the leaf ratio."""

    leaf: float = spec_field(
        1.0, minimum=0.25, maximum=64,
        help="Leaf downlink:uplink bandwidth; below 1 a leaf has more bandwidth up than down (headroom for failed links).",
    )
    spine: float = spec_field(
        1.0, minimum=0.25, maximum=64,
        help="Spine downlink:uplink bandwidth (three tiers); below 1 more up than down.",
    )


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
        default_factory=OversubscriptionSpec, before=_oversubscription_shorthand, shorthand="leaf"
    )
    planes: int = spec_field(1, minimum=1, maximum=16, help="Independent parallel fabrics.")
    backup_ports: int = spec_field(
        0, minimum=0, maximum=1_024,
        help="Down links per leaf held as backups for standby systems: they take ports but no "
        "share of the oversubscription (Alibaba HPN: 8 of 136 per ToR).",
    )
    leaves_per_pod: int | None = spec_field(
        None, minimum=1, maximum=100_000,
        help="Leaves in one pod under its own spines, the pods joined by a core tier (a top-of-rack "
        "leaf is a rack; rail-optimized pods hold whole scalable units); by default as many as a "
        "spine reaches.",
    )
    inter_switch_gbps: float | None = spec_field(
        None, unit="Gb/s", minimum=0, exclusive_minimum=True, maximum=10_000,
        help="Rate of leaf-spine and spine-core links; by default the switches' native port rate "
        "(an 800G port carries one 800G link), split only where that reaches with fewer tiers (a "
        "64 x 800G switch split 2 x 400G is radix 128).",
    )
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
        if self.leaves_per_pod is not None and self.topology == "dragonfly":
            yield "leaves_per_pod", "applies to Clos fabrics (fat_tree, rail_only), not to dragonfly"


@dataclass(frozen=True)
class FabricsSpec:
    """The networks to plan; a fabric left out is not planned."""

    compute: FabricSpec | None = None
    storage: FabricSpec | None = None
    inband: FabricSpec | None = None
    oob: FabricSpec | None = None
