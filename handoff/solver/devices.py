"""Every device of the plan with its rack, U and name, as the cabling plan names them
(`fabric.solver.cabling`): systems, switches of every fabric and plane, storage systems, fabric
managers and management servers, rack PDUs. The hand-off files list the same devices the
cabling plan cables, so their names agree cable by cable.
"""

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fabric.solver.cabling import PlanCabling

if TYPE_CHECKING:
    from planner.solver.catalog import CatalogSnapshot


@dataclass(frozen=True)
class Device:
    name: str
    slug: str
    """The catalog part."""
    role: str
    """node, leaf, spine, core, ..., storage, fabric-manager, management-server, pdu."""
    rack: int
    """Floor number of its rack, from 1; 0 when not known."""
    rack_label: str
    u: int
    """Lowest rack unit, from 1; 0 for a 0U device (PDU) or where not known."""
    units: int
    fabric: str = ""
    chassis: str = ""
    """The multi-rack system this device is a server or switch of (its virtual chassis)."""
    chassis_position: int = 0


def plan_cabling(plan: Any, catalog: "CatalogSnapshot") -> PlanCabling:
    """The cabling plan's placement of the plan's devices (the catalog with the plan's own parts)."""
    if getattr(plan, "inputs", None) is not None:
        catalog = catalog.with_components(plan.inputs)
    return PlanCabling(plan, catalog)


def plan_devices(plan: Any, catalog: "CatalogSnapshot", cabling: PlanCabling | None = None) -> Iterator[Device]:
    """The plan's devices, systems first, then each fabric's switches tier by tier and plane by
    plane, storage systems, servers and PDUs."""
    cabling = cabling or plan_cabling(plan, catalog)
    for pool in cabling.node_pools:
        for index in range(pool.first_node, pool.first_node + pool.nodes):
            yield _device(cabling.node(index), pool.system, "node")
    for fabric in cabling.fabrics:
        for tier in fabric.result.tiers:
            per_plane = fabric.per_plane[tier.role]
            for plane in range(fabric.planes):
                for index in range(per_plane):
                    place = fabric.switch_place(tier.role, plane, index)
                    yield _device(place, tier.switch, tier.role, fabric.name)
    storage = getattr(plan, "storage", None)
    seen: dict[str, int] = {}
    for tier in getattr(storage, "tiers", ()) or ():
        first = seen.get(tier.system, 0)
        for index in range(first, first + tier.systems):
            yield _device(cabling.supported("storage", tier.system, index, "storage"), tier.system, "storage")
        seen[tier.system] = first + tier.systems
    seen = {}
    for server in getattr(plan.racks, "servers", ()) or ():
        role = "fabric-manager" if server.role == "fabric_manager" else "management-server"
        first = seen.get(server.server, 0)
        for index in range(first, first + server.count):
            yield _device(cabling.server(server.server, index, role), server.server, role, server.fabric)
        seen[server.server] = first + server.count
    for slug, runs in cabling.pdu_runs.items():
        first, _, _, racks, per_rack = runs[-1]
        for index in range(first + racks * per_rack):
            yield _device(cabling.pdu(slug, index), slug, "pdu")


def _device(place, slug: str, role: str, fabric: str = "") -> Device:
    return Device(place.device, slug, role, place.rack, place.label, place.u, place.units, fabric)
