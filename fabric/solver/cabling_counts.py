"""The bill of materials' cables and transceivers as the cabling plan lays them: every fabric
with its cables, modules and optics power added up from the rows (`cabling_tally.count_fabric`).
"""

from dataclasses import dataclass
from typing import Any

from core.solver.records import copy_with
from fabric.solver.cabling import PlanCabling
from fabric.solver.cabling_tally import count_fabric, sampled_optics_w
from fabric.solver.figures import W_PER_KW
from fabric.solver.results import CableCount, FabricResult, PartQuantity


@dataclass(frozen=True)
class CabledPlan:
    """What the cabling plan reads of a plan (a `Plan` has all of it), for counting cables
    before the plan is assembled."""

    fabrics: dict[str, FabricResult]
    racks: Any
    compute: Any
    storage: Any = None
    inputs: Any = None
    pools: Any = None
    """A site's pools by name (each with its system, compute and racks)."""


def counted_fabrics(cabling: PlanCabling) -> dict[str, FabricResult]:
    """The plan's fabrics with their cables, transceivers and optics power as the cabling plan's
    rows add up (`cabling_tally.count_fabric`): one cable per row, by part and stock length;
    one module per cage the rows' ends use; media and lengths as measured."""
    counted = {}
    for fabric in cabling.fabrics:
        total = count_fabric(cabling, cabling.segments(fabric))
        by_link = {id(count.link_of): count for count in total.segments}
        links = [by_link[id(link)].link if id(link) in by_link else link for link in fabric.result.links]
        cables: dict[tuple, int] = {}
        for count in total.segments:
            for key, number in count.cables.items():
                cables[key] = cables.get(key, 0) + number
        tiers = tuple(
            copy_with(tier, ports_used=total.ports_used.get(f"tier:{tier.role}", tier.ports_used),
                    ports_free=tier.switches * tier.ports_per_switch - tier.ports_reserved
                    - total.ports_used.get(f"tier:{tier.role}", tier.ports_used))
            for tier in fabric.result.tiers
        )
        counted[fabric.name] = copy_with(
            fabric.result,
            tiers=tiers,
            links=tuple(links),
            cables=tuple(CableCount(media, cable, length_m, number)
                         for (media, cable, length_m), number in sorted(cables.items(), key=str)),
            transceivers=sum(total.modules.values()),
            transceiver_parts=tuple(PartQuantity(sku, number) for sku, number in sorted(total.modules.items())),
            optics_power_kw=sum(total.optics_w.values()) / W_PER_KW,
            optics_power_kw_by_device={device: watts / W_PER_KW for device, watts in total.optics_w.items()},
            media_warnings=tuple(warning for count in total.segments for warning in count.warnings),
        )
    return {name: counted[name] for name in cabling.plan.fabrics}


def estimated_fabrics(cabling: PlanCabling) -> dict[str, FabricResult]:
    """The plan's fabrics with the optics' power by device estimated from a sample of the
    cabling plan's links (`cabling_tally.sampled_optics_w`): what racks are packed with before
    the cables are counted where they stand. Their other figures are the fabric engine's. In
    the plan's order, as counted (the racks' switch groups follow it)."""
    estimated = {}
    for fabric in cabling.fabrics:
        watts = sampled_optics_w(cabling, cabling.segments(fabric))
        estimated[fabric.name] = copy_with(
            fabric.result,
            optics_power_kw=sum(watts.values()) / W_PER_KW,
            optics_power_kw_by_device={device: value / W_PER_KW for device, value in watts.items()},
        )
    return {name: estimated[name] for name in cabling.plan.fabrics}
