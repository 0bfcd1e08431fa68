"""Invariants of the fabric engine's counts: ports and oversubscription, per tier and per switch."""

import math

from hypothesis import given

from tests.properties.strategies import plan_or_reject, scenarios

TOLERANCE = 1e-9
SWITCH_ROLES = {"leaf", "spine", "core", "rail", "router"}
DELIVERED_RATIO_FIELDS = ("oversubscription", "delivered_oversubscription")
"""TierResult fields the engine may give the delivered down:up ratio in; read when present."""
UPPER_ROLE_RATE = {"spine": ("leaf-spine", "rail-spine"), "core": ("spine-core",)}


def _fabrics(plan):
    return (plan.fabrics or {}).items()


def down_link_gbps(fabric, role: str) -> float:
    """Rate of the links a tier's switches take from below (one plane)."""
    segments = UPPER_ROLE_RATE.get(role)
    if segments is None:  # leaf, rail, router: the fabric's endpoint links, the fastest of them
        return max(link.gbps for link in fabric.links if link.from_ not in SWITCH_ROLES)
    return max(link.gbps for link in fabric.links if link.segment in segments)


def fixed_uplinks(switch, tier) -> bool:
    """The switch uplinks over dedicated ports (SN2201: 48 x 1G down, 4 x 100G up); a dragonfly
    router uses its native ports for every link."""
    return bool(switch.uplink_ports) and tier.up_links_per_switch > 0 and tier.role != "router"


def requested_ratio(plan, fabric_name: str, role: str) -> float:
    over = getattr(plan.inputs.fabrics, fabric_name).oversubscription
    return over.spine if role == "spine" else over.leaf


def delivered_ratio(tier, switch) -> float:
    """Down:up bandwidth of one switch of the tier as the plan delivers it.

    The engine is adding a per-tier delivered ratio: once TierResult has it, this reads it
    (`DELIVERED_RATIO_FIELDS`); until then it is worked out from the counts: a switch without
    fixed uplinks faces ports_per_switch - up native ports down (split or not, a port's
    bandwidth is the port's) and up_links native ports up, at the same rate.
    """
    for name in DELIVERED_RATIO_FIELDS:
        value = getattr(tier, name, None)
        if value is not None:
            return value
    down_ports = tier.ports_per_switch - tier.up_links_per_switch
    return down_ports * switch.port_gbps / (tier.up_links_per_switch * switch.port_gbps)


@given(scenarios())
def test_tier_ports_used_fit_the_tiers_switches(document):
    """a. Per tier: 0 <= ports_used <= switches x ports_per_switch, and free = all - used."""
    plan, _ = plan_or_reject(document)
    for name, fabric in _fabrics(plan):
        for tier in fabric.tiers:
            capacity = tier.switches * tier.ports_per_switch
            assert 0 <= tier.ports_used <= capacity, (name, tier)
            assert tier.ports_free == capacity - tier.ports_used, (name, tier)


@given(scenarios())
def test_each_switchs_down_and_up_links_fit_its_ports_after_splitting(document):
    """a. Per switch: its down links (and held backups) fit its down ports at their split, and
    its down ports plus its up links at their split fit the switch (fixed uplinks on their own
    ports); the split carries the down links' rate."""
    plan, catalog = plan_or_reject(document)
    for name, fabric in _fabrics(plan):
        for tier in fabric.tiers:
            switch = catalog.switches[tier.switch]
            assert switch.port_gbps / tier.split >= down_link_gbps(fabric, tier.role) * (1 - TOLERANCE) or \
                tier.split == max(switch.split), (name, tier)
            down_ports = math.ceil((tier.down_links_per_switch + tier.reserved_links_per_switch) / tier.split)
            if fixed_uplinks(switch, tier):
                assert down_ports <= switch.ports, (name, tier)
                assert tier.up_links_per_switch <= switch.uplink_ports, (name, tier)
            else:
                assert down_ports <= tier.down_ports or not tier.down_ports, (name, tier)
                up_ports = math.ceil(tier.up_links_per_switch / tier.up_split)
                assert max(down_ports, tier.down_ports) + up_ports <= tier.ports_per_switch, (name, tier)


@given(scenarios())
def test_every_segments_links_fit_the_switch_ports_at_both_ends(document):
    """a. The links of a segment fit the down links of the tier above and the up links of the
    tier below (all planes): no switch is given more links than it has ports for."""
    plan, _ = plan_or_reject(document)
    for name, fabric in _fabrics(plan):
        tiers = {tier.role: tier for tier in fabric.tiers}
        down: dict[str, int] = {}
        up: dict[str, int] = {}
        for link in fabric.links:
            if link.segment in ("local", "global"):
                up["router"] = up.get("router", 0) + 2 * link.count
                continue
            down[link.to] = down.get(link.to, 0) + link.count
            if link.from_ in SWITCH_ROLES:
                up[link.from_] = up.get(link.from_, 0) + link.count
        for role, links in down.items():
            tier = tiers[role]
            assert links <= tier.switches * tier.down_links_per_switch, (name, role, links, tier)
        for role, links in up.items():
            tier = tiers[role]
            assert links <= tier.switches * tier.up_links_per_switch, (name, role, links, tier)


@given(scenarios())
def test_delivered_oversubscription_is_at_least_the_request_and_within_one_port(document):
    """b. A Clos tier with uplinks (leaf, or spine under a core) delivers a down:up ratio
    (TierResult.oversubscription: the down links its fullest switch uses against the uplinks it
    cables) of at least the one asked, and one more uplink would bring it below: no more uplinks
    than asked. A switch has at least one uplink, so a nearly idle leaf may deliver less; and a
    switch whose up ports are all cabled cannot add one. Fixed uplink ports are left out.
    A spine tier's ratio is its most oversubscribed pod's (a full pod's or the last pod's), whose
    spines cable at least the fewer uplinks of the two: one more of those brings it below."""
    plan, catalog = plan_or_reject(document)
    for name, fabric in _fabrics(plan):
        if fabric.topology == "dragonfly":
            continue
        for tier in fabric.tiers:
            switch = catalog.switches[tier.switch]
            if tier.up_links_per_switch == 0 or fixed_uplinks(switch, tier):
                continue
            requested = requested_ratio(plan, name, tier.role)
            delivered = tier.oversubscription
            up = tier.up_links_per_switch
            if tier.role == "spine" and fabric.last_pod_spine_uplinks:
                up = min(fabric.pod_spine_uplinks, fabric.last_pod_spine_uplinks)
            if up > 1:
                assert delivered >= requested * (1 - TOLERANCE), (name, tier.role, delivered, requested)
            all_up = (tier.ports_per_switch - tier.down_ports) * tier.up_split
            if up < all_up:
                assert delivered * up / (up + 1) < requested * (1 + TOLERANCE), (name, tier.role, delivered, requested)


@given(scenarios())
def test_fabric_oversubscription_is_between_one_and_its_tiers_ratios(document):
    """b. FabricResult.oversubscription (endpoint bandwidth over the narrowest tier's) is at
    least 1, and at most the product of the delivered ratios of the tiers with uplinks."""
    plan, catalog = plan_or_reject(document)
    for name, fabric in _fabrics(plan):
        assert fabric.oversubscription >= 1 - TOLERANCE, name
        if fabric.topology == "dragonfly":
            continue
        product = 1.0
        for tier in fabric.tiers:
            if tier.up_links_per_switch and tier.oversubscription is not None:
                product *= max(tier.oversubscription, 1.0)
        assert fabric.oversubscription <= product * (1 + TOLERANCE), (name, fabric.oversubscription, product)
