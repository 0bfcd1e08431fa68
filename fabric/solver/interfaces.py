"""What the fabric engine exchanges with the other steps of the pipeline.

Endpoints come in from compute sizing (the systems' NICs) and storage sizing (the storage
systems' ports); switch groups go out to rack packing and power, which place and feed them.
"""

from dataclasses import dataclass
from typing import Literal

FabricName = Literal["compute", "storage", "inband", "oob"]
Placement = Literal["network_rack", "compute_rack", "storage_rack"]


@dataclass(frozen=True)
class EndpointGroup:
    """Devices of one kind that attach to a fabric, e.g. 128 DGX H100 with 8 x 400G each."""

    name: str
    """What the devices are: a catalog slug (dgx-h100, ai400x2) or a kind (pdu, switch)."""
    count: int
    ports_per_endpoint: int
    port_gbps: float


@dataclass(frozen=True)
class SwitchGroup:
    """Switches of one role in one fabric, and where they are racked."""

    fabric: FabricName
    role: str
    """leaf, spine, core for Clos fabrics; rail, router or others for other topologies."""
    switch: str
    """Catalog slug."""
    count: int
    placement: Placement


@dataclass(frozen=True)
class LengthShare:
    """A share of a segment's links that run one cable length, measured on the floor layout."""

    length_m: float
    share: float
    """Fraction of the segment's links (the shares of a segment add up to 1)."""
