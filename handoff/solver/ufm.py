"""The point-to-point rows of the UFM Cable Validation Tool: one per cable of an InfiniBand
fabric, rack, U, device and port at each end.

Source: NVIDIA UFM Cable Validation Tool documentation, "Topology Files: P2P File" (v1.4-1.8,
https://docs.nvidia.com/networking/display/cablevalidationtool150/p2p+file, 2025): an Excel
workbook that may hold several sheets, whose InfiniBand sample sheet has the columns Rack, U,
Name, HCA/Port for the host (A) end and Rack, U, Name, Port for the switch (Z) end; a port is
a number or a split port such as `1/2`, and a host's port n is its n-th HCA (1 -> mlx5_0 P1).
The headers below are the sample sheet's, in its order.

Ports as the tool names them. A switch's port: its number (`17`, a number cell) or a split
port's lane (`17/2`) on MLNX-OS switches (the InfiniBand sample); `sw<cage>p<port>` on NVOS
(XDR) switches (the NVOS and XDR samples: `sw1p1`), a lane `sw9p1s2`. A host's port: its number
among all the host's ports on the plan's InfiniBand fabrics, in its device type's order
(compute ports, then storage ports, ...), the same number whichever fabric's sheet lists it; a
plane of a multi-plane port `3/2`. The tool maps host port n to an HCA by the `hca_mapping`
file ("Optional Files": `port,hca-name` lines; by default 1 -> mlx5_0 ... 8 -> mlx5_7 only), so
the bundle ships one that covers every number it uses. Devices keep the cabling plan's names
(`r012-node-03`, `r101-leaf-03`), so the file and the cabling plan agree row by row.
"""

from collections.abc import Iterable, Iterator

from core.solver.errors import ScenarioError
from handoff.solver.library import NVOS_INFINIBAND_PORTS, library_entry
from handoff.solver.netbox import Part, cable_end, nic_role, type_interfaces

UFM_COLUMNS = ("Rack", "U", "Name", "HCA/Port", "Rack", "U", "Name", "Port")
FORMAT_FIELD = "format"

# Positions in `fabric.solver.cabling.CABLING_COLUMNS`.
_FROM = slice(1, 5)
_TO = slice(5, 9)
_FABRIC = 16


HCA_MAPPING_COLUMNS = ("port", "hca-name")


def ufm_port(port: str) -> str:
    """`p17/2` -> `17/2`; `compute-p3` -> `3`; `compute-p3/2` -> `3/2`; other names unchanged."""
    name = port.rsplit("-", 1)[-1]
    if name.startswith("p") and name[1:2].isdigit():
        return name[1:]
    return port


def switch_port_cell(interface_name: str, nvos: bool) -> int | str:
    """A switch port as the tool reads it: NVOS names as they are (`sw9p1`), an MLNX-OS port as a
    number (`17`), a lane as `17/2`."""
    if nvos:
        return interface_name
    number = ufm_port(interface_name)
    return int(number) if number.isdigit() else number


def host_port_numbers(interface_names: Iterable[str], roles: Iterable[str]) -> dict[str, int]:
    """Port name -> the host's port number (from 1) over its ports of `roles`, in the order
    of `interface_names` (its device type's)."""
    wanted = set(roles)
    names = [name for name in interface_names if name.rsplit("-p", 1)[0] in wanted]
    return {name: number for number, name in enumerate(names, start=1)}


def host_port_cell(interface_name: str, parent: str, numbers: dict[str, int]) -> int | str:
    """A host's port as the tool reads it: its number (a number cell), a plane `3/2`; a port
    outside the numbering keeps the cabling plan's number."""
    base = parent or interface_name
    number = numbers.get(base)
    if number is None:
        return ufm_port(interface_name)
    if parent:
        return f"{number}/{interface_name.rsplit('/', 1)[-1]}"
    return number


def hca_mapping_rows(ports: int) -> list[tuple[int, str]]:
    """`port,hca-name` for host ports 1 to `ports`: port n on mlx5_(n-1), the tool's own rule
    carried past its default eight ports."""
    return [(number, f"mlx5_{number - 1}") for number in range(1, ports + 1)]


class HostPorts:
    """Each host part's port numbers over its ports on the plan's InfiniBand fabrics."""

    def __init__(self, fabrics: Iterable[str]) -> None:
        self.fabrics = list(fabrics)
        self.numbers: dict[str, dict[str, int]] = {}

    def of(self, part: Part) -> dict[str, int]:
        if part.slug not in self.numbers:
            names = [item.name for item in type_interfaces(part)]
            roles = {name.rsplit("-p", 1)[0] for name in names}
            wanted = {nic_role(fabric, roles) for fabric in self.fabrics}
            self.numbers[part.slug] = host_port_numbers(names, wanted)
        return self.numbers[part.slug]

    def most(self) -> int:
        return max((len(numbers) for numbers in self.numbers.values()), default=0)


def ufm_rows(cabling_rows: Iterable[tuple], fabrics: Iterable[str], part_of: dict[str, Part | None],
             host_ports: HostPorts) -> Iterator[tuple[str, tuple]]:
    """(fabric, row) for each cable of `fabrics`, from the cabling plan's rows: rack and device
    names as texts, U and port numbers as numbers."""
    wanted = set(fabrics)
    for row in cabling_rows:
        fabric = row[_FABRIC]
        if fabric not in wanted:
            continue
        cells = []
        for rack, u, device, port in (row[_FROM], row[_TO]):
            cells += [rack, u, device, _port_cell(part_of.get(device), port, fabric, host_ports)]
        yield fabric, tuple(cells)


def _port_cell(part: Part | None, port: str, fabric: str, host_ports: HostPorts) -> int | str:
    if part is None:
        return ufm_port(port)
    interface = cable_end(part, port, fabric, "infiniband")
    if part.kind == "switch":
        return switch_port_cell(interface.name, library_entry(part.slug).port_names == NVOS_INFINIBAND_PORTS)
    return host_port_cell(interface.name, interface.parent, host_ports.of(part))


def require_infiniband(fabrics: list[str], technologies: dict[str, str]) -> None:
    """A UFM file needs an InfiniBand fabric: raise at `format` naming the plan's fabrics."""
    if fabrics:
        return
    if technologies:
        listed = ", ".join(f"{name} ({technology})" for name, technology in technologies.items())
        message = f"the plan has no InfiniBand fabric (its fabrics: {listed}); UFM validates InfiniBand cabling only"
    else:
        message = "the plan has no fabrics; UFM validates InfiniBand cabling only"
    raise ScenarioError.at(FORMAT_FIELD, message)
