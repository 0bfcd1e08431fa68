"""Fat-tree (folded Clos) layout of one plane: leaves by placement, then as few tiers as reach.

`tiers: auto` picks one switch when every endpoint link fits its ports, else two tiers when the
leaves fit the spines' reach, else three; forcing two tiers beyond their reach is an error that
says the limit and what would fit.
"""

import math
from dataclasses import replace

from core.solver.errors import InfeasibleError, ScenarioError
from fabric.solver.clos import (
    ClosCounts,
    max_switch_hops,
    single_switch_counts,
    three_tier_counts,
    three_tier_max_leaves,
    two_tier_counts,
    two_tier_max_leaves,
)
from fabric.solver.layout import (
    FabricContext,
    PlaneLayout,
    SegmentLayout,
    TierLayout,
    switch_end,
    uplink_end,
)
from fabric.solver.leaves import LeafCount, rail_optimized_leaf_count, top_of_rack_leaf_count
from fabric.solver.ports import (
    SwitchPorts,
    delivered_oversubscription,
    native_inter_switch_gbps,
    port_split_ways,
    switch_ports,
    uplinks_for_down_gbps,
)


def fat_tree_layout(context: FabricContext, rails: int | None = None, leaf_role: str = "leaf") -> PlaneLayout:
    """Switches and links of one plane of a fat tree over the context's endpoints.

    Links between switches run at `FabricSpec.inter_switch_gbps` when it is set, else at the
    native rate of the leaves' up ports (`ports.native_inter_switch_gbps`: an 800G port carries
    one 800G link, not two 400G ones, which would double the cables and optics for the same
    bandwidth), unless splitting is needed to reach the switches or the ratio: the native rate
    needs more tiers than the endpoint link rate does (a 64 x 800G switch split 2 x 400G is radix
    128, and two tiers reach k^2/2 = 8,192 endpoints instead of 2,048), or its whole uplinks miss
    the asked ratio by more than 5 % where split ones come closer (5 x 200G on one leaf: one 800G
    uplink is 1.25:1, five 200G ones 1:1). A warning then says why. Leaves cable uplinks for
    the endpoint bandwidth they carry, spines for the leaf links they carry
    (`ports.uplinks_for_down_gbps`). `rails` overrides the rail count (rail-only builds each
    rail as a fat tree of one rail).
    """
    spec, switch = context.spec, context.switch
    link_gbps = context.link_gbps
    total_links = context.endpoint_links
    single = switch_ports(
        switch, link_gbps, spec.oversubscription.leaf, False, reserved_links=spec.backup_ports
    )
    if spec.tiers == "auto" and total_links <= single.down_links and spec.leaves_per_pod is None:
        counts = single_switch_counts()
        gbps = context.endpoint_gbps
        leaves = LeafCount(1, 0, 1, 1, total_links, context.endpoints[0].count, 0, gbps)
        if spec.leaf_placement == "top_of_rack" and context.nodes_per_rack:
            leaves = LeafCount(1, 1, 1, 1, total_links, context.endpoints[0].count, 1, gbps)
        return _layout(context, counts, leaves, single, None, None, None, leaf_role)
    if spec.inter_switch_gbps:
        return _clos_layout(context, spec.inter_switch_gbps, rails, leaf_role)
    native = native_inter_switch_gbps(switch, context.spine_switch, link_gbps)
    if native <= link_gbps:
        return _clos_layout(context, link_gbps, rails, leaf_role)
    refusal = None
    try:
        at_native = _clos_layout(context, native, rails, leaf_role)
        close_enough = ratio_miss(at_native.tiers[0]) <= RATIO_WARNING_SHARE
        if spec.tiers == 3 or (at_native.tier_count <= 2 and close_enough):
            return at_native
    except InfeasibleError as error:
        at_native, refusal = None, error
    try:
        at_split = _clos_layout(context, link_gbps, rails, leaf_role)
    except InfeasibleError:
        if at_native is None:
            raise refusal from None
        return at_native
    if at_native is not None and at_split.tier_count > at_native.tier_count:
        return at_native
    if at_native is None or at_split.tier_count < at_native.tier_count:
        needs = "more tiers than asked" if at_native is None else f"{at_native.tier_count} tiers"
        because = f"the fabric would need {needs}, split it needs {at_split.tier_count}"
    elif ratio_miss(at_split.tiers[0]) < ratio_miss(at_native.tiers[0]):
        leaf = at_native.tiers[0]
        because = (f"its leaves would deliver {leaf.oversubscription:.3g}:1 where "
                   f"{leaf.oversubscription_asked:g}:1 was asked (whole uplinks of {native:g} Gb/s)")
    else:
        return at_native
    why = (
        f"The {context.name} fabric's switches link at {link_gbps:g} Gb/s, their {switch.port_gbps:g} Gb/s "
        f"ports split: at the native {native:g} Gb/s {because}."
    )
    return replace(at_split, warnings=at_split.warnings + (why,))


def ratio_miss(tier: TierLayout) -> float:
    """|delivered / asked - 1| of a tier's down:up ratio; 0 where it has none (the top tier)."""
    if tier.oversubscription is None or not tier.oversubscription_asked:
        return 0.0
    return abs(tier.oversubscription / tier.oversubscription_asked - 1)


def _clos_layout(context: FabricContext, up_gbps: float, rails: int | None, leaf_role: str) -> PlaneLayout:
    """Leaves and as few tiers above them as reach, with switch-to-switch links at `up_gbps`."""
    spec, switch = context.spec, context.switch
    link_gbps = context.link_gbps
    total_links = context.endpoint_links
    pods_asked = spec.leaves_per_pod is not None
    leaf = switch_ports(switch, link_gbps, spec.oversubscription.leaf, True, up_gbps, spec.backup_ports)
    if leaf.down_links < 1 or leaf.up_ports < 1:
        raise InfeasibleError.at(context.path("switch"), _radix_message(context))
    leaves = _leaf_count(context, leaf, rails)
    if pods_asked and spec.leaves_per_pod % leaves.leaves_per_unit:
        unit = leaves.leaves_per_unit
        raise ScenarioError.at(
            context.path("leaves_per_pod"),
            f"a pod holds whole scalable units of {unit} leaves (one per rail): choose a multiple of "
            f"{unit}, such as {max(spec.leaves_per_pod // unit, 1) * unit} or "
            f"{(spec.leaves_per_pod // unit + 1) * unit}",
        )
    leaf_up = uplinks_for_down_gbps(
        leaves.endpoint_gbps_per_leaf, spec.oversubscription.leaf, leaf.up_link_gbps, leaf.up_links
    )
    spine_rate = leaf.up_link_gbps
    spine_split = port_split_ways(context.spine_switch.port_gbps, spine_rate, context.spine_switch.split)
    if spine_split == 0:
        field = "spine_switch" if spec.spine_switch else "switch"
        raise ScenarioError.at(
            context.path(field),
            f"leaf uplinks run at {spine_rate:g} Gb/s, faster than the "
            f"{context.spine_switch.port_gbps:g} Gb/s "
            f"ports of {context.spine_switch.slug}: set spine_switch to a switch with ports of at least "
            f"{spine_rate:g} Gb/s{_suggest(context, spine_rate)}",
        )
    spine_two = switch_ports(context.spine_switch, spine_rate, 1.0, has_uplinks=False)
    # a leaf's uplinks in one cage go to one spine: its module's links share a far end
    leaf_unit = uplink_end(switch, leaf.up_split).links_per_module
    one_pod = not pods_asked or leaves.leaves <= spec.leaves_per_pod
    counts = None
    if spec.tiers in ("auto", 2) and one_pod:
        counts = two_tier_counts(leaves.leaves, leaf_up, spine_two.down_links, leaf_unit)
    if counts is None and spec.tiers == 2:
        reach = two_tier_max_leaves(spine_two.down_links, leaves.leaves_per_unit)
        if not one_pod:
            reach = min(reach, spec.leaves_per_pod)
        raise InfeasibleError.at(
            context.path("tiers"),
            f"two tiers of {switch.slug} reach at most {reach:,} leaves ({reach * leaf.down_links:,} "
            f"endpoint links at {link_gbps:g} Gb/s){' in one pod' if not one_pod else ''}; this fabric "
            f"needs {leaves.leaves:,} leaves ({total_links:,} links): set tiers to 3 or auto, raise the "
            f"leaf oversubscription, or choose a switch with more ports",
        )
    if counts is not None:
        return _layout(context, counts, leaves, leaf, spine_two, None, None, leaf_role)
    spine = switch_ports(context.spine_switch, spine_rate, spec.oversubscription.spine, True, spine_rate)
    core = switch_ports(context.spine_switch, spine.up_link_gbps, 1.0, has_uplinks=False)
    if pods_asked and spec.leaves_per_pod > spine.down_links:
        raise InfeasibleError.at(
            context.path("leaves_per_pod"),
            f"a {context.spine_switch.slug} spine reaches at most {spine.down_links:,} leaves at "
            f"{spine_rate:g} Gb/s and {spec.oversubscription.spine:g}:1; a pod of "
            f"{spec.leaves_per_pod:,} leaves needs a spine with more ports (a modular chassis), or "
            f"smaller pods",
        )

    def spine_uplinks_for(down_links_used: int) -> int:
        return uplinks_for_down_gbps(
            down_links_used * spine_rate, spec.oversubscription.spine, spine.up_link_gbps, spine.up_links
        )

    if spine.up_ports >= 1:
        counts = three_tier_counts(
            leaves.leaves, leaf_up, spine.down_links, spine_uplinks_for, core.down_links,
            leaves.leaves_per_unit, spec.leaves_per_pod, spine.up_links,
            leaf_unit, uplink_end(context.spine_switch, spine.up_split).links_per_module,
        )
    if counts is None:
        reach = three_tier_max_leaves(core.down_links, spine.down_links, leaves.leaves_per_unit)
        raise InfeasibleError.at(
            context.path("switch"),
            f"three tiers of {switch.slug} reach at most {reach:,} leaves ({reach * leaf.down_links:,} "
            f"endpoint links per plane); this fabric needs {leaves.leaves:,} leaves ({total_links:,} "
            f"links): choose a switch with more ports, raise the oversubscription, or use topology "
            f"dragonfly",
        )
    return _layout(context, counts, leaves, leaf, spine_two, spine, core, leaf_role)


def _leaf_count(context: FabricContext, leaf: SwitchPorts, rails: int | None) -> LeafCount:
    primary, planes = context.endpoints[0], context.spec.planes
    group_links = [(group.count * group.ports_per_endpoint, group.port_gbps / planes) for group in context.endpoints]
    if context.spec.leaf_placement == "top_of_rack" and rails is None and context.nodes_per_rack:
        other = context.endpoint_links - primary.count * primary.ports_per_endpoint
        return top_of_rack_leaf_count(
            primary.count, primary.ports_per_endpoint, context.nodes_per_rack, other, leaf.down_links,
            group_links[0][1], group_links[1:],
        )
    return rail_optimized_leaf_count(
        context.endpoint_links, rails if rails is not None else primary.rails, leaf.down_links, group_links
    )


def _layout(
    context: FabricContext,
    counts: ClosCounts,
    leaves: LeafCount,
    leaf: SwitchPorts,
    spine_two: SwitchPorts | None,
    spine: SwitchPorts | None,
    core: SwitchPorts | None,
    leaf_role: str,
) -> PlaneLayout:
    spec, switch, spine_switch = context.spec, context.switch, context.spine_switch
    over = spec.oversubscription
    lengths = spec.link_lengths
    top_of_rack = spec.leaf_placement == "top_of_rack" and leaves.in_compute_racks > 0
    placement = {
        "compute_rack": leaves.in_compute_racks,
        "network_rack": counts.leaves - leaves.in_compute_racks,
    }
    leaf_up = counts.leaf_uplinks if counts.tiers > 1 else 0
    tiers = [
        TierLayout(
            leaf_role, switch, counts.leaves, placement,
            math.ceil(context.endpoint_links / leaf.split) + counts.leaves * math.ceil(leaf_up / leaf.up_split),
            leaf.down_links, leaf_up, leaf.down_ports, leaf.split, leaf.up_split,
            delivered_oversubscription(leaves.endpoint_gbps_per_leaf, leaf_up, leaf.up_link_gbps),
            leaf.reserved_links, over.leaf if leaf_up else None, counts.leaf_spine_unit,
        )
    ]
    segments = []
    for index, group in enumerate(context.endpoints):
        in_rack = top_of_rack and index == 0
        segments.append(
            SegmentLayout(
                f"node-{leaf_role}", "node" if index == 0 else group.name, leaf_role,
                group.count * group.ports_per_endpoint, group.port_gbps / spec.planes,
                lengths.node_to_top_of_rack_m if in_rack else lengths.node_to_leaf_m,
                group.port_end(spec.planes), switch_end(switch, leaf.split), lower_is_nic=True,
                run="node_to_top_of_rack_m" if in_rack else "node_to_leaf_m",
            )
        )
    endpoint_gbps = context.endpoint_gbps
    narrowest = endpoint_gbps
    if counts.tiers >= 2:
        spine_ports = spine if counts.tiers == 3 else spine_two
        up_split = spine.up_split if counts.tiers == 3 else 1
        spine_ratio = asked = None
        up_ports_used = spine_up = 0
        if counts.tiers == 3:
            full_pods = counts.pods - 1
            up_ports_used = (full_pods * counts.spines_per_pod * math.ceil(counts.spine_uplinks / up_split)
                             + counts.last_pod_spines * math.ceil(counts.last_pod_spine_uplinks / up_split))
            # The tier's links are those of the spines that cable the most uplinks (a full pod's,
            # or a partly filled last pod's whose fewer spines each carry more leaf links); its
            # ratio is the most oversubscribed pod's, the one a flow between pods is bound by.
            pods = [(counts.spine_down_links_used, counts.spine_uplinks),
                    (counts.last_pod_spine_down_links_used, counts.last_pod_spine_uplinks)]
            down, spine_up = max(pods, key=lambda pod: pod[1])
            spine_ratio = max(
                delivered_oversubscription(down_used * leaf.up_link_gbps, up, spine.up_link_gbps)
                for down_used, up in pods
            )
            asked = over.spine
        tiers.append(
            TierLayout(
                "spine", spine_switch, counts.spines, {"network_rack": counts.spines},
                math.ceil(counts.leaf_spine_links / spine_ports.split) + up_ports_used,
                spine_ports.down_links, spine_up,
                spine_ports.down_ports, spine_ports.split, up_split, spine_ratio, 0, asked,
                counts.spine_core_unit,
            )
        )
        segments.append(
            SegmentLayout(
                f"{leaf_role}-spine", leaf_role, "spine", counts.leaf_spine_links, leaf.up_link_gbps,
                lengths.leaf_to_spine_m, uplink_end(switch, leaf.up_split),
                switch_end(spine_switch, spine_ports.split), run="leaf_to_spine_m",
            )
        )
        narrowest = min(narrowest, counts.leaf_spine_links * leaf.up_link_gbps)
    if counts.tiers == 3:
        tiers.append(
            TierLayout(
                "core", spine_switch, counts.cores, {"network_rack": counts.cores},
                math.ceil(counts.spine_core_links / core.split), core.down_links, 0, core.down_ports,
                core.split,
            )
        )
        segments.append(
            SegmentLayout(
                "spine-core", "spine", "core", counts.spine_core_links, spine.up_link_gbps,
                lengths.spine_to_core_m, uplink_end(spine_switch, spine.up_split),
                switch_end(spine_switch, core.split), run="spine_to_core_m",
            )
        )
        narrowest = min(narrowest, counts.spine_core_links * spine.up_link_gbps)
    return PlaneLayout(
        tier_count=counts.tiers,
        tiers=tuple(tiers),
        segments=tuple(segments),
        endpoint_gbps=endpoint_gbps,
        narrowest_gbps=narrowest,
        max_switch_hops=max_switch_hops(counts.tiers),
        endpoint_links_per_leaf=leaves.endpoint_links_per_leaf,
        nodes_per_leaf=leaves.nodes_per_leaf,
        scalable_units=leaves.units,
        pods=counts.pods if counts.tiers == 3 else (1 if counts.tiers == 2 else 0),
        leaves_per_pod=counts.leaves_per_pod if counts.tiers > 1 else 0,
        spines_per_pod=counts.spines_per_pod,
        pod_spine_uplinks=counts.spine_uplinks,
        last_pod_spines=counts.last_pod_spines,
        last_pod_spine_uplinks=counts.last_pod_spine_uplinks,
        warnings=tuple(_warnings(context, counts, leaves, leaf, top_of_rack)
                       + delivered_ratio_warnings(context.name, tiers, counts)),
    )


RATIO_WARNING_SHARE = 0.05
"""A tier whose delivered ratio differs from the asked one by more than this share is said."""


def delivered_ratio_warnings(name: str, tiers: list[TierLayout], counts: ClosCounts) -> list[str]:
    """A sentence for each tier whose delivered down:up ratio differs from the asked one by more
    than 5 % either way, with what the difference costs: the uplinks the tier cables beyond (or
    short of) those of the exact ratio, u x r_delivered / r_asked, and the switches above that
    hold them and the modules at both ends of each link."""
    warnings = []
    for tier, above in zip(tiers, tiers[1:]):
        if ratio_miss(tier) <= RATIO_WARNING_SHARE:
            continue
        delivered, asked = tier.oversubscription, tier.oversubscription_asked
        exact = tier.up_links_per_switch * delivered / asked
        extra = round(tier.switches * (tier.up_links_per_switch - exact))
        upper = math.ceil(abs(extra) / max(above.down_links_per_switch, 1))
        cost = (
            f"{abs(extra):,} uplinks {'more' if extra > 0 else 'fewer'} than the asked ratio takes "
            f"(about {upper:,} {above.role}{'s' if upper != 1 else ''} and up to {2 * abs(extra):,} "
            f"transceivers {'more' if extra > 0 else 'fewer'})"
        ) if extra else "the nearest whole number of uplinks"
        roles = "leaves" if tier.role == "leaf" else f"{tier.role}s"
        why = (
            f"{tier.switch.slug} {roles} have {tier.up_links_per_switch} uplink"
            f"{'s' if tier.up_links_per_switch != 1 else ''} each"
        )
        warnings.append(
            f"The {name} fabric's {roles} deliver {delivered:.3g}:1 where {asked:g}:1 was asked: "
            f"{why}, {cost}."
        )
    return warnings


def _warnings(context, counts, leaves, leaf, top_of_rack) -> list[str]:
    name, spec = context.name, context.spec
    warnings = []
    if spec.leaf_placement == "top_of_rack" and not context.nodes_per_rack:
        warnings.append(
            f"The {name} fabric's leaves stand in network racks, not at the top of compute racks: no "
            f"system has {name} ports, only the devices in other racks."
        )
    if counts.tiers == 3 and counts.last_pod_leaves < counts.leaves_per_pod:
        warnings.append(
            f"The {name} fabric's pods are unbalanced: the last of {counts.pods} pods has "
            f"{counts.last_pod_leaves} leaves and {counts.last_pod_spines} spines, the others "
            f"{counts.leaves_per_pod} and {counts.spines_per_pod}; traffic to it crosses fewer spines."
        )
    if counts.tiers < 3 and spec.oversubscription.spine != 1:
        warnings.append(
            f"The {name} fabric has {counts.tiers} tier{'s' if counts.tiers > 1 else ''}: the spine "
            f"oversubscription of {spec.oversubscription.spine:g} applies only to spines with uplinks "
            f"to a core, and is not used."
        )
    spine_switch = context.spine_switch
    if counts.tiers > 1 and spine_switch.port_gbps / max(
        port_split_ways(spine_switch.port_gbps, leaf.up_link_gbps, spine_switch.split), 1
    ) > leaf.up_link_gbps * (1 + 1e-9):
        warnings.append(
            f"{spine_switch.slug} spines of the {name} fabric cannot run the leaves' "
            f"{leaf.up_link_gbps:g} Gb/s uplinks at their speed by splitting ports; check that the "
            f"ports and optics run at {leaf.up_link_gbps:g} Gb/s."
        )
    if top_of_rack and leaves.leaves_per_rack > 1:
        primary = context.endpoints[0]
        warnings.append(
            f"One compute rack's {context.nodes_per_rack * primary.ports_per_endpoint} {name} ports exceed "
            f"the {leaf.down_links} down links of one {context.switch.slug} leaf: "
            f"{leaves.leaves_per_rack} top-of-rack leaves per rack."
        )
    return warnings


def _radix_message(context: FabricContext) -> str:
    switch, over = context.switch, context.spec.oversubscription.leaf
    return (
        f"{switch.slug} has {switch.ports} ports, too few for a leaf with at least one port down and "
        f"one up at {over:g}:1 oversubscription: choose a switch with at least {math.ceil(over) + 1} "
        f"ports, or lower the oversubscription"
    )


def _suggest(context: FabricContext, gbps: float) -> str:
    fitting = sorted(slug for slug, switch in context.switches.items() if switch.port_gbps >= gbps)
    return f" ({', '.join(fitting[:5])})" if fitting else ""
