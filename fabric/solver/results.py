"""What the fabric engine returns for one fabric: tiers, links, optics, cables and figures."""

from dataclasses import dataclass, field

from core.solver.interfaces import FabricName, PortEnd, SwitchGroup


@dataclass(frozen=True)
class TierResult:
    """The switches of one role, all planes together."""

    role: str
    """leaf, spine, core (Clos); rail (rail-only, one switch per rail); router (dragonfly)."""
    switches: int
    switch: str
    """Catalog slug."""
    placement: dict[str, int]
    """Switches by where they are racked: network_rack, compute_rack (top-of-rack leaves)."""
    ports_per_switch: int
    """Native ports of one switch (a split port counts once)."""
    ports_used: int
    """Native ports with at least one link, all switches of the tier."""
    ports_free: int
    down_links_per_switch: int
    """Links one switch can take from below (after splitting ports)."""
    up_links_per_switch: int
    """Links each switch cables up (for the down links it uses, at the asked ratio)."""
    power_kw: float
    """Switch power without optics, all switches of the tier."""
    down_ports: int = 0
    """Native ports facing down on one switch; the up ports follow them."""
    split: int = 1
    """Links per down port (a 64 x 800G port split 2 x 400G: 2)."""
    up_split: int = 1
    """Links per up port."""
    oversubscription: float | None = None
    """Down:up bandwidth the fullest switch of the tier delivers (the down bandwidth it uses
    against the uplinks it cables); None at the top tier."""
    oversubscription_asked: float | None = None
    """The ratio the fabric asked of this tier, beside the delivered one; None at the top tier."""
    up_links_per_unit: int = 1
    """Uplinks of one switch dealt together to one upper switch (a cage's links), where the
    upper switches do not all get equal links from it."""
    reserved_links_per_switch: int = 0
    """Down links held as backups on each switch (after the active ones; not cabled)."""
    ports_reserved: int = 0
    """Native ports of those backups, all switches of the tier (neither used nor free)."""


@dataclass(frozen=True)
class LinkResult:
    """One segment's physical links (cables), all planes together."""

    from_: str = field(metadata={"plan_key": "from"})
    to: str = ""
    count: int = 0
    segment: str = ""
    """node-leaf, leaf-spine, spine-core (Clos); node-rail (rail-only); local, global (dragonfly)."""
    gbps: float = 0.0
    """Rate of one link."""
    length_m: float = 0.0
    """Mean cable length: measured on the floor layout, or assumed (see LinkLengthsSpec)."""
    max_length_m: float = 0.0
    measured: bool = False
    """The lengths come from rack positions on the floor, not from the assumption."""
    media: str = ""
    """twisted_pair, dac, acc, aoc, or fiber (with transceivers): the medium of most links."""
    media_counts: dict[str, int] = field(default_factory=dict)
    """Links by medium (short runs may be copper, long ones optical)."""
    cable: str | None = None
    """Catalog slug of the cable of most links (FabricResult.cables has every one)."""
    cable_length_m: float = 0.0
    """Stock length bought for those links."""
    transceivers: int = 0
    """Optical modules on both ends of this segment."""
    lower_end: PortEnd | None = None
    """The lower end's cages as the optics see them (module rate, links per module)."""
    upper_end: PortEnd | None = None


@dataclass(frozen=True)
class PartQuantity:
    sku: str
    quantity: int


@dataclass(frozen=True)
class CableCount:
    """Cables of one part and stock length."""

    media: str
    cable: str | None
    length_m: float
    count: int


@dataclass(frozen=True)
class DragonflyResult:
    terminals_per_router: int
    routers_per_group: int
    global_links_per_router: int
    groups: int
    max_groups: int
    global_links_per_group_pair: int


@dataclass(frozen=True)
class FabricResult:
    name: FabricName | str
    """compute, storage, inband, oob; a site of several pools has compute-<pool> for each pool."""
    topology: str
    leaf_placement: str
    switch: str
    tier_count: int
    """Switch tiers of one plane (one rail for rail-only)."""
    planes: int
    endpoints: int
    """Devices attached (systems, appliances, switches' management ports)."""
    endpoint_links: int
    """Endpoint ports cabled, all planes."""
    tiers: tuple[TierResult, ...]
    links: tuple[LinkResult, ...]
    transceivers: int
    """Optical modules on both ends of every link, per module (a twin-port OSFP is one)."""
    transceiver_parts: tuple[PartQuantity, ...]
    cables: tuple[CableCount, ...]
    """Cables by media, part and stock length."""
    bisection_tbps: float
    """Bandwidth across the narrowest cut that halves the endpoints, all planes [Tb/s]."""
    oversubscription: float
    """Endpoint bandwidth over the bandwidth of the narrowest tier (1 = non-blocking)."""
    max_switch_hops: int
    """Switches crossed on the longest shortest path between two endpoints."""
    gpus_per_leaf: int
    """GPUs whose NIC ports sit on one leaf (or router): what a leaf failure takes out."""
    nodes_per_leaf: int
    switch_power_kw: float
    optics_power_kw: float
    """Transceivers and active cables, where the device that holds them is not rated with them
    (a system whose maximum power includes its NIC modules is not charged again)."""
    scalable_units: int
    """Rail-optimized units (one leaf per rail), or top-of-rack racks; 0 otherwise."""
    pods: int
    rails: int = 1
    """Rail-aligned ports of one system or tray (a GB200 NVL72 compute tray: 4)."""
    leaves_per_pod: int = 0
    """Leaves a pod is built for (the last may hold fewer); of one rail for rail-only."""
    spines_per_pod: int = 0
    """Spines of a full pod (of one rail for rail-only)."""
    pod_spine_uplinks: int = 0
    """Uplinks each spine of a full pod cables (three tiers); the tier's up_links_per_switch is
    the most any spine cables."""
    last_pod_spines: int = 0
    last_pod_spine_uplinks: int = 0
    """Uplinks each spine of the last pod cables (three tiers): fewer when it is partly filled."""
    optics_power_kw_by_device: dict[str, float] = field(default_factory=dict)
    """optics_power_kw by the catalog slug of the switch or system that holds the modules."""
    dragonfly: DragonflyResult | None = None
    warnings: tuple[str, ...] = ()
    media_warnings: tuple[str, ...] = ()
    """Links the catalog has no cable or transceiver for."""

    def switch_groups(self) -> tuple[SwitchGroup, ...]:
        """The switches of this fabric by role and placement, for rack packing and power."""
        groups: list[SwitchGroup] = []
        for tier in self.tiers:
            for placement, count in tier.placement.items():
                if count:
                    groups.append(SwitchGroup(self.name, tier.role, tier.switch, count, placement))
        return tuple(groups)

    def cables_by_media(self) -> dict[str, int]:
        totals: dict[str, int] = {}
        for cable in self.cables:
            totals[cable.media] = totals.get(cable.media, 0) + cable.count
        return totals

