"""Endpoints of each fabric: the systems' NICs by role, appliances, and management ports."""

from collections.abc import Iterable

from fabric.solver.interfaces import EndpointGroup, SwitchGroup
from planner.solver.parts import SystemSpec

MANAGEMENT_PORT_GBPS = 1.0
"""A switch's out-of-band management port: 1000BASE-T RJ45 on the catalog's switches."""
FABRIC_MANAGER = "fabric-manager"
"""Endpoint name of a fabric manager appliance (NVIDIA UFM) that takes leaf ports."""


def system_endpoints(system: SystemSpec, systems: int, role: str) -> EndpointGroup | None:
    """The systems' NIC ports of one role (compute, storage, inband, oob), or None without them.

    Compute ports are rail-aligned per tray: a GB200 NVL72 rack's 72 compute NICs are 18 trays of
    4 (one per GPU of the tray), so the fabric has 4 rails, not 72 (NVIDIA DGX GB200 user guide,
    hardware: 4 x ConnectX-7 per compute tray).
    """
    nic = system.nic(role)
    if nic is None or systems <= 0:
        return None
    trays = system.compute_trays if role == "compute" else 1
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
