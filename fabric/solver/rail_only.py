"""Rail-only fabrics: no spine joins the rails; each rail is its own fabric, sized to the rail.

W. Wang, M. Ghobadi et al., "Rail-only: A Low-Cost High-Performance Network for Training LLMs
with Trillion Parameters" (arXiv:2307.12169, 2023): the i-th NIC of every node goes to rail i;
traffic between GPUs of different rails crosses the node's NVLink instead of a spine. A rail
whose links fit one switch is one switch (role `rail`); a larger rail is a fat tree of its own.
"""

import math
from dataclasses import replace

from core.solver.interfaces import EndpointGroup
from fabric.solver.fat_tree import fat_tree_layout
from fabric.solver.layout import FabricContext, PlaneLayout, SegmentLayout, switch_end
from fabric.solver.ports import port_split_ways


def rail_only_layout(context: FabricContext) -> PlaneLayout:
    """One plane: rails = the systems' NIC ports; each rail a fat tree over ceil(links / rails)
    endpoint links; switches and inter-switch links are one rail's times the rails."""
    primary = context.endpoints[0]
    rails = primary.rails
    rail_links = math.ceil(context.endpoint_links / rails)
    rail_context = replace(
        context,
        endpoints=(EndpointGroup(primary.name, rail_links, 1, max(g.port_gbps for g in context.endpoints)),),
    )
    rail = fat_tree_layout(rail_context, rails=1)
    role = "rail" if rail.tier_count == 1 else "leaf"
    tiers = tuple(
        replace(
            tier,
            role=role if tier.role == "leaf" else tier.role,
            switches=tier.switches * rails,
            placement={"network_rack": tier.switches * rails},
            ports_used=tier.ports_used * rails,
        )
        for tier in rail.tiers
    )
    split = max(port_split_ways(context.switch.port_gbps, context.link_gbps, context.switch.split), 1)
    segments = [
        SegmentLayout(
            f"node-{role}", "node" if index == 0 else group.name, role,
            group.count * group.ports_per_endpoint, group.port_gbps / context.spec.planes,
            context.spec.link_lengths.node_to_leaf_m,
            group.port_end(context.spec.planes), switch_end(context.switch, split),
            lower_is_nic=True, run="node_to_leaf_m",
        )
        for index, group in enumerate(context.endpoints)
    ]
    segments += [
        replace(
            segment,
            links=segment.links * rails,
            from_=role if segment.from_ == "leaf" else segment.from_,
            segment=segment.segment.replace("leaf", role),
        )
        for segment in rail.segments
        if not segment.lower_is_nic
    ]
    return replace(
        rail,
        tiers=tiers,
        segments=tuple(segments),
        endpoint_gbps=context.endpoint_gbps,
        narrowest_gbps=min(context.endpoint_gbps, rail.narrowest_gbps * rails),
        scalable_units=0,
    )
