"""The servers that run the cluster: fabric manager appliances and management servers (head
nodes), counted from the scenario and the catalog's server parts.

They are racked in management racks, powered, bought (BOM category "management") and reach
the out-of-band network through their BMC (their oob NIC).
"""

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

FABRIC_ORDER = ("compute", "storage", "inband", "oob")
FABRIC_PORTS_ROLE = "compute"
"""The NIC role under which a fabric manager appliance lists the ports it puts on the fabric it
manages (its InfiniBand HCA, whatever the fabric)."""


@dataclass(frozen=True)
class ServerGroup:
    """So many servers of one catalog part, in one role."""

    role: str
    """fabric_manager or management_server."""
    server: str
    """Catalog slug."""
    count: int
    fabric: str = ""
    """The fabric a fabric manager serves; empty for management servers."""
    fabric_ports_each: int = 0
    """Leaf ports one fabric manager takes."""
    oob_ports_each: int = 0
    """Management (BMC) ports of one server, on the oob network."""


def fabric_managers_needed(fabric_manager_ports: int, ports_per_appliance: int) -> int:
    """Appliances that carry `fabric_manager_ports` leaf links: ceil(ports / ports per appliance).

    The DGX SuperPOD H100 (RA-11333-001) gives its compute fabric 4 UFM links (Table 4: "Compute
    and UFM" cables = 8 x 127 + 4) and lists 4 UFM 3.1 appliances for 4 SU (Table 7): a high
    availability pair per InfiniBand fabric (compute and storage), 2 ports each. An appliance
    without fabric ports in the catalog counts as taking them all (one appliance).
    """
    if fabric_manager_ports <= 0:
        return 0
    if ports_per_appliance <= 0:
        return 1
    return math.ceil(fabric_manager_ports / ports_per_appliance)


def server_groups(racks: Any, fabrics: Any, servers: Mapping[str, Any]) -> tuple[ServerGroup, ...]:
    """The fabric managers of every fabric with `fabric_manager_ports` (in fabric order), then
    `racks.management_servers` of `racks.management_server`.

    `racks` is a RacksSpec, `fabrics` a FabricsSpec, `servers` the catalog's ServerSpecs by slug
    (any objects with their fields)."""
    groups = []
    for name in FABRIC_ORDER:
        spec = getattr(fabrics, name, None)
        if spec is None or not spec.fabric_manager_ports:
            continue
        part = servers[spec.fabric_manager]
        nic = part.nic(FABRIC_PORTS_ROLE)
        each = nic.count if nic else 0
        count = fabric_managers_needed(spec.fabric_manager_ports, each)
        groups.append(ServerGroup(
            "fabric_manager", part.slug, count, name, each if each else spec.fabric_manager_ports,
            _oob_ports(part),
        ))
    if racks.management_servers:
        part = servers[racks.management_server]
        groups.append(ServerGroup("management_server", part.slug, racks.management_servers,
                                  oob_ports_each=_oob_ports(part)))
    return tuple(groups)


def server_counts(groups: tuple[ServerGroup, ...]) -> list[tuple[str, int]]:
    """(slug, count) over the groups, the same part added up, in order of first appearance."""
    counts: dict[str, int] = {}
    for group in groups:
        counts[group.server] = counts.get(group.server, 0) + group.count
    return list(counts.items())


def _oob_ports(part: Any) -> int:
    nic = part.nic("oob")
    return nic.count if nic else 0
