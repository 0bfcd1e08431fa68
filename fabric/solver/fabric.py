"""Plan the fabrics of a cluster: endpoints in; switches, links, optics, cables and figures out.

`plan_fabric` plans one fabric from its endpoint groups; `plan_fabrics` plans every fabric the
scenario names (compute, storage, inband, then oob, which also serves every switch's
management port) and `fabric_part_counts` turns them into bill-of-materials lines.
"""

import math
from collections.abc import Iterable, Mapping, MutableMapping
from typing import TYPE_CHECKING

from catalog.solver.parts import SystemSpec
from core.solver.errors import ScenarioError
from core.solver.interfaces import EndpointGroup
from core.solver.kept import kept
from core.solver.part_counts import PartCount
from fabric.solver.dragonfly import dragonfly_max_groups
from fabric.solver.dragonfly_layout import dragonfly_layout
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
from fabric.solver.layout import FabricContext, PlaneLayout, SegmentLayout
from fabric.solver.media import link_choice_at, stock_length_m
from fabric.solver.ports import inter_switch_rate_problem, port_split_ways
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

if TYPE_CHECKING:
    from catalog.solver.snapshot import CatalogSnapshot

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
) -> FabricResult:
    """One fabric over its endpoint groups; the first group is the systems in compute racks.
    Its cables and optics are a first estimate at the assumed lengths (`_segment_links`).

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
    _check_inter_switch_rate(context)
    speed_warnings = _check_link_speeds(context)
    if spec.topology == "dragonfly":
        layout = dragonfly_layout(context)
    elif spec.topology == "rail_only":
        layout = rail_only_layout(context)
    else:
        layout = fat_tree_layout(context)
    return _fabric_result(context, layout, catalog, gpus_per_node, speed_warnings)


def plan_fabrics(
    fabrics: FabricsSpec,
    system: SystemSpec,
    total_nodes: int,
    nodes_per_rack: int | None,
    catalog: "CatalogSnapshot",
    extra_endpoints: Mapping[str, Iterable[EndpointGroup]] | None = None,
    planned: Mapping[str, FabricResult] | None = None,
    cache: MutableMapping | None = None,
) -> dict[str, FabricResult]:
    """Every fabric the scenario names, from the systems' NICs of that role plus `extra_endpoints`
    (e.g. storage systems from the storage step; PDUs, servers and storage systems for oob). The
    compute fabric also serves its fabric manager's ports; oob also serves one management port
    per switch of the others. `planned` holds fabrics already planned with the same inputs,
    kept as they are (the pipeline re-plans only oob when only the PDUs changed). `cache` keeps
    each fabric planned, by its inputs, for the next call with the same catalog (a sweep)."""
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
        # Top-of-rack leaves serve the systems in their racks: without systems on this fabric
        # (storage systems only, say), its leaves stand in network racks.
        in_racks = nodes_per_rack if groups[0] is not None else None
        results[name] = kept(
            cache, lambda: (name, spec, tuple(groups), in_racks, system.gpus),
            lambda: plan_fabric(name, spec, groups, catalog, nodes_per_rack=in_racks, gpus_per_node=system.gpus),
        )
    return results


def fabric_part_counts(fabrics: Mapping[str, FabricResult]) -> list[PartCount]:
    """Bill-of-materials counts: switches (network), transceivers (optics), cables (cables)."""
    counts = []
    for result in fabrics.values():
        counts += [PartCount("network", tier.switch, tier.switches) for tier in result.tiers]
        counts += [PartCount("optics", part.sku, part.quantity) for part in result.transceiver_parts]
        counts += [PartCount("cables", cable.cable, cable.count, cable.length_m)
                   for cable in result.cables if cable.cable]
    return counts


def _check_inter_switch_rate(context: FabricContext) -> None:
    """An inter-switch rate that no port of the leaf (its native rate or a split of it) or of the
    spine runs is refused on its field."""
    gbps = context.spec.inter_switch_gbps
    if not gbps or context.spec.topology == "dragonfly":
        return
    leaf = None if context.switch.uplink_ports else inter_switch_rate_problem(context.switch, gbps)
    # a spine slower than the rate is refused on spine_switch, where a faster one is the remedy
    spine_switch = context.spine_switch
    spine = None
    if spine_switch != context.switch and spine_switch.port_gbps >= gbps:
        spine = inter_switch_rate_problem(spine_switch, gbps)
    problems = [problem for problem in (leaf, spine) if problem]
    if problems:
        raise ScenarioError.at(
            context.path("inter_switch_gbps"),
            f"{'; '.join(problems)}: choose one of those rates, or leave inter_switch_gbps out for the "
            f"native rate",
        )


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
) -> FabricResult:
    spec, planes = context.spec, context.spec.planes
    warnings = list(speed_warnings) + list(layout.warnings)
    tiers = tuple(_tier_result(tier, planes) for tier in layout.tiers)
    links, modules, cables, optics_w, media_warnings = [], {}, {}, {}, []
    holders = _module_holders(context, layout)
    for segment in layout.segments:
        link, segment_modules, segment_cables, watts, problems = _segment_links(segment, planes, spec, catalog)
        links.append(link)
        for end, end_watts in zip((segment.from_, segment.to), watts):
            device = holders.get(end)
            if device is not None and end_watts:
                optics_w[device] = optics_w.get(device, 0.0) + end_watts
        for sku, quantity in segment_modules.items():
            modules[sku] = modules.get(sku, 0) + quantity
        for key, count in segment_cables.items():
            cables[key] = cables.get(key, 0) + count
        media_warnings += problems
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
        optics_power_kw=sum(optics_w.values()) / W_PER_KW,
        optics_power_kw_by_device={device: watts / W_PER_KW for device, watts in optics_w.items()},
        scalable_units=layout.scalable_units,
        pods=layout.pods,
        rails=primary.rails,
        leaves_per_pod=layout.leaves_per_pod,
        spines_per_pod=layout.spines_per_pod,
        pod_spine_uplinks=layout.pod_spine_uplinks,
        last_pod_spines=layout.last_pod_spines,
        last_pod_spine_uplinks=layout.last_pod_spine_uplinks,
        dragonfly=None if dragonfly is None else DragonflyResult(
            dragonfly.terminals_per_router, dragonfly.routers_per_group, dragonfly.global_links_per_router,
            dragonfly.groups, dragonfly_max_groups(dragonfly.routers_per_group, dragonfly.global_links_per_router),
            dragonfly.global_links_per_group_pair,
        ),
        warnings=tuple(warnings),
        media_warnings=tuple(media_warnings),
    )


def _module_holders(context: FabricContext, layout: PlaneLayout) -> dict[str, str]:
    """The catalog slug that draws the power of the modules at each end of a segment: the switch
    of a tier (by role), or an endpoint device unless its rated power already includes the
    modules in its cages (`SystemSpec.nic_optics_in_power`; storage systems and appliances are
    rated with their NICs). Ends left out are not charged again."""
    holders = {tier.role: tier.switch.slug for tier in layout.tiers}
    for index, group in enumerate(context.endpoints):
        if not group.optics_in_power:
            holders["node" if index == 0 else group.name] = group.name
    return holders


def _tier_result(tier, planes: int) -> TierResult:
    ports_per_switch = tier.switch.ports + tier.switch.uplink_ports
    switches = tier.switches * planes
    used = tier.ports_used * planes
    active_ports = math.ceil(tier.down_links_per_switch / tier.split)
    reserved = switches * max(tier.down_ports - active_ports, 0) if tier.reserved_links_per_switch else 0
    return TierResult(
        role=tier.role,
        switches=switches,
        switch=tier.switch.slug,
        placement={where: count * planes for where, count in tier.placement.items() if count},
        ports_per_switch=ports_per_switch,
        ports_used=used,
        ports_free=switches * ports_per_switch - used - reserved,
        down_links_per_switch=tier.down_links_per_switch,
        up_links_per_switch=tier.up_links_per_switch,
        power_kw=switch_power_kw(switches, tier.switch.power_w),
        down_ports=tier.down_ports,
        split=tier.split,
        up_split=tier.up_split,
        oversubscription=tier.oversubscription,
        oversubscription_asked=tier.oversubscription_asked,
        up_links_per_unit=tier.up_links_per_unit,
        reserved_links_per_switch=tier.reserved_links_per_switch,
        ports_reserved=reserved,
    )


def _segment_links(
    segment: SegmentLayout, planes: int, spec: FabricSpec, catalog: "CatalogSnapshot"
) -> tuple[LinkResult, dict[str, int], dict[tuple, int], tuple[float, float], list[str]]:
    """A first estimate of one segment's cables, modules and their power [W] at its lower and
    upper end, all planes, every link at the assumed length (`LinkLengthsSpec`), by the rule each
    placed cable follows (`media.link_choice_at`); and warnings where the catalog has none. Once the
    racks stand on the floor, the cabling plan counts each placed cable instead
    (`cabling_counts.counted_fabrics`)."""
    links = segment.links * planes
    choice = link_choice_at(segment.length_m, segment.gbps, segment.lower, segment.upper, catalog.cables,
                         catalog.transceivers, spec.optical_media)
    modules: dict[str, int] = {}
    watts = [0.0, 0.0]
    problems = []
    if choice.cable is None:
        problems.append(
            f"No cable in the catalog carries {segment.gbps:g} Gb/s over {segment.length_m:g} m for the "
            f"{segment.segment} links."
        )
    elif choice.media == "fiber":
        ends = ((choice.lower_module, segment.lower, segment.lower_is_nic), (choice.upper_module, segment.upper, False))
        for side, (module, end, is_nic) in enumerate(ends):
            if module is None:
                problems.append(
                    f"No transceiver in the catalog fits a {end.module_gbps:g} Gb/s port reaching "
                    f"{segment.length_m:g} m on the {segment.segment} links; they are counted without optics."
                )
                continue
            # A NIC cage serves every plane's links; a switch cage one plane's.
            count = math.ceil(links / end.links_per_module) if is_nic else planes * math.ceil(
                segment.links / end.links_per_module)
            modules[module] = modules.get(module, 0) + count
            watts[side] = optics_power_w(count, catalog.transceivers[module].power_w)
    elif catalog.cables[choice.cable].power_w:
        per_end = active_cable_power_w(links, catalog.cables[choice.cable].power_w) / 2
        watts = [per_end, per_end]
    stock = stock_length_m(segment.length_m, catalog.cables[choice.cable].stock_lengths_m) if choice.cable else segment.length_m
    cables = {(choice.media, choice.cable, stock): links}
    link = LinkResult(
        from_=segment.from_, to=segment.to, count=links, segment=segment.segment, gbps=segment.gbps,
        length_m=segment.length_m, max_length_m=segment.length_m, measured=False, media=choice.media,
        media_counts={choice.media: links}, cable=choice.cable, cable_length_m=stock,
        transceivers=sum(modules.values()), lower_end=segment.lower, upper_end=segment.upper,
    )
    return link, modules, cables, tuple(watts), problems


def _rail_warnings(context: FabricContext, gpus_per_node: int) -> list[str]:
    spec = context.spec
    top_of_rack_tree = spec.topology == "fat_tree" and spec.leaf_placement != "rail_optimized"
    if spec.topology == "dragonfly" or top_of_rack_tree or context.name == "oob":
        return []
    primary = context.endpoints[0]
    rails = primary.rails
    gpus_per_tray = gpus_per_node // primary.trays
    warnings = []
    if context.name == "compute" and gpus_per_tray and rails != gpus_per_tray:
        unit = "tray" if primary.trays > 1 else "node"
        warnings.append(
            f"The compute fabric has {rails} rails ({primary.name} has {rails} compute NICs per "
            f"{unit}) for {gpus_per_tray} GPUs per {unit}: rail-optimized designs give each GPU its "
            f"own rail."
        )
    for group in context.endpoints[1:]:
        if group.name != FABRIC_MANAGER and group.ports_per_endpoint != rails and rails > 1:
            warnings.append(
                f"{group.name} has {group.ports_per_endpoint} {context.name} "
                f"{'port' if group.ports_per_endpoint == 1 else 'ports'} per device but the "
                f"fabric has {rails} rails: its ports do not land one per rail."
            )
    return warnings
