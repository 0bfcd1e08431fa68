"""One plane of a fabric as counts: switches per tier and links per segment, before media.

A layout is what a topology builder (fat tree, rail-only, dragonfly) hands to the fabric
planner, which multiplies it by the planes, chooses media and optics and sums power.
"""

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from catalog.solver.fabric_parts import SwitchSpec
from core.solver.interfaces import EndpointGroup, PortEnd

if TYPE_CHECKING:
    from fabric.solver.dragonfly import DragonflyCounts
    from fabric.solver.specs import FabricSpec


@dataclass(frozen=True)
class TierLayout:
    role: str
    switch: SwitchSpec
    switches: int
    placement: dict[str, int]
    ports_used: int
    """Native ports with links, all switches of the tier (one plane)."""
    down_links_per_switch: int
    """Down links one switch can take (its down ports x their split)."""
    up_links_per_switch: int
    """Up links each switch cables."""
    down_ports: int = 0
    """Native ports facing down on one switch."""
    split: int = 1
    """Links per down port."""
    up_split: int = 1
    """Links per up port."""
    oversubscription: float | None = None
    """Down:up bandwidth the fullest switch of the tier delivers; None at the top tier."""
    reserved_links_per_switch: int = 0
    """Down links held as backups on each switch, after its down_links_per_switch."""
    oversubscription_asked: float | None = None
    """The down:up ratio the fabric asked of this tier; None at the top tier."""
    up_links_per_unit: int = 1
    """Uplinks of one switch dealt together to one upper switch (a cage's links)."""


@dataclass(frozen=True)
class SegmentLayout:
    segment: str
    """node-leaf, leaf-spine, spine-core, local, global."""
    from_: str
    to: str
    links: int
    """One plane."""
    gbps: float
    length_m: float
    lower: PortEnd
    upper: PortEnd
    lower_is_nic: bool = False
    run: str = ""
    """The LinkLengthsSpec field its length comes from, so measured lengths can replace it."""


@dataclass(frozen=True)
class PlaneLayout:
    tier_count: int
    tiers: tuple[TierLayout, ...]
    segments: tuple[SegmentLayout, ...]
    endpoint_gbps: float
    """Bandwidth the endpoints send into one plane [Gb/s]."""
    narrowest_gbps: float
    """Bandwidth of the narrowest tier (endpoints included) of one plane [Gb/s]."""
    max_switch_hops: int
    endpoint_links_per_leaf: int
    nodes_per_leaf: int
    scalable_units: int = 0
    pods: int = 0
    leaves_per_pod: int = 0
    """Leaves a pod is built for (the last pod may hold fewer); 0 for one switch or dragonfly."""
    spines_per_pod: int = 0
    """Spines of a full pod."""
    pod_spine_uplinks: int = 0
    """Uplinks each spine of a full pod cables (three tiers)."""
    last_pod_spines: int = 0
    last_pod_spine_uplinks: int = 0
    """Uplinks each spine of the last pod cables (three tiers): fewer when it is partly filled."""
    dragonfly: "DragonflyCounts | None" = None
    warnings: tuple[str, ...] = field(default_factory=tuple)


def switch_end(switch: SwitchSpec, split: int = 1) -> PortEnd:
    """A switch's port end: one module per cage of ports_per_cage ports, each split `split` ways."""
    return PortEnd(switch.port_gbps * switch.ports_per_cage, switch.ports_per_cage * split)


def uplink_end(switch: SwitchSpec, split: int = 1) -> PortEnd:
    """The up end of a switch: its dedicated uplink ports when it has them, else its cages with
    their ports split `split` ways."""
    if switch.uplink_ports:
        return PortEnd(switch.uplink_gbps, 1)
    return switch_end(switch, split)


@dataclass(frozen=True)
class FabricContext:
    """What every topology builder needs to know about the fabric it lays out."""

    name: str
    """compute, storage, inband or oob: the errors' paths are fabrics.<name>.<field>."""
    spec: "FabricSpec"
    switch: SwitchSpec
    spine_switch: SwitchSpec
    endpoints: tuple[EndpointGroup, ...]
    """The first group is the systems in compute racks; the rest are spread over the leaves."""
    nodes_per_rack: int | None
    switches: dict[str, SwitchSpec]
    """The catalog's switches, to suggest one that would work."""

    def path(self, key: str) -> str:
        return f"fabrics.{self.name}.{key}"

    @property
    def link_gbps(self) -> float:
        """Rate of the fastest endpoint link in one plane: NIC rate / planes."""
        return max(group.port_gbps for group in self.endpoints) / self.spec.planes

    @property
    def endpoint_links(self) -> int:
        """Endpoint links of one plane."""
        return sum(group.count * group.ports_per_endpoint for group in self.endpoints)

    @property
    def endpoint_gbps(self) -> float:
        return sum(
            group.count * group.ports_per_endpoint * group.port_gbps / self.spec.planes
            for group in self.endpoints
        )
