"""Where the cabling plan (`cabling.PlanCabling`) finds what oob serves besides systems, and
what no fabric's racks hold: storage systems and servers in their racks, filled from the top;
rack PDUs over the racks in the order of the rack groups; the other fabrics' switches by model,
in the order oob serves their management ports (`endpoints.management_port_endpoints`)."""

from bisect import bisect_right
from collections.abc import Mapping
from typing import Any

from fabric.solver.cabling_racks import DevicePlace, RackIndex, top_u
from fabric.solver.cabling_wiring import FabricWiring, WiredGroup, nic_port
from fabric.solver.endpoints import STORAGE_MANAGEMENT_PORTS

MANAGEMENT_PORT = "mgmt"


class ManagementPlaces:
    """The places and management ports of PDUs, servers, storage systems and switches on oob."""

    def __init__(self, plan: Any, racks: RackIndex, fabrics: list[FabricWiring],
                 storage_groups: Mapping[str, Any]) -> None:
        self.racks = racks
        # PDU slug -> runs of (first PDU, rack kind, first rack of the kind, racks, PDUs per rack)
        self.pdu_starts: dict[str, list[int]] = {}
        self.pdu_runs: dict[str, list[tuple[int, str, int, int, int]]] = {}
        kind_counts: dict[str, int] = {}
        for group in getattr(plan.racks, "per_rack", ()) or ():
            first_rack = kind_counts.get(group.kind, 0)
            kind_counts[group.kind] = first_rack + group.count
            pdus = getattr(group, "pdus", 0)
            if not pdus:
                continue
            runs = self.pdu_runs.setdefault(group.pdu, [])
            first = self.pdus_racked(group.pdu)
            self.pdu_starts.setdefault(group.pdu, []).append(first)
            runs.append((first, group.kind, first_rack, group.count, pdus))
        # server slug -> (BMC ports of one, fabric manager units of the part, which come first)
        self.oob_servers: dict[str, tuple[int, int]] = {}
        for server in getattr(plan.racks, "servers", ()) or ():
            ports, managers = self.oob_servers.get(server.server, (server.oob_ports_each, 0))
            if server.role == "fabric_manager":
                managers += server.count
            self.oob_servers[server.server] = (ports, managers)
        self.storage_slugs = set(storage_groups)
        self.switch_runs = _management_runs(fabrics)

    def pdus_racked(self, slug: str) -> int:
        """The PDUs of model `slug` over all racks."""
        runs = self.pdu_runs.get(slug)
        if not runs:
            return 0
        first, _, _, racks, per_rack = runs[-1]
        return first + racks * per_rack

    def supported(self, kind: str, slug: str, index: int, role: str) -> DevicePlace:
        """The index-th `slug` unit in storage or management racks, filled from the top."""
        racks = self.racks
        units = racks.units_of(slug)
        found = racks.locate(kind, "", slug, index)
        if found is None:
            return racks.place(0, 0, units, role, 0, index)
        rack, slot, group = found
        number = racks.number(kind, rack)
        above_units, above_devices = racks.units_before(group, slug, slot)
        u = top_u(group.usable_u, above_units, units) if number else 0
        return racks.place(number, u, units, role, above_devices + 1, index)

    def server(self, slug: str, index: int, role: str) -> DevicePlace:
        """The index-th `slug` server in the management racks, filled from the top; numbered
        among the units of its part in its rack."""
        racks = self.racks
        units = racks.units_of(slug)
        found = racks.locate("management", "", slug, index)
        if found is None:
            return racks.place(0, 0, units, role, 0, index)
        rack, slot, group = found
        number = racks.number("management", rack)
        above_units, _ = racks.units_before(group, slug, slot)
        u = top_u(group.usable_u, above_units, units) if number else 0
        return racks.place(number, u, units, role, slot + 1, index)

    def pdu(self, slug: str, index: int) -> DevicePlace:
        """The index-th PDU of `slug` over the racks in the order of the rack groups: PDU p of a
        rack is `<rack>-pdu-<p>`. A 0U PDU takes no U (the row's U is empty; its cable takes the
        segment's length)."""
        starts = self.pdu_starts.get(slug)
        if not starts:
            return self.racks.place(0, 0, 0, "pdu", 0, index)
        at = bisect_right(starts, index) - 1
        first, kind, first_rack, racks, per_rack = self.pdu_runs[slug][at]
        rack, within = divmod(index - first, per_rack)
        if rack >= racks:
            return self.racks.place(0, 0, 0, "pdu", 0, index)
        number = self.racks.number(kind, first_rack + rack)
        return self.racks.place(number, 0, 0, "pdu", within + 1, index)

    def management_port(self, fabric: FabricWiring, group: WiredGroup, device: int, port: int, plane: int):
        """A PDU's, server's or storage system's management port on oob, or None for other groups.
        Ports are counted flat over the group (`cabling_wiring` may list a group one port per
        device), then split by the ports of one device."""
        flat = device * group.ports + port
        suffix = "" if fabric.planes == 1 else f"/{plane + 1}"
        if group.name in self.pdu_runs:
            # Ports of one PDU: the group's links over the PDUs racked.
            ports = max((group.count * group.ports) // self.pdus_racked(group.name), 1)
            index, own = divmod(flat, ports)
            name = MANAGEMENT_PORT if ports == 1 else f"{MANAGEMENT_PORT}{own + 1}"
            return self.pdu(group.name, index), name + suffix
        if group.name in self.oob_servers:
            ports, managers = self.oob_servers[group.name]
            index, own = divmod(flat, max(ports, 1))
            role = "fabric-manager" if index < managers else "management-server"
            return self.server(group.name, index, role), nic_port(fabric.name, own, plane, fabric.planes)
        if group.name in self.storage_slugs:
            index, own = divmod(flat, STORAGE_MANAGEMENT_PORTS)
            name = MANAGEMENT_PORT if STORAGE_MANAGEMENT_PORTS == 1 else f"{MANAGEMENT_PORT}{own + 1}"
            return self.supported("storage", group.name, index, "storage"), name + suffix
        return None

    def managed_switch(self, slug: str, index: int) -> tuple[FabricWiring, DevicePlace] | None:
        for first, fabric, role, placement, count in self.switch_runs.get(slug, ()):
            if first <= index < first + count:
                offset = index - first
                per_plane = count // fabric.planes
                plane, within = divmod(offset, per_plane)
                if role == fabric.edge_role and placement == "network_rack":
                    within += fabric.in_racks
                return fabric, fabric.switch_place(role, plane, within)
        return None


def _management_runs(fabrics: list[FabricWiring]) -> dict[str, list[tuple[int, FabricWiring, str, str, int]]]:
    """The other fabrics' switches in the order oob serves their management ports
    (fabric, tier, placement; `endpoints.management_endpoints`), by model: runs of
    (first endpoint, fabric, role, placement, switches of all planes)."""
    runs: dict[str, list] = {}
    for fabric in fabrics:
        if fabric.name == "oob":
            continue
        for tier in fabric.result.tiers:
            for placement, count in tier.placement.items():
                if count:
                    slug_runs = runs.setdefault(tier.switch, [])
                    first = slug_runs[-1][0] + slug_runs[-1][4] if slug_runs else 0
                    slug_runs.append((first, fabric, tier.role, placement, count))
    return runs
