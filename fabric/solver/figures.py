"""The figures an architect asks of a fabric, as pure functions of its counts."""

import math

GBPS_PER_TBPS = 1000.0
W_PER_KW = 1000.0


def bisection_bandwidth_tbps(narrowest_tier_gbps: float, planes: int = 1) -> float:
    """Bandwidth across the narrowest cut that halves the endpoints [Tb/s].

    B = planes x min(endpoint bandwidth, each tier's uplink bandwidth) / 2: in a folded Clos
    every flow between the two halves crosses each tier above the leaves once, so the cut carries
    half of the narrowest tier (a non-blocking tree of N links at r Gb/s: N r / 2). Leiserson,
    "Fat-trees", IEEE Trans. Computers C-34(10), 1985.
    """
    return planes * narrowest_tier_gbps / 2 / GBPS_PER_TBPS


def effective_oversubscription(endpoint_gbps: float, narrowest_tier_gbps: float) -> float:
    """Endpoint bandwidth over the narrowest tier's, never below 1 (non-blocking).

    Leaves that are not full carry less than their uplinks: a 3:1 leaf two-thirds full is 2:1
    in effect.
    """
    if narrowest_tier_gbps <= 0:
        return math.inf
    return max(1.0, endpoint_gbps / narrowest_tier_gbps)


def gpus_per_leaf(endpoint_links_per_leaf: int, gpus_per_node: int, links_per_node: int) -> int:
    """GPUs whose NIC ports sit on the fullest leaf: links x GPUs per NIC port, what one leaf's
    failure cuts off (rail-optimized DGX H100: 32 links x 8 GPUs / 8 NICs = 32 GPUs)."""
    if gpus_per_node <= 0 or links_per_node <= 0:
        return 0
    return math.floor(endpoint_links_per_leaf * gpus_per_node / links_per_node)


def switch_power_kw(switches: int, switch_power_w: float) -> float:
    """Power of the switches without optics [kW]: switches x W / 1000."""
    return switches * switch_power_w / W_PER_KW


def optics_power_w(modules: int, module_power_w: float) -> float:
    """Power of pluggable modules [W]: modules x module power (the datasheet maximum)."""
    return modules * module_power_w


def active_cable_power_w(cables: int, power_w_per_end: float) -> float:
    """Power of active cables (ACC, AOC) [W]: both ends draw, 2 x cables x W per end."""
    return 2 * cables * power_w_per_end
