"""One plane of a dragonfly laid out: its routers, and the node, local and global links (the
arithmetic of the shape is in fabric.solver.dragonfly)."""

import math

from core.solver.errors import InfeasibleError, ScenarioError
from fabric.solver.dragonfly import (
    balanced_dragonfly_shape,
    dragonfly_bisection_links,
    dragonfly_counts,
    dragonfly_max_switch_hops,
)
from fabric.solver.layout import (
    FabricContext,
    PlaneLayout,
    SegmentLayout,
    TierLayout,
    switch_end,
)
from fabric.solver.ports import port_split_ways


def dragonfly_layout(context: FabricContext) -> PlaneLayout:
    """One plane of a dragonfly over the context's endpoint links (router ports at native rate).

    Raises ScenarioError when the shape does not fit the radix, InfeasibleError beyond its reach.
    """
    switch, spec = context.switch, context.spec
    shape = balanced_dragonfly_shape(switch.ports, spec.dragonfly)
    balanced = balanced_dragonfly_shape(switch.ports)
    field = "dragonfly" if spec.dragonfly is not None else "switch"
    if shape.radix > switch.ports:
        raise ScenarioError.at(
            context.path(field),
            f"p + a + h - 1 = {shape.terminals_per_router} + {shape.routers_per_group} + "
            f"{shape.global_links_per_router} - 1 = {shape.radix} router ports, more than the "
            f"{switch.ports} of {switch.slug}: with {switch.ports} ports a balanced dragonfly has "
            f"p = h = {balanced.terminals_per_router}, a = {balanced.routers_per_group}",
        )
    terminals = context.endpoint_links
    counts = dragonfly_counts(terminals, shape)
    if counts is None:
        raise InfeasibleError.at(
            context.path(field),
            f"a dragonfly of p = {shape.terminals_per_router}, a = {shape.routers_per_group}, "
            f"h = {shape.global_links_per_router} reaches at most {shape.max_terminals:,} endpoint links "
            f"({shape.max_groups:,} groups); this fabric needs {terminals:,}: choose a switch with more "
            f"ports, raise a or h, or add planes",
        )
    lengths = spec.link_lengths
    split = max(port_split_ways(switch.port_gbps, context.link_gbps, switch.split), 1)
    terminal_ports = math.ceil(terminals / split)
    used = terminal_ports + 2 * counts.local_links + 2 * counts.global_links
    router = TierLayout(
        "router", switch, counts.routers, {"network_rack": counts.routers}, used,
        shape.terminals_per_router, shape.routers_per_group - 1 + shape.global_links_per_router,
        down_ports=math.ceil(shape.terminals_per_router / split), split=split,
    )
    segments = [
        SegmentLayout(
            "node-router", "node" if index == 0 else group.name, "router",
            group.count * group.ports_per_endpoint, group.port_gbps / spec.planes, lengths.node_to_leaf_m,
            group.port_end(spec.planes), switch_end(switch, split), lower_is_nic=True,
            run="node_to_leaf_m",
        )
        for index, group in enumerate(context.endpoints)
    ]
    segments.append(SegmentLayout("local", "router", "router", counts.local_links, switch.port_gbps,
                                  lengths.router_local_m, switch_end(switch), switch_end(switch),
                                  run="router_local_m"))
    segments.append(SegmentLayout("global", "router", "router", counts.global_links, switch.port_gbps,
                                  lengths.router_global_m, switch_end(switch), switch_end(switch),
                                  run="router_global_m"))
    cut_gbps = dragonfly_bisection_links(counts) * switch.port_gbps
    endpoint_gbps = context.endpoint_gbps
    narrowest = min(endpoint_gbps, 2 * cut_gbps)
    warnings = []
    global_ports = shape.routers_per_group * shape.global_links_per_router
    spare = global_ports - counts.global_links_per_group_pair * (counts.groups - 1)
    if counts.groups > 1 and spare > 0:
        warnings.append(
            f"The {context.name} dragonfly's {counts.groups} groups use {counts.global_links_per_group_pair} "
            f"global links per pair of groups: {spare} global ports per group are left free."
        )
    return PlaneLayout(
        tier_count=1,
        tiers=(router,),
        segments=tuple(segments),
        endpoint_gbps=endpoint_gbps,
        narrowest_gbps=narrowest,
        max_switch_hops=dragonfly_max_switch_hops(counts),
        endpoint_links_per_leaf=min(shape.terminals_per_router, terminals),
        nodes_per_leaf=min(shape.terminals_per_router, terminals),
        dragonfly=counts,
        warnings=tuple(warnings),
    )
