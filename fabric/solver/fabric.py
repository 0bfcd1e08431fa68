"""Plan the fabrics of a cluster: endpoints in; switches, links, optics, cables and figures out.

`plan_fabric` plans one fabric from its endpoint groups; `plan_fabrics` plans every fabric the
scenario names (compute, storage, inband, then oob, which also serves every switch's
management port) and `fabric_part_counts` turns them into bill-of-materials lines.
"""

import math
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from fabric.solver.dragonfly import dragonfly_layout, dragonfly_max_groups
from fabric.solver.endpoints import (
    FABRIC_MANAGER,
    fabric_manager_endpoints,
    management_endpoints,
    system_endpoints,
)
from fabric.solver.fat_tree import fat_tree_layout
from fabric.solver.figures import (
    W_PER_KW,
    active_cable_power_w,
    bisection_bandwidth_tbps,
    effective_oversubscription,
    gpus_per_leaf,
    optics_power_w,
    switch_power_kw,
)
from fabric.solver.interfaces import EndpointGroup, LengthShare
from fabric.solver.layout import FabricContext, PlaneLayout, PortEnd, SegmentLayout
from fabric.solver.media import CableChoice, cable_for_link, module_for_port
from fabric.solver.ports import port_split_ways
from fabric.solver.rail_only import rail_only_layout
from fabric.solver.results import (
    CableCount,
    DragonflyResult,
    FabricResult,
    LinkResult,
    PartQuantity,
    TierResult,
)
from fabric.solver.specs import FabricSpec, FabricsSpec
from planner.solver.bom import PartCount
from planner.solver.errors import ScenarioError
from planner.solver.parts import SystemSpec

if TYPE_CHECKING:
    from planner.solver.catalog import CatalogSnapshot

FABRIC_ORDER = ("compute", "storage", "inband", "oob")
"""oob last: it serves the management ports of the other fabrics' switches."""
EDGE_ROLES = ("leaf", "rail", "router")
"""Switches that endpoints attach to: their free ports are room to grow."""
EDGE_FREE_SHARE_TO_WARN = 0.25
"""Warn about free edge ports from a quarter of them; free spine and core ports always (they
are stranded by the balance rule, not waiting for endpoints)."""


def plan_fabric(
    name: str,
    spec: FabricSpec,
    endpoints: Iterable[EndpointGroup | None],
    catalog: "CatalogSnapshot",
    *,
    nodes_per_rack: int | None = None,
    gpus_per_node: int = 0,
    measured_lengths: Mapping[str, tuple[LengthShare, ...]] | None = None,
) -> FabricResult:
    """One fabric over its endpoint groups; the first group is the systems in compute racks.

    `measured_lengths` (runs measured on the floor, by LinkLengthsSpec field) replace the
    assumed lengths of the runs they name.

    Raises ScenarioError (a NIC faster than the switch, a dragonfly shape beyond the radix) or
    InfeasibleError (a radix too small for a leaf, tiers beyond their reach), naming the field.
    """
    groups = tuple(
        group for group in endpoints if group is not None and group.count * group.ports_per_endpoint > 0
    )
    if not groups:
        raise ScenarioError.at(
            f"fabrics.{name}",
            f"no device has {name} ports: add {name} NICs to the system, or leave this fabric out",
        )
    switch = catalog.switches[spec.switch]
    spine_switch = catalog.switches[spec.spine_switch or spec.switch]
    context = FabricContext(name, spec, switch, spine_switch, groups, nodes_per_rack, catalog.switches)
    speed_warnings = _check_link_speeds(context)
    if spec.topology == "dragonfly":
        layout = dragonfly_layout(context)
    elif spec.topology == "rail_only":
        layout = rail_only_layout(context)
    else:
        layout = fat_tree_layout(context)
    return _fabric_result(context, layout, catalog, gpus_per_node, speed_warnings, measured_lengths or {})


def plan_fabrics(
    fabrics: FabricsSpec,
    system: SystemSpec,
    total_nodes: int,
    nodes_per_rack: int | None,
    catalog: "CatalogSnapshot",
    extra_endpoints: Mapping[str, Iterable[EndpointGroup]] | None = None,
    measured_lengths: Mapping[str, Mapping[str, tuple[LengthShare, ...]]] | None = None,
    planned: Mapping[str, FabricResult] | None = None,
) -> dict[str, FabricResult]:
    """Every fabric the scenario names, from the systems' NICs of that role plus `extra_endpoints`
    (e.g. storage systems from the storage step; PDUs, servers and storage systems for oob). The
    compute fabric also serves its fabric manager's ports; oob also serves one management port
    per switch of the others. `planned` holds fabrics already planned with the same inputs,
    kept as they are (the pipeline re-plans only oob when only the PDUs changed)."""
    extra_endpoints = extra_endpoints or {}
    results: dict[str, FabricResult] = {}
    for name in FABRIC_ORDER:
        spec = getattr(fabrics, name)
        if spec is None:
            continue
        if planned and name in planned:
            results[name] = planned[name]
            continue
        groups: list[EndpointGroup | None] = [system_endpoints(system, total_nodes, name)]
        if spec.fabric_manager_ports:
            nic = system.nic(name)
            groups.append(fabric_manager_endpoints(spec.fabric_manager_ports, nic.gbps if nic else 0))
        groups.extend(extra_endpoints.get(name, ()))
        if name == "oob":
            groups.extend(management_endpoints(
                group for result in results.values() for group in result.switch_groups()
            ))
        results[name] = plan_fabric(
            name, spec, groups, catalog, nodes_per_rack=nodes_per_rack, gpus_per_node=system.gpus,
            measured_lengths=(measured_lengths or {}).get(name),
        )
    return results


def fabric_part_counts(fabrics: Mapping[str, FabricResult]) -> list[PartCount]:
    """Bill-of-materials counts: switches (network), transceivers (optics), cables (cables)."""
    counts = []
    for result in fabrics.values():
        counts += [PartCount("network", tier.switch, tier.switches) for tier in result.tiers]
        counts += [PartCount("optics", part.sku, part.quantity) for part in result.transceiver_parts]
        counts += [PartCount("cables", cable.cable, cable.count) for cable in result.cables if cable.cable]
    return counts


def _check_link_speeds(context: FabricContext) -> list[str]:
    """A NIC faster than any port of the switch is an error; one slower than the slowest split
    of a port is a warning (the port must run below its rate)."""
    switch, planes = context.switch, context.spec.planes
    warnings = []
    for group in context.endpoints:
        link_gbps = group.port_gbps / planes
        ways = port_split_ways(switch.port_gbps, link_gbps, switch.split)
        if ways == 0:
            faster = sorted(slug for slug, other in context.switches.items() if other.port_gbps >= link_gbps)
            options = f"choose a switch with ports of at least {link_gbps:g} Gb/s"
            if faster:
                options += f" ({', '.join(faster[:6])})"
            if group.port_gbps / switch.port_gbps <= 16:
                options += f", or set planes to {math.ceil(group.port_gbps / switch.port_gbps)}"
            raise ScenarioError.at(
                context.path("switch"),
                f"{group.name} {context.name} ports run at {link_gbps:g} Gb/s per plane, faster than "
                f"the {switch.port_gbps:g} Gb/s ports of {switch.slug}: {options}",
            )
        if switch.port_gbps / ways > link_gbps * (1 + 1e-9):
            warnings.append(
                f"{switch.slug} cannot run the {link_gbps:g} Gb/s {group.name} links of the {context.name} "
                f"fabric at their speed: its {switch.port_gbps:g} Gb/s ports split at most "
                f"{ways} way{'s' if ways > 1 else ''} ({switch.port_gbps / ways:g} Gb/s); check that the "
                f"port and optics run at {link_gbps:g} Gb/s."
            )
    return warnings


def _fabric_result(
    context: FabricContext,
    layout: PlaneLayout,
    catalog: "CatalogSnapshot",
    gpus_per_node: int,
    speed_warnings: list[str],
    measured_lengths: Mapping[str, tuple[LengthShare, ...]],
) -> FabricResult:
    spec, planes = context.spec, context.spec.planes
    warnings = list(speed_warnings) + list(layout.warnings)
    tiers = tuple(_tier_result(tier, planes) for tier in layout.tiers)
    links, modules, cables, optics_w = [], {}, {}, 0.0
    for segment in layout.segments:
        link, segment_modules, segment_cables, watts, problems = _segment_links(
            segment, planes, spec, catalog, measured_lengths.get(segment.run)
        )
        links.append(link)
        optics_w += watts
        for sku, quantity in segment_modules.items():
            modules[sku] = modules.get(sku, 0) + quantity
        for key, count in segment_cables.items():
            cables[key] = cables.get(key, 0) + count
        warnings += problems
    free = [
        (tier.ports_free, tier.ports_free + tier.ports_used, tier.role)
        for tier in tiers
        if tier.ports_free > 0
        and (tier.role not in EDGE_ROLES
             or tier.ports_free >= EDGE_FREE_SHARE_TO_WARN * (tier.ports_free + tier.ports_used))
    ]
    if free:
        listed = "; ".join(f"{count:,} of {total:,} {role} ports" for count, total, role in free)
        warnings.append(f"The {context.name} fabric leaves ports free (stranded until it grows): {listed}.")
    warnings += _rail_warnings(context, gpus_per_node)
    primary = context.endpoints[0]
    dragonfly = layout.dragonfly
    return FabricResult(
        name=context.name,
        topology=spec.topology,
        leaf_placement=spec.leaf_placement,
        switch=context.switch.slug,
        tier_count=layout.tier_count,
        planes=planes,
        endpoints=sum(group.count for group in context.endpoints),
        endpoint_links=context.endpoint_links * planes,
        tiers=tiers,
        links=tuple(links),
        transceivers=sum(modules.values()),
        transceiver_parts=tuple(PartQuantity(sku, quantity) for sku, quantity in modules.items()),
        cables=tuple(
            CableCount(media, cable, length_m, count) for (media, cable, length_m), count in cables.items()
        ),
        bisection_tbps=bisection_bandwidth_tbps(layout.narrowest_gbps, planes),
        oversubscription=effective_oversubscription(layout.endpoint_gbps, layout.narrowest_gbps),
        max_switch_hops=layout.max_switch_hops,
        gpus_per_leaf=gpus_per_leaf(layout.endpoint_links_per_leaf, gpus_per_node, primary.ports_per_endpoint),
        nodes_per_leaf=layout.nodes_per_leaf,
        switch_power_kw=sum(tier.power_kw for tier in tiers),
        optics_power_kw=optics_w / W_PER_KW,
        scalable_units=layout.scalable_units,
        pods=layout.pods,
        dragonfly=None if dragonfly is None else DragonflyResult(
            dragonfly.terminals_per_router, dragonfly.routers_per_group, dragonfly.global_links_per_router,
            dragonfly.groups, dragonfly_max_groups(dragonfly.routers_per_group, dragonfly.global_links_per_router),
            dragonfly.global_links_per_group_pair,
        ),
        warnings=tuple(warnings),
    )


def _tier_result(tier, planes: int) -> TierResult:
    ports_per_switch = tier.switch.ports + tier.switch.uplink_ports
    switches = tier.switches * planes
    used = tier.ports_used * planes
    return TierResult(
        role=tier.role,
        switches=switches,
        switch=tier.switch.slug,
        placement={where: count * planes for where, count in tier.placement.items() if count},
        ports_per_switch=ports_per_switch,
        ports_used=used,
        ports_free=switches * ports_per_switch - used,
        down_links_per_switch=tier.down_links_per_switch,
        up_links_per_switch=tier.up_links_per_switch,
        power_kw=switch_power_kw(switches, tier.switch.power_w),
    )


def split_by_shares(total: int, shares: tuple[LengthShare, ...]) -> list[int]:
    """`total` links split by the shares, whole numbers that add up to `total` (largest remainders)."""
    exact = [total * share.share for share in shares]
    counts = [math.floor(value) for value in exact]
    by_remainder = sorted(range(len(exact)), key=lambda index: counts[index] - exact[index])
    for index in by_remainder[: total - sum(counts)]:
        counts[index] += 1
    return counts


def _segment_links(
    segment: SegmentLayout,
    planes: int,
    spec: FabricSpec,
    catalog: "CatalogSnapshot",
    lengths: tuple[LengthShare, ...] | None = None,
) -> tuple[LinkResult, dict[str, int], dict[tuple, int], float, list[str]]:
    """The cables, modules and optics power of one segment, all planes: each share of its links
    gets the medium its length needs (`lengths` measured on the floor, else the assumed length);
    and warnings where the catalog has no cable or transceiver."""
    measured = lengths is not None
    lengths = lengths or (LengthShare(segment.length_m, 1.0),)
    modules: dict[str, int] = {}
    cables: dict[tuple, int] = {}
    media_counts: dict[str, int] = {}
    watts = 0.0
    problems = []
    for share, links_per_plane in zip(lengths, split_by_shares(segment.links, lengths)):
        if not links_per_plane and cables:
            continue
        links = links_per_plane * planes
        choice, share_modules, share_watts, problem = _links_of_length(
            segment, share.length_m, links_per_plane, planes, spec, catalog
        )
        for sku, quantity in share_modules.items():
            modules[sku] = modules.get(sku, 0) + quantity
        key = (choice.media, choice.cable, choice.cable_length_m)
        cables[key] = cables.get(key, 0) + links
        media_counts[choice.media] = media_counts.get(choice.media, 0) + links
        watts += share_watts
        if problem and problem not in problems:
            problems.append(problem)
    (media, cable, cable_length_m), _ = max(cables.items(), key=lambda item: item[1])
    link = LinkResult(
        from_=segment.from_, to=segment.to, count=segment.links * planes, segment=segment.segment,
        gbps=segment.gbps, length_m=sum(share.length_m * share.share for share in lengths),
        max_length_m=max(share.length_m for share in lengths), measured=measured,
        media=media, media_counts=media_counts, cable=cable, cable_length_m=cable_length_m,
        transceivers=sum(modules.values()),
    )
    return link, modules, cables, watts, problems


def _links_of_length(
    segment: SegmentLayout, length_m: float, links_per_plane: int, planes: int, spec: FabricSpec,
    catalog: "CatalogSnapshot",
) -> tuple[CableChoice, dict[str, int], float, str | None]:
    """Medium, modules and optics power for `links_per_plane` links of one length."""
    choice = cable_for_link(length_m, segment.gbps, catalog.cables, spec.optical_media)
    modules: dict[str, int] = {}
    watts = 0.0
    problem = None
    if choice.media == "fiber" and choice.cable is not None:
        lower = module_for_port(catalog.transceivers, segment.lower.module_gbps,
                                segment.lower.links_per_module, length_m)
        upper = module_for_port(catalog.transceivers, segment.upper.module_gbps,
                                segment.upper.links_per_module, length_m,
                                fiber=lower.fiber if lower else None)
        reaches = [module.reach_m for module in (lower, upper) if module is not None]
        choice = cable_for_link(length_m, segment.gbps, catalog.cables, spec.optical_media,
                                module_reach_m=min(reaches) if reaches else None)
        ends = ((lower, segment.lower, segment.lower_is_nic), (upper, segment.upper, False))
        for module, end, is_nic in ends:
            if module is None:
                problem = (
                    f"No transceiver in the catalog fits a {end.module_gbps:g} Gb/s port reaching "
                    f"{length_m:g} m on the {segment.segment} links; they are counted without optics."
                )
                continue
            count = _modules_at_end(links_per_plane, planes, end, is_nic)
            modules[module.slug] = modules.get(module.slug, 0) + count
            watts += optics_power_w(count, module.power_w)
    elif choice.cable is not None:
        watts += active_cable_power_w(links_per_plane * planes, catalog.cables[choice.cable].power_w)
    else:
        problem = (
            f"No cable in the catalog carries {segment.gbps:g} Gb/s over {length_m:g} m for the "
            f"{segment.segment} links."
        )
    return choice, modules, watts, problem


def _modules_at_end(links_per_plane: int, planes: int, end: PortEnd, is_nic: bool) -> int:
    """Modules on one end: a NIC port holds one module for all its planes' links; a switch cage
    one module for its ports (and their splits), per plane."""
    if is_nic:
        return math.ceil(links_per_plane * planes / end.links_per_module)
    return planes * math.ceil(links_per_plane / end.links_per_module)


def _rail_warnings(context: FabricContext, gpus_per_node: int) -> list[str]:
    spec = context.spec
    top_of_rack_tree = spec.topology == "fat_tree" and spec.leaf_placement != "rail_optimized"
    if spec.topology == "dragonfly" or top_of_rack_tree or context.name == "oob":
        return []
    primary = context.endpoints[0]
    rails = primary.ports_per_endpoint
    warnings = []
    if context.name == "compute" and gpus_per_node and rails != gpus_per_node:
        warnings.append(
            f"The compute fabric has {rails} rails ({primary.name} has {rails} compute NICs) for "
            f"{gpus_per_node} GPUs per node: rail-optimized designs give each GPU its own rail."
        )
    for group in context.endpoints[1:]:
        if group.name != FABRIC_MANAGER and group.ports_per_endpoint != rails and rails > 1:
            warnings.append(
                f"{group.name} has {group.ports_per_endpoint} {context.name} ports per device but the "
                f"fabric has {rails} rails: its ports do not land one per rail."
            )
    return warnings
