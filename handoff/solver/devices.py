"""Every device of the plan with its rack, U and name, as the cabling plan names them
(`fabric.solver.cabling`): systems, switches of every fabric and plane, storage systems, fabric
managers and management servers, rack PDUs. The hand-off files list the same devices the
cabling plan cables, so their names agree cable by cable.

A multi-rack system (CloudMatrix 384: 48 servers in 12 compute racks, its scale-up switching in
4 racks of its own) is what it is: a device per server (`r001-node-01-tray01`) in its own rack at
its position, the trays of a rack stacked from U1 each the system's height over its trays per
rack, and one device of scale-up switching per switch rack (`r001-node-01-scale-up-01`), all
members of one virtual chassis named after the system. The cabling plan cables the system by
its NIC ports (`compute-p17`); `MultiRackSystems.end` gives the tray and its own port
(`compute-p1` of tray 3 when a tray has 8 compute ports).
"""

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from catalog.solver.snapshot import plan_catalog
from fabric.solver.cabling import PlanCabling

if TYPE_CHECKING:
    from catalog.solver.snapshot import CatalogSnapshot


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
    return PlanCabling(plan, plan_catalog(plan, catalog))


TRAY_SUFFIX = "-tray"
SCALE_UP_SUFFIX = "-scale-up"
SCALE_UP_ROLE = "scale-up-switch"


@dataclass(frozen=True)
class SystemShare:
    """A server (tray) or a rack of scale-up switching of a multi-rack system, as a part of its
    own: the system's NICs shared over its trays, its power and height over its trays and racks."""

    slug: str
    name: str
    vendor: str
    rack_units: int
    power_kw: float
    nics: tuple = ()


def is_multi_rack(system: Any) -> bool:
    return system is not None and getattr(system, "compute_racks", 1) > 1 and getattr(system, "compute_trays", 1) > 1


def system_shares(system: Any, switch_rack_units: int = 0) -> tuple[SystemShare, SystemShare]:
    """The tray and scale-up switching parts of a multi-rack system."""
    trays = system.compute_trays
    per_rack = max(trays // system.compute_racks, 1)
    switching_kw = system.switch_racks * system.switch_rack_kw
    tray = SystemShare(
        system.slug + TRAY_SUFFIX, f"{system.name}: one of its {trays} servers", system.vendor,
        max(system.rack_units // per_rack, 1), (system.power_kw - switching_kw) / trays,
        tuple(replace(nic, count=max(nic.count // trays, 1)) for nic in system.nics),
    )
    switching = SystemShare(
        system.slug + SCALE_UP_SUFFIX, f"{system.name}: scale-up switching of one of its {system.switch_racks} "
        "switch racks", system.vendor, switch_rack_units or system.rack_units, system.switch_rack_kw,
    )
    return tray, switching


def plan_system_shares(plan: Any, catalog: "CatalogSnapshot") -> dict[str, SystemShare]:
    """Slug -> part of every multi-rack system's trays and scale-up switching in the plan."""
    shares = {}
    for group in getattr(plan.racks, "per_rack", ()) or ():
        system = catalog.systems.get(group.rack_type)
        if is_multi_rack(system):
            for share in system_shares(system, group.usable_u if group.kind == "network" else 0):
                if share.slug not in shares or group.kind == "network":
                    shares[share.slug] = share
    for slug, system in catalog.systems.items():
        if is_multi_rack(system):
            for share in system_shares(system):
                shares.setdefault(share.slug, share)
    return shares


def _switch_rack_indices(plan: Any, slug: str) -> list[int]:
    """The network-rack indices of a multi-rack system's switch racks, system after system."""
    indices, seen = [], 0
    for group in getattr(plan.racks, "per_rack", ()) or ():
        if group.kind == "network":
            if group.rack_type == slug:
                indices += range(seen, seen + group.count)
            seen += group.count
    return indices


def _multi_rack_devices(plan: Any, catalog: "CatalogSnapshot", cabling: PlanCabling, pool: Any,
                        index: int) -> list[Device]:
    """The trays and scale-up switching of system `index` (of every pool's), each in its rack."""
    system = catalog.systems[pool.system]
    name = cabling.node(index).device
    tray, switching = system_shares(system)
    trays_per_rack = max(system.compute_trays // system.compute_racks, 1)
    first_rack = pool.first_rack + (index - pool.first_node) // pool.nodes_per_rack * pool.racks_per_node
    racks = cabling.racks
    devices = []
    for number in range(system.compute_trays):
        rack, slot = divmod(number, trays_per_rack)
        floor_number = racks.number("compute", first_rack + rack)
        devices.append(Device(f"{name}-tray{number + 1:02d}", tray.slug, "node", floor_number,
                              racks.label(floor_number), 1 + slot * tray.rack_units, tray.rack_units, "",
                              name, number + 1))
    switch_racks = _switch_rack_indices(plan, pool.system)
    within = index - pool.first_node
    for number in range(system.switch_racks):
        at = within * system.switch_racks + number
        floor_number = racks.number("network", switch_racks[at]) if at < len(switch_racks) else 0
        devices.append(Device(f"{name}-scale-up-{number + 1:02d}", switching.slug, SCALE_UP_ROLE, floor_number,
                              racks.label(floor_number), 1 if floor_number else 0, switching.rack_units, "",
                              name, system.compute_trays + number + 1))
    return devices


class MultiRackSystems:
    """Where a multi-rack system's cabled NIC port is: its tray, and the tray's own port."""

    def __init__(self, devices: list[Device], shares: dict[str, SystemShare]) -> None:
        self.trays: dict[str, list[Device]] = {}
        self.ports: dict[str, dict[str, int]] = {}
        for device in devices:
            if device.chassis and device.slug.endswith(TRAY_SUFFIX):
                self.trays.setdefault(device.chassis, []).append(device)
                share = shares.get(device.slug)
                if share is not None:
                    self.ports[device.chassis] = {nic.role: nic.count for nic in share.nics}

    def __bool__(self) -> bool:
        return bool(self.trays)

    def end(self, rack: str, u: Any, device: str, port: str) -> tuple[str, Any, str, str]:
        """A cable end (rack, U, device, port) on a tray where `device` is a multi-rack system."""
        trays = self.trays.get(device)
        if not trays:
            return rack, u, device, port
        role, _, number = port.rpartition("-p")
        number, slash, plane = number.partition("/")
        per_tray = self.ports[device].get(role)
        if not per_tray or not number.isdigit():
            return rack, u, device, port
        tray, own = divmod(int(number) - 1, per_tray)
        tray_device = trays[min(tray, len(trays) - 1)]
        return tray_device.rack_label, tray_device.u, tray_device.name, f"{role}-p{own + 1}{slash}{plane}"

    def row(self, row: tuple) -> tuple:
        """A cabling plan row with its multi-rack system ends on their trays."""
        if not self:
            return row
        start = self.end(*row[1:5])
        end = self.end(*row[5:9])
        return (row[0], *start, *end, *row[9:])


def plan_devices(plan: Any, catalog: "CatalogSnapshot", cabling: PlanCabling | None = None) -> Iterator[Device]:
    """The plan's devices, systems first (a multi-rack system's trays and scale-up switching),
    then each fabric's switches tier by tier and plane by plane, storage systems, servers and
    PDUs."""
    cabling = cabling or plan_cabling(plan, catalog)
    for pool in cabling.node_pools:
        multi_rack = is_multi_rack(catalog.systems.get(pool.system))
        for index in range(pool.first_node, pool.first_node + pool.nodes):
            if multi_rack:
                yield from _multi_rack_devices(plan, catalog, cabling, pool, index)
            else:
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
            yield _device(cabling.places.supported("storage", tier.system, index, "storage"), tier.system, "storage")
        seen[tier.system] = first + tier.systems
    seen = {}
    for server in getattr(plan.racks, "servers", ()) or ():
        role = "fabric-manager" if server.role == "fabric_manager" else "management-server"
        first = seen.get(server.server, 0)
        for index in range(first, first + server.count):
            yield _device(cabling.places.server(server.server, index, role), server.server, role, server.fabric)
        seen[server.server] = first + server.count
    for slug in cabling.places.pdu_runs:
        for index in range(cabling.places.pdus_racked(slug)):
            yield _device(cabling.places.pdu(slug, index), slug, "pdu")


def _device(place, slug: str, role: str, fabric: str = "") -> Device:
    return Device(place.device, slug, role, place.rack, place.label, place.u, place.units, fabric)
