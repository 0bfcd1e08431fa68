"""Endpoints of each fabric: the systems' NICs by role, appliances, and management ports."""

from collections.abc import Iterable

from fabric.solver.interfaces import EndpointGroup, SwitchGroup
from planner.solver.parts import SystemSpec

MANAGEMENT_PORT_GBPS = 1.0
"""A switch's out-of-band management port: 1000BASE-T RJ45 on the catalog's switches."""
FABRIC_MANAGER = "fabric-manager"
"""Endpoint name of a fabric manager appliance (NVIDIA UFM) that takes leaf ports."""


def system_endpoints(system: SystemSpec, systems: int, role: str) -> EndpointGroup | None:
    """The systems' NIC ports of one role (compute, storage, inband, oob), or None without them."""
    nic = system.nic(role)
    if nic is None or systems <= 0:
        return None
    return EndpointGroup(system.slug, systems, nic.count, nic.gbps)


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
