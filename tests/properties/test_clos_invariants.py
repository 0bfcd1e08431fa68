"""Invariants of the Clos arithmetic over the whole space an architect may type: any radix from
8 to 576, any ratio in [0.25, 64] (arbitrary floats, not the catalog's round ones), 1 to
1,000,000 endpoints, 1 to 3 tiers, planes and rails, either leaf placement.

Each fabric is planned on its own (`plan_fabric`) with a plain switch of the drawn radix, so
thousands of shapes cost seconds; the BOM-equals-cabling invariant over whole scenarios is in
test_cabling_invariants.py, whose strategy draws the same ratios and radixes.
"""

import math
from dataclasses import replace

from hypothesis import assume, example, given
from hypothesis import strategies as st

from catalog.solver.fabric_parts import SwitchSpec
from core.solver.errors import ScenarioError
from core.solver.interfaces import EndpointGroup
from fabric.solver.clos import BALANCE_PREMIUM
from fabric.solver.fabric import plan_fabric
from fabric.solver.fat_tree import RATIO_WARNING_SHARE
from fabric.solver.specs import FabricSpec, OversubscriptionSpec
from tests.properties.strategies import seed_catalog

UTILISATION_FLOOR = 0.6
"""Share of an upper tier's down ports in use, where the tier is not at a radix limit."""
BOUND_FOR_UTILISATION = 8
"""Below this many switches by ports, rounding up one switch alone leaves more than 40 % free
(ceil(1.01 p / p) = 2 switches half used), so the floor is checked from here on."""


@st.composite
def fabrics(draw):
    """(switch, fabric spec, endpoint groups, nodes per rack) of one drawn fabric."""
    ports = draw(st.integers(8, 576))
    port_gbps = draw(st.sampled_from([100, 200, 400, 800]))
    split = draw(st.sampled_from([(1,), (1, 2), (1, 2, 4)]))
    switch = SwitchSpec(
        slug="radix", name=f"radix-{ports} test switch", price_usd=10_000.0, ports=ports,
        port_gbps=port_gbps, split=split, power_w=500.0, rack_units=1,
    )
    planes = draw(st.sampled_from([1, 1, 1, 2, 4]))
    rails = draw(st.sampled_from([1, 1, 2, 4, 8]))
    nic_gbps = port_gbps * planes / draw(st.sampled_from(split))
    endpoints = draw(st.integers(1, 1_000_000)) if draw(st.booleans()) else draw(st.integers(1, 5_000))
    nodes = max(endpoints // rails, 1)
    groups = [EndpointGroup("host", nodes, rails, nic_gbps)]
    if draw(st.integers(0, 3)) == 0:  # appliances at a slower rate share the leaves
        groups.append(EndpointGroup("appliance", draw(st.integers(1, 64)), 1, nic_gbps / 2))
    ratio = {"leaf": draw(st.floats(0.25, 64)), "spine": draw(st.floats(0.25, 64))}
    placement = draw(st.sampled_from(["rail_optimized", "rail_optimized", "top_of_rack"]))
    spec = FabricSpec(
        switch="radix", leaf_placement=placement, tiers=draw(st.sampled_from(["auto", "auto", 2, 3])),
        oversubscription=OversubscriptionSpec(**ratio), planes=planes,
    )
    nodes_per_rack = draw(st.sampled_from([1, 2, 4, 8])) if placement == "top_of_rack" else None
    return switch, spec, groups, nodes_per_rack


def _plan(switch, spec, groups, nodes_per_rack):
    catalog = seed_catalog()
    catalog = replace(catalog, switches={**catalog.switches, switch.slug: switch})
    try:
        return plan_fabric("compute", spec, groups, catalog, nodes_per_rack=nodes_per_rack)
    except ScenarioError:  # beyond the tiers' reach, or a radix too small at the ratio
        return None


def _planned(drawn):
    result = _plan(*drawn)
    assume(result is not None)
    return result


def _links_into(result, role: str) -> int:
    return sum(link.count for link in result.links if link.to == role)


SUPERPOD_3SU = (
    SwitchSpec(slug="radix", name="QM9700-like", price_usd=1.0, ports=64, port_gbps=400, power_w=1.0,
               rack_units=1),
    FabricSpec(switch="radix"), [EndpointGroup("host", 96, 8, 400)], None,
)
AWKWARD_UPLINKS = (
    SUPERPOD_3SU[0], FabricSpec(switch="radix", oversubscription=OversubscriptionSpec(leaf=2)),
    [EndpointGroup("host", 128, 8, 400)], None,
)
JUST_PAST_TWO_TIERS = (
    SwitchSpec(slug="radix", name="radix-128", price_usd=1.0, ports=128, port_gbps=400, power_w=1.0,
               rack_units=1),
    FabricSpec(switch="radix"), [EndpointGroup("host", 8193, 1, 400)], None,
)


@given(fabrics())
@example(SUPERPOD_3SU)
@example(AWKWARD_UPLINKS)
@example(JUST_PAST_TWO_TIERS)
def test_every_upper_tier_is_within_a_quarter_of_its_lower_bound(drawn):
    """Spines and cores: at most 1.25 x ceil(links / down links) + 1 switches per pod (spines:
    each pod is rounded on its own), per plane and rail tree."""
    result = _planned(drawn)
    trees = result.planes * (result.rails if result.topology == "rail_only" else 1)
    tiers = {tier.role: tier for tier in result.tiers}
    for role in ("spine", "core"):
        tier = tiers.get(role)
        if tier is None:
            continue
        bound = math.ceil(_links_into(result, role) / trees / tier.down_links_per_switch)
        rounding = max(result.pods, 1) if role == "spine" else 1
        allowed = BALANCE_PREMIUM * bound + rounding
        if role == "spine" and result.tier_count == 3:
            # each pod's spines are rounded on their own: pods x (1.25 x its bound + 1)
            per_pod = math.ceil(result.leaves_per_pod * tiers["leaf"].up_links_per_switch / tier.down_links_per_switch)
            allowed = max(allowed, result.pods * (BALANCE_PREMIUM * per_pod + 1))
        assert tier.switches / trees <= allowed, (role, tier.switches / trees, bound)


@given(fabrics())
@example(AWKWARD_UPLINKS)
@example(JUST_PAST_TWO_TIERS)
def test_upper_tiers_use_most_of_their_ports(drawn):
    """An upper tier of two or more switches per tree whose lower bound is at least 8 switches
    (not held by the reach of a radix) has at least 60 % of its down links in use."""
    result = _planned(drawn)
    trees = result.planes * (result.rails if result.topology == "rail_only" else 1)
    for tier in result.tiers:
        if tier.role not in ("spine", "core") or tier.switches / trees < 2:
            continue
        links = _links_into(result, tier.role)
        bound = math.ceil(links / trees / tier.down_links_per_switch)
        if tier.role == "spine" and result.tier_count == 3:
            leaf = result.tiers[0]
            bound = math.ceil(min(result.leaves_per_pod, leaf.switches / trees) * leaf.up_links_per_switch
                              / tier.down_links_per_switch)
        if bound < BOUND_FOR_UTILISATION:
            continue
        assert links / (tier.switches * tier.down_links_per_switch) >= UTILISATION_FLOOR, (tier.role, links, tier)


@given(fabrics())
@example(AWKWARD_UPLINKS)
def test_delivered_ratio_is_the_asked_one_or_said(drawn):
    """Every tier with uplinks reports the ratio asked beside the one delivered, and a delivered
    ratio more than 5 % from the asked one is in a warning."""
    result = _planned(drawn)
    for tier in result.tiers:
        if tier.up_links_per_switch == 0:
            continue
        assert tier.oversubscription_asked is not None and tier.oversubscription is not None
        if abs(tier.oversubscription / tier.oversubscription_asked - 1) > RATIO_WARNING_SHARE:
            said = "leaves" if tier.role == "leaf" else f"{tier.role}s"
            assert any(f"fabric's {said} deliver {tier.oversubscription:.3g}:1" in warning
                       for warning in result.warnings), (tier, result.warnings)


@given(fabrics())
def test_a_ratio_and_its_seven_digit_rounding_give_one_design(drawn):
    """1.0666667 and 16/15 are the same request: every count of the plan is the same."""
    switch, spec, groups, nodes_per_rack = drawn
    over = spec.oversubscription
    rounded = replace(spec, oversubscription=OversubscriptionSpec(
        leaf=float(f"{over.leaf:.7g}"), spine=float(f"{over.spine:.7g}")))
    exact, typed = _plan(switch, spec, groups, nodes_per_rack), _plan(switch, rounded, groups, nodes_per_rack)
    assume(exact is not None or typed is not None)
    assert exact is not None and typed is not None
    assert [(t.role, t.switches, t.up_links_per_switch) for t in exact.tiers] == \
        [(t.role, t.switches, t.up_links_per_switch) for t in typed.tiers]
    assert [link.count for link in exact.links] == [link.count for link in typed.links]


def test_hpn_ratio_typed_to_seven_digits_is_the_fraction():
    """Alibaba HPN's 128 x 200G over 60 x 400G is 16/15; typed as 1.0666667 it gives the same
    60 uplinks (not 59) and 4 spines per plane (not 59)."""
    catalog = seed_catalog()
    group = [EndpointGroup("hgx-h800", 128, 8, 400)]
    designs = []
    for ratio in (128 * 200 / (60 * 400), 1.0666667):
        spec = FabricSpec(switch="th5-64x800", planes=2, inter_switch_gbps=400, backup_ports=8,
                          oversubscription=OversubscriptionSpec(leaf=ratio))
        result = plan_fabric("compute", spec, group, catalog, gpus_per_node=8)
        designs.append([(tier.role, tier.switches, tier.up_links_per_switch) for tier in result.tiers])
    assert designs[0] == designs[1] == [("leaf", 16, 60), ("spine", 8, 0)]
