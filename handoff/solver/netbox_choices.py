"""NetBox's names for interface, power port and cable types that the bundle uses, and the
device-type library's required keys: the rules a device type of the bundle must follow.

Sources: NetBox's own choices, `netbox/dcim/choices.py` (`InterfaceTypeChoices`,
`PowerPortTypeChoices`, `CableTypeChoices`), from which netbox-community/devicetype-library
builds the enums of `schema/devicetype.json`; that schema's `required` list (manufacturer,
model, slug) and its slug pattern. Neither could be read here (NetBox is not published on PyPI,
and the library's schema could not be fetched), so the lists below hold only the values this
bundle writes, each as NetBox spells it, and are not the full enums.
"""

import re

DEVICE_TYPE_REQUIRED_KEYS = ("manufacturer", "model", "slug")
SLUG_PATTERN = re.compile(r"^[-a-z0-9_]+$")

INTERFACE_TYPES = frozenset({
    "1000base-t",
    "10gbase-x-sfpp",
    "25gbase-x-sfp28",
    "100gbase-x-qsfp28",
    "200gbase-x-qsfp56",
    "400gbase-x-qsfpdd",
    "400gbase-x-osfp",
    "800gbase-x-osfp",
    "infiniband-edr",
    "infiniband-hdr",
    "infiniband-ndr",
    "infiniband-xdr",
    "other",
})
POWER_PORT_TYPES = frozenset({"iec-60320-c14", "iec-60320-c20", "hardwired"})
POWER_OUTLET_TYPES = frozenset({"iec-60320-c19"})
CABLE_TYPES = frozenset({"cat6a", "dac-active", "dac-passive", "aoc", "mmf-om4", "smf-os2", "power", ""})

ETHERNET_INTERFACE_BY_GBPS = {
    1: "1000base-t", 10: "10gbase-x-sfpp", 25: "25gbase-x-sfp28", 100: "100gbase-x-qsfp28",
    200: "200gbase-x-qsfp56", 400: "400gbase-x-osfp", 800: "800gbase-x-osfp",
}
"""400 and 800 Gb/s ports of the catalog's switches and NICs are OSFP cages."""
INFINIBAND_INTERFACE_BY_GBPS = {100: "infiniband-edr", 200: "infiniband-hdr", 400: "infiniband-ndr", 800: "infiniband-xdr"}
CABLE_TYPE_BY_MEDIA = {"dac": "dac-passive", "acc": "dac-active", "aoc": "aoc", "copper": "cat6a"}


def interface_type(technology: str, gbps: float) -> str:
    table = INFINIBAND_INTERFACE_BY_GBPS if technology == "infiniband" else ETHERNET_INTERFACE_BY_GBPS
    return table.get(round(gbps), "other")


def cable_type(media: str, cable: str) -> str:
    """NetBox's cable type for the cabling plan's medium and cable part."""
    if media in CABLE_TYPE_BY_MEDIA:
        return CABLE_TYPE_BY_MEDIA[media]
    if "rj45" in cable or "cat6" in cable:
        return "cat6a"
    if "om4" in cable:
        return "mmf-om4"
    if "os2" in cable:
        return "smf-os2"
    return ""


def device_type_problems(device_type: dict) -> list[str]:
    """What breaks the library's rules in one device type (empty when it follows them)."""
    problems = [f"missing {key}" for key in DEVICE_TYPE_REQUIRED_KEYS if not device_type.get(key)]
    if device_type.get("slug") and not SLUG_PATTERN.match(device_type["slug"]):
        problems.append(f"slug {device_type['slug']!r} is not lower-case letters, digits, '-' and '_'")
    height = device_type.get("u_height", 1)
    if not isinstance(height, (int, float)) or height < 0 or (height * 2) % 1:
        problems.append(f"u_height {height!r} is not a non-negative multiple of 0.5")
    if not isinstance(device_type.get("is_full_depth", True), bool):
        problems.append("is_full_depth is not true or false")
    names = [interface.get("name") for interface in device_type.get("interfaces", [])]
    if len(names) != len(set(names)):
        problems.append("interface names repeat")
    for interface in device_type.get("interfaces", []):
        if interface.get("type") not in INTERFACE_TYPES:
            problems.append(f"interface {interface.get('name')}: type {interface.get('type')!r} is not NetBox's")
    for port in device_type.get("power-ports", []):
        if port.get("type") not in POWER_PORT_TYPES:
            problems.append(f"power port {port.get('name')}: type {port.get('type')!r} is not NetBox's")
        draw = port.get("maximum_draw")
        if not isinstance(draw, int) or draw < 1:
            problems.append(f"power port {port.get('name')}: maximum_draw {draw!r} is not a positive whole number of W")
    return problems
