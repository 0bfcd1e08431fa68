"""The point-to-point rows of the UFM Cable Validation Tool: one per cable of an InfiniBand
fabric, rack, U, device and port at each end.

Source: NVIDIA UFM Cable Validation Tool documentation, "Topology Files: P2P File" (v1.4-1.8,
https://docs.nvidia.com/networking/display/cablevalidationtool150/p2p+file, 2025): an Excel
workbook that may hold several sheets, whose InfiniBand sample sheet has the columns Rack, U,
Name, HCA/Port for the host (A) end and Rack, U, Name, Port for the switch (Z) end; a port is
a number or a split port such as `1/2`, and a host's port n is its n-th HCA (1 -> mlx5_0 P1).
The headers below are the sample sheet's, in its order.

Ports as the tool names them on a switch: the port number, a split (breakout) port's half as
`1/2` (our `p1/2`). A host's port is its NIC port number on the fabric (`3` for
`compute-p3`; `3/2` for plane 2 of a multi-plane NIC port). Devices keep the cabling plan's
names (`r012-node-03`, `r101-leaf-03`), so the file and the cabling plan agree row by row.
"""

from collections.abc import Iterable, Iterator

from planner.solver.errors import ScenarioError

UFM_COLUMNS = ("Rack", "U", "Name", "HCA/Port", "Rack", "U", "Name", "Port")
FORMAT_FIELD = "format"

# Positions in `fabric.solver.cabling.CABLING_COLUMNS`.
_FROM = slice(1, 5)
_TO = slice(5, 9)
_FABRIC = 16


def ufm_port(port: str) -> str:
    """`p17/2` -> `17/2`; `compute-p3` -> `3`; `compute-p3/2` -> `3/2`; other names unchanged."""
    name = port.rsplit("-", 1)[-1]
    if name.startswith("p") and name[1:2].isdigit():
        return name[1:]
    return port


def ufm_rows(cabling_rows: Iterable[tuple], fabrics: Iterable[str]) -> Iterator[tuple[str, tuple]]:
    """(fabric, row) for each cable of `fabrics`, from the cabling plan's rows."""
    wanted = set(fabrics)
    for row in cabling_rows:
        fabric = row[_FABRIC]
        if fabric not in wanted:
            continue
        start_rack, start_u, start_device, start_port = row[_FROM]
        end_rack, end_u, end_device, end_port = row[_TO]
        yield fabric, (start_rack, start_u, start_device, ufm_port(start_port),
                       end_rack, end_u, end_device, ufm_port(end_port))


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
