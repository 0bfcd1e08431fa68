"""Endpoints of each fabric: the systems' NICs by role, appliances, and management ports."""

from collections.abc import Iterable, Mapping

from catalog.solver.parts import SystemSpec
from core.solver.interfaces import EndpointGroup, SwitchGroup
from core.solver.management import ServerGroup

MANAGEMENT_PORT_GBPS = 1.0
"""A switch's out-of-band management port: 1000BASE-T RJ45 on the catalog's switches."""
FABRIC_MANAGER = "fabric-manager"
"""Endpoint name of a fabric manager appliance (NVIDIA UFM) that takes leaf ports."""
STORAGE_MANAGEMENT_PORTS = 1
"""Management (1GbE RJ45) ports of one storage system on the oob network: one per system, as the
catalog's storage parts say nothing more (an appliance with two controllers may have two)."""


def system_endpoints(system: SystemSpec, systems: int, role: str) -> EndpointGroup | None:
    """The systems' NIC ports of one role (compute, storage, inband, oob), or None without them.

    Compute ports are rail-aligned per tray: a GB200 NVL72 rack's 72 compute NICs are 18 trays of
    4 (one per GPU of the tray), so the fabric has 4 rails, not 72 (NVIDIA DGX GB200 user guide,
    hardware: 4 x ConnectX-7 per compute tray). The other roles' ports are spread over the
    trays where they divide evenly (an NVL72's 18 in-band ports: one a tray, one rail), and
    management (oob) ports are each a tray's or a node's BMC: one rail, filling the leaves in
    order (the 27 BMCs of an NVL72 rack share its management switches, not a leaf each).
    """
    nic = system.nic(role)
    if nic is None or systems <= 0:
        return None
    if role == "oob":
        trays = nic.count
    elif role == "compute" or nic.count % system.compute_trays == 0:
        trays = system.compute_trays
    else:
        trays = 1
    return EndpointGroup(
        system.slug, systems, nic.count, nic.gbps, nic.ports_per_cage, system.nic_optics_in_power, trays
    )


def fabric_manager_endpoints(ports: int, port_gbps: float) -> EndpointGroup | None:
    """A fabric manager's links to the leaves: the DGX SuperPOD H100 UFM appliance takes 4
    compute-leaf ports (RA-11333-001, Table 4 notes)."""
    if ports <= 0:
        return None
    return EndpointGroup(FABRIC_MANAGER, 1, ports, port_gbps)


def management_endpoints(switch_groups: Iterable[SwitchGroup]) -> tuple[EndpointGroup, ...]:
    """One management port per switch of the other fabrics, grouped by switch model."""
    counts: dict[str, int] = {}
    for group in switch_groups:
        counts[group.switch] = counts.get(group.switch, 0) + group.count
    return tuple(
        EndpointGroup(slug, count, 1, MANAGEMENT_PORT_GBPS) for slug, count in counts.items()
    )


def management_port_endpoints(
    pdus: Mapping[str, tuple[int, int]],
    servers: Iterable[ServerGroup],
    storage_systems: Iterable[tuple[str, int]],
) -> tuple[EndpointGroup, ...]:
    """The oob network's endpoints besides the systems and the switches: every management port.

    - `pdus`: PDU slug -> (PDUs racked, network ports of one): rack PDUs (metered or switched);
    - `servers`: fabric managers and management servers, each with its BMC ports (oob NICs),
      one group per part (the fabric managers first);
    - `storage_systems`: (slug, systems), STORAGE_MANAGEMENT_PORTS each.

    The DGX SuperPOD H100 RA's OOB fabric "connects the management ports of all devices
    including DGX and management servers, storage, networking gear, rack PDUs, and all other
    devices" (RA-11333-001, Out-of-Band Management Network).
    """
    groups = [
        EndpointGroup(slug, count, ports, MANAGEMENT_PORT_GBPS)
        for slug, (count, ports) in pdus.items() if count and ports
    ]
    by_server: dict[str, list[int]] = {}
    for server in servers:
        if server.count and server.oob_ports_each:
            known = by_server.setdefault(server.server, [0, server.oob_ports_each])
            known[0] += server.count
    groups += [EndpointGroup(slug, count, ports, MANAGEMENT_PORT_GBPS) for slug, (count, ports) in by_server.items()]
    groups += [
        EndpointGroup(slug, count, STORAGE_MANAGEMENT_PORTS, MANAGEMENT_PORT_GBPS)
        for slug, count in storage_systems if count
    ]
    return tuple(groups)
