"""How the community device-type library names the catalog's parts: their manufacturer, model,
part number, port names and power supplies, where the library (or the vendor) gives them. The
catalog's rows carry none of these, so the hand-off keeps them here, one entry per catalog slug,
each from the library file named in its `source`.

Sources: netbox-community/devicetype-library, `device-types/Nvidia/QM9700.yaml` (model QM9700,
two power ports), `device-types/Nvidia/SN5600.yaml` (SN5600: `eth0`, `swp1`...`swp64`, two
PSUs), `device-types/Nvidia/SN2201.yaml` and `device-types/Mellanox/SN2201.yml` (SN2201: `eth0`,
`swp1`...`swp52`, two C14 PSUs), `device-types/Nvidia/Q3400-RA.yaml` (Q3400-RA, part number
920-9B36F-00RX-8S0, `eth0`, `sw<cage>p<port>` for its 72 twin-port cages, eight C20 PSUs); the
library files its NVIDIA parts under the manufacturer `Nvidia`. Cumulus Linux and NVOS name an
Ethernet port `swp<n>` and the lanes of a split port `swp<n>s<k>` from k = 0 (Cumulus Linux user
guide, "Switch Port Attributes: Breakout Ports"). The DGX H100's six PSUs are the user guide's
(6 x 3.3 kW, 4+2), as the catalog's notes quote it.

Where a part has no entry, its model is its catalog slug, its manufacturer the first name of its
vendor, its ports `p<n>`, and it has two PSUs (servers and switches of this class are built with
redundant supplies; a PDU has one hardwired inlet).
"""

import re
from dataclasses import dataclass

SWITCH_PORTS = "p"
"""`p17`; the lanes of a split port `p17/1`, `p17/2` (the cabling plan's own names)."""
CUMULUS_PORTS = "swp"
"""`swp17`; the lanes of a split port `swp17s0`, `swp17s1`."""
NVOS_INFINIBAND_PORTS = "sw-cage"
"""`sw9p1` (cage 9, its first port); the lanes of a split port `sw9p1s1`, `sw9p1s2`."""

DEFAULT_POWER_SUPPLIES = 2
MANUFACTURER_NAMES = {"NVIDIA": "Nvidia"}
"""The library's spelling of a vendor where it differs from the catalog's."""


@dataclass(frozen=True)
class LibraryEntry:
    model: str
    part_number: str = ""
    manufacturer: str = ""
    """The library's manufacturer; empty: the vendor's first name (`MANUFACTURER_NAMES`)."""
    port_names: str = SWITCH_PORTS
    management_port: str = "mgmt"
    power_supplies: int = DEFAULT_POWER_SUPPLIES
    power_port_type: str = ""
    """NetBox's power port type; empty: the bundle's default for the kind of part."""
    source: str = ""


LIBRARY = {
    # The library's QM9700 gives no part number: the ordering part numbers are NVIDIA's (QM97X0 user manual).
    "qm9700": LibraryEntry("QM9700", "MQM9700-NS2F", source="device-types/Nvidia/QM9700.yaml"),
    "qm9790": LibraryEntry("QM9790", "MQM9790-NS2F", source="NVIDIA Quantum-2 QM9700/QM9790 user manual"),
    "q3400": LibraryEntry("Q3400-RA", "920-9B36F-00RX-8S0", port_names=NVOS_INFINIBAND_PORTS, management_port="eth0",
                          power_supplies=8, power_port_type="iec-60320-c20",
                          source="device-types/Nvidia/Q3400-RA.yaml"),
    "sn5600": LibraryEntry("SN5600", port_names=CUMULUS_PORTS, management_port="eth0",
                           source="device-types/Nvidia/SN5600.yaml"),
    "sn2201": LibraryEntry("SN2201", port_names=CUMULUS_PORTS, management_port="eth0",
                           power_port_type="iec-60320-c14", source="device-types/Nvidia/SN2201.yaml"),
    "sn4600c": LibraryEntry("SN4600C", port_names=CUMULUS_PORTS, management_port="eth0",
                            source="device-types/Mellanox/SN4600C.yml"),
    "sn4700": LibraryEntry("SN4700", port_names=CUMULUS_PORTS, management_port="eth0",
                           source="device-types/Mellanox/SN4700.yml"),
    "dgx-h100": LibraryEntry("DGX H100", power_supplies=6, source="NVIDIA DGX H100 user guide (catalog notes)"),
}


def library_entry(slug: str) -> LibraryEntry:
    return LIBRARY.get(slug) or LibraryEntry(slug)


def manufacturer_name(vendor: str, slug: str = "") -> str:
    """The library's manufacturer of a part: its entry's, else the vendor's first name as the
    library spells it (`NVIDIA / Generic` -> Nvidia; `Generic (Dell ...)` -> Generic)."""
    entry = LIBRARY.get(slug)
    if entry is not None and entry.manufacturer:
        return entry.manufacturer
    name = re.split(r"\s*[/(,]\s*", vendor or "")[0].strip() or "Generic"
    return MANUFACTURER_NAMES.get(name, name)


def switch_port_name(scheme: str, port: int, lane: int = 0, ports_per_cage: int = 1) -> str:
    """The vendor's name of native port `port` (from 1), or of lane `lane` (from 1) of it split."""
    if scheme == CUMULUS_PORTS:
        return f"swp{port}" + (f"s{lane - 1}" if lane else "")
    if scheme == NVOS_INFINIBAND_PORTS:
        cage, within = divmod(port - 1, max(ports_per_cage, 1))
        return f"sw{cage + 1}p{within + 1}" + (f"s{lane}" if lane else "")
    return f"p{port}" + (f"/{lane}" if lane else "")
