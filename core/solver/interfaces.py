"""What the fabric engine exchanges with the other steps of the pipeline.

Endpoints come in from compute sizing (the systems' NICs) and storage sizing (the storage
systems' ports); switch groups go out to rack packing and power, which place and feed them.
"""

from dataclasses import dataclass
from typing import Literal

FabricName = Literal["compute", "storage", "inband", "oob"]
Placement = Literal["network_rack", "compute_rack", "storage_rack"]


@dataclass(frozen=True)
class PortEnd:
    """One end of a segment's links, as the optics see it."""

    module_gbps: float
    """Rate of the module that fills the port or cage (a twin-port 2 x 400G cage: 800)."""
    links_per_module: int
    """Links one module serves: ports per cage x split for a switch, planes for a NIC."""


@dataclass(frozen=True)
class EndpointGroup:
    """Devices of one kind that attach to a fabric, e.g. 128 DGX H100 with 8 x 400G each."""

    name: str
    """What the devices are: a catalog slug (dgx-h100, ai400x2) or a kind (pdu, switch)."""
    count: int
    ports_per_endpoint: int
    port_gbps: float
    ports_per_cage: int = 1
    """Ports that share one cage and one module (a DGX H100's twin-port OSFP: 2)."""
    optics_in_power: bool = True
    """The device's rated power includes the modules in its cages (storage systems, appliances;
    a system says so in `SystemSpec.nic_optics_in_power`)."""
    trays: int = 1
    """Trays a device divides into, each with ports_per_endpoint / trays rail-aligned ports (a
    GB200 NVL72: 18 compute trays of 4 NICs)."""

    @property
    def rails(self) -> int:
        """Rail-aligned ports of one tray: the rails of a rail-optimized fabric."""
        return max(self.ports_per_endpoint // self.trays, 1)

    def port_end(self, planes: int) -> PortEnd:
        """The device's end of its links, as the optics see it: one module per cage, serving
        the cage's ports on every plane (a NIC port carries one link per plane)."""
        return PortEnd(self.port_gbps * self.ports_per_cage, planes * self.ports_per_cage)


@dataclass(frozen=True)
class SwitchGroup:
    """Switches of one role in one fabric, and where they are racked."""

    fabric: FabricName | str
    """A site of several pools names each pool's compute fabric compute-<pool>."""
    role: str
    """leaf, spine, core for Clos fabrics; rail, router or others for other topologies."""
    switch: str
    """Catalog slug."""
    count: int
    placement: Placement
