"""Switch ports: splitting a fast port for slower links, and a switch's ports between down and up."""

import math
from dataclasses import dataclass

from catalog.solver.fabric_parts import SwitchSpec

# Guards ceil() against binary fractions: 64 x 3 / 4 must give 48, not 49.
_ROUND_TOLERANCE = 1e-9
RATIO_TOLERANCE = 1e-6
"""A ratio is read to this relative precision, so that one typed to seven digits (1.0666667)
gives the design of the fraction it stands for (16/15)."""


def port_split_ways(port_gbps: float, link_gbps: float, split_options: tuple[int, ...]) -> int:
    """Ways to split one switch port so that each part still carries a `link_gbps` link.

    ways = max{s in split_options : port_gbps / s >= link_gbps}; an 800G port carries 2 x 400G
    links (s = 2) when the switch allows it. Returns 0 when even the whole port is slower than
    the link (the link cannot be served).

    Source: port breakout as the vendors document it, e.g. NVIDIA SN5600 "64 x 800GbE, or
    128 x 400G, or 256 x 200G" (https://docs.nvidia.com/networking/display/sn5000/data+interfaces).
    """
    fitting = [ways for ways in split_options if port_gbps / ways >= link_gbps * (1 - _ROUND_TOLERANCE)]
    return max(fitting, default=0)


def downlink_ports_for_oversubscription(ports: int, oversubscription: float, reserved_ports: float = 0.0) -> int:
    """Ports of a `ports`-port switch facing down for a down:up bandwidth ratio of at least r.

    d = ceil((k r + b) / (r + 1)), so that (d - b) / (k - d) >= r with whole ports, where b
    down ports' worth of links are reserved as backups and carry no traffic; r = 1, b = 0 gives
    the non-blocking k/2 down, k/2 up (published-cases: folded Clos and fat-tree capacity).
    Alibaba HPN (SIGCOMM 2024): 64 x 800G ports, 200G down (4 per port), 400G up (2 per port),
    8 backup links = 2 ports, r = 128 x 200 / (60 x 400) = 16/15: d = (64 x 16/15 + 2) / (31/15)
    = 34 ports, 136 x 200G down (128 active, 8 backup), 30 ports = 60 x 400G up.
    """
    return math.ceil((ports * oversubscription + reserved_ports) / (oversubscription + 1) * (1 - RATIO_TOLERANCE))


@dataclass(frozen=True)
class SwitchPorts:
    """How one switch of a tier uses its ports."""

    down_ports: int
    """Native ports facing down (towards endpoints or lower tiers)."""
    split: int
    """Links each down port is split into."""
    down_link_gbps: float
    """Rate of one down link: port_gbps / split."""
    up_ports: int
    """Native ports facing up (fixed uplink ports included); 0 at the top tier."""
    up_link_gbps: float
    total_ports: int
    """Native ports of the switch, fixed uplink ports included."""
    up_split: int = 1
    """Links each up port is split into (fixed uplink ports are never split)."""
    reserved_links: int = 0
    """Down links held as backups (Alibaba HPN: 8 per ToR), after the active ones."""

    @property
    def down_links(self) -> int:
        """Links one switch can take from below and carry at the ratio: down_ports x split,
        less the reserved backups."""
        return self.down_ports * self.split - self.reserved_links

    @property
    def up_links(self) -> int:
        """Links one switch can send up: up_ports x up_split."""
        return self.up_ports * self.up_split

    @property
    def oversubscription(self) -> float:
        """Down:up bandwidth of a full switch (infinite without uplinks)."""
        if self.up_ports == 0:
            return math.inf
        return self.down_links * self.down_link_gbps / (self.up_links * self.up_link_gbps)


def switch_ports(
    switch: SwitchSpec,
    link_gbps: float,
    oversubscription: float,
    has_uplinks: bool,
    up_link_gbps: float | None = None,
    reserved_links: int = 0,
) -> SwitchPorts:
    """The down and up ports of one switch of a tier.

    A switch with dedicated uplink ports (SN2201: 48 x 1G + 4 x 100G) uses all its ports down and
    its uplink ports up, whatever the oversubscription asked. Otherwise, with uplinks, d native
    ports face down (`downlink_ports_for_oversubscription`: the ratio is one of native port
    bandwidth, so it holds whatever the splits) and k - d face up; without uplinks (the top tier,
    or a single switch) every port faces down. Down ports are split for `link_gbps` links, up
    ports for `up_link_gbps` links (`port_split_ways`): a 64 x 800G switch run at 400G is a
    radix-128 switch on every tier, 64 x 400G down and 64 x 400G up at 1:1. Up ports run at the
    native rate when `up_link_gbps` is not given. `reserved_links` down links are held as backups:
    they take ports but no share of the ratio.
    """
    split = max(port_split_ways(switch.port_gbps, link_gbps, switch.split), 1)
    up_split = 1
    if switch.uplink_ports and has_uplinks:
        down, up, up_gbps = switch.ports, switch.uplink_ports, switch.uplink_gbps
    elif has_uplinks:
        down = downlink_ports_for_oversubscription(switch.ports, oversubscription, reserved_links / split)
        if up_link_gbps is not None:
            up_split = max(port_split_ways(switch.port_gbps, up_link_gbps, switch.split), 1)
        down, up, up_gbps = down, switch.ports - down, switch.port_gbps / up_split
    else:
        down, up, up_gbps = switch.ports, 0, 0.0
    return SwitchPorts(
        down_ports=down,
        split=split,
        down_link_gbps=switch.port_gbps / split,
        up_ports=up,
        up_link_gbps=up_gbps,
        total_ports=switch.ports + switch.uplink_ports,
        up_split=up_split,
        reserved_links=reserved_links,
    )


def uplinks_for_down_gbps(down_gbps: float, oversubscription: float, up_link_gbps: float, up_links: int) -> int:
    """Uplinks a switch cables for the down bandwidth it carries, at a ratio of at least r.

    u = floor(down Gb/s / (r x up rate)), read to RATIO_TOLERANCE, at least 1 and at most the
    switch's up links: the delivered ratio down / (u x up rate) is then at least r, and one more
    uplink would bring it below r (published-cases: "rounded so that ... the ratio is at least r").
    A top-of-rack leaf with 16 x 400G GPU links at 1:1 cables 16 x 400G up, not the 32 x 800G of
    a full switch; 32 storage links of 200G on 400G ports at 1:1 cable 16 x 400G, not 32.
    """
    if down_gbps <= 0:
        return 0
    exact = down_gbps / (oversubscription * up_link_gbps)
    return min(max(math.floor(exact * (1 + RATIO_TOLERANCE)), 1), up_links)


def delivered_oversubscription(down_gbps: float, up_links: int, up_link_gbps: float) -> float | None:
    """Down:up bandwidth one switch delivers with the links it has: down Gb/s in use / (uplinks x
    up rate); None at the top tier (no uplinks)."""
    if up_links <= 0:
        return None
    return down_gbps / (up_links * up_link_gbps)


def native_inter_switch_gbps(leaf: SwitchSpec, spine: SwitchSpec, endpoint_link_gbps: float) -> float:
    """The fastest rate a leaf's up ports and the spines' ports both run, not below the endpoint
    links: a leaf port split only as far as the spine needs (an SN5600 800G port runs 800G to an
    SN5600 spine, 400G to a QM9700 one). A leaf with dedicated uplink ports, or spines that run
    none of its rates, keep the endpoint rate."""
    if leaf.uplink_ports:
        return endpoint_link_gbps
    for ways in sorted(leaf.split):
        rate = leaf.port_gbps / ways
        if rate < endpoint_link_gbps * (1 - _ROUND_TOLERANCE):
            break
        if port_split_ways(spine.port_gbps, rate, spine.split):
            return rate
    return endpoint_link_gbps


def inter_switch_rate_problem(switch: SwitchSpec, gbps: float) -> str | None:
    """Why no port of `switch` runs links of `gbps`, or None when one does (its native rate or
    one of its splits)."""
    rates = sorted({switch.port_gbps / ways for ways in switch.split}, reverse=True)
    if any(abs(rate - gbps) <= gbps * _ROUND_TOLERANCE for rate in rates):
        return None
    listed = ", ".join(f"{rate:g}" for rate in rates)
    return f"{switch.slug} ports run {listed} Gb/s, not {gbps:g} Gb/s"
