"""The point-to-point rows of the UFM Cable Validation Tool: one per cable of an InfiniBand
fabric, rack, U, device and port at each end.

Source: NVIDIA UFM Enterprise User Manual, "Cable Validation Tool" (docs.nvidia.com/networking,
UFM Enterprise), which validates the installed cabling against a point-to-point topology file
of the planned links, each given by its two ends' device and port with their rack location.
The exact column headers of NVIDIA's template could not be confirmed here (no copy of the
template or manual was available offline): the columns below carry the documented fields, the
start end first, in the order rack, U, device, port; map them to the template's headers if the
tool asks for others.

Ports as the tool names them on a switch: the port number, a split (breakout) port's half as
`1/2` (our `p1/2`). A host's port is its NIC port number on the fabric (`3` for
`compute-p3`; `3/2` for plane 2 of a multi-plane NIC port). Devices keep the cabling plan's
names (`r012-node-03`, `r101-leaf-03`), so the file and the cabling plan agree row by row.
"""

from collections.abc import Iterable, Iterator

from planner.solver.errors import ScenarioError

UFM_COLUMNS = (
    "Start Rack", "Start U", "Start Device", "Start Port",
    "End Rack", "End U", "End Device", "End Port",
)
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
