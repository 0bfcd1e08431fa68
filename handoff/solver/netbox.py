"""The NetBox bundle's contents: device types in the community device-type library's format and
rows in NetBox's bulk-import (CSV) columns, for the plan's site, racks, devices, interfaces,
cables, power panels, feeds and power cables.

Sources: netbox-community/devicetype-library README ("Definition Format") and its
`schema/devicetype.json`; NetBox's bulk import forms (`dcim/forms/bulk_import.py`: the column
names are the forms' fields; a related object by its name, a device type by its model with its
manufacturer; a cable's ends by `side_a_site`, `side_a_device` (or `side_a_power_panel` for a
power feed), `side_a_type` and `side_a_name`; a device's `virtual_chassis` by name with its `vc_position`).

One device type per catalog part, whatever the plan: its ports as the catalog counts them,
named as the vendor names them where `handoff.solver.library` knows it (`swp17`, `sw9p1`), else
ours (`p17`; a system's NIC ports `compute-p3`, by NIC role), each typed by its cage and speed;
each power supply (`PSU1`...) sharing the part's maximum draw. What only a plan has goes into
the plan's own files: a split port's lanes and a multi-plane NIC port's planes are interfaces
of their own (`11-interfaces.csv`) beside the type's port, which their description names,
typed at the lane's speed on the fabric's technology, and so is any port a pool's own NICs add.
They are not the port's children: NetBox 4.7 gives a parent only to a virtual interface or to
a channel of a channelized port, and a channel takes no cable of its own (its port's breakout
cable, with a cable profile, carries it), where the cabling plan cables each lane.

Names that coexist in one NetBox: every device name starts with the site's slug
(`h100-4-su-cluster-r001-node-01`, configurable), and every cable end names its site.

Power: each PDU has its own feed, the first half of a rack's PDUs on panel A (primary), the
rest on panel B (redundant). A feed is cabled to its PDU's inlet; each device's PSUs are cabled
to its rack's PDUs, odd PSUs to side A and even ones to side B, each PDU's outlets in turn.

Assumptions where the catalog is silent: switches and servers are full depth, PDUs 0U; a PDU's
outlets are C19 (a C20 or C14 plug needs the rack's jumper cords); every rack, device and cable
is `planned`.
"""

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from math import ceil
from typing import TYPE_CHECKING, Any

from handoff.solver.devices import SCALE_UP_SUFFIX, TRAY_SUFFIX, Device, SystemShare
from handoff.solver.library import library_entry, manufacturer_name, switch_port_name
from handoff.solver.netbox_choices import ETHERNET_INTERFACE_BY_GBPS, cable_type, interface_type

if TYPE_CHECKING:
    from catalog.solver.snapshot import CatalogSnapshot

STATUS = "planned"
LENGTH_UNIT = "m"
FACE = "front"
ETHERNET = "ethernet"
OOB_GBPS = 1
MANAGEMENT_PORT = "mgmt"
MANAGEMENT_TYPE = "1000base-t"
SERVER_POWER_PORT = "iec-60320-c20"
SWITCH_POWER_PORT = "iec-60320-c14"
PDU_INLET = "inlet"
PDU_POWER_PORT = "hardwired"
PDU_OUTLET = "iec-60320-c19"
POWER_CABLE = "power"
RACK_WIDTH_IN = 19
OPEN_RACK_WIDTH_IN = 21
PANELS = ("A", "B")
DEVICE_PREFIX_LENGTH = 24
"""Longest site prefix of a device name: NetBox keeps a device's name in 64 characters."""

SITE_COLUMNS = ("name", "slug", "status")
MANUFACTURER_COLUMNS = ("name", "slug")
ROLE_COLUMNS = ("name", "slug", "color")
RACK_COLUMNS = ("site", "name", "status", "role", "u_height", "width", "outer_width", "outer_depth",
                "outer_unit", "max_weight", "weight_unit", "comments")
VIRTUAL_CHASSIS_COLUMNS = ("name", "domain", "description")
DEVICE_COLUMNS = ("name", "role", "manufacturer", "device_type", "status", "site", "rack", "position", "face",
                  "virtual_chassis", "vc_position", "description")
INTERFACE_COLUMNS = ("device", "name", "type", "mgmt_only", "description")
CABLE_COLUMNS = ("side_a_site", "side_a_device", "side_a_type", "side_a_name", "side_b_site", "side_b_device",
                 "side_b_type", "side_b_name", "type", "status", "label", "length", "length_unit")
POWER_CABLE_COLUMNS = ("side_a_site", "side_a_device", "side_a_power_panel", "side_a_type", "side_a_name",
                       "side_b_site", "side_b_device", "side_b_type", "side_b_name", "type", "status", "label")
POWER_PANEL_COLUMNS = ("site", "name")
POWER_FEED_COLUMNS = ("site", "power_panel", "rack", "name", "status", "type", "supply", "phase", "voltage",
                      "amperage", "max_utilization")
ROLE_COLORS = {"compute": "76b900", "network": "1f77b4", "storage": "ff7f0e", "management": "7f7f7f"}
DEVICE_ROLE_COLORS = {"node": "76b900", "pdu": "9e9e9e", "storage": "ff7f0e", "fabric-manager": "17becf",
                      "management-server": "7f7f7f"}
INTERFACE_OBJECT = "dcim.interface"
POWER_FEED_OBJECT = "dcim.powerfeed"
POWER_PORT_OBJECT = "dcim.powerport"
POWER_OUTLET_OBJECT = "dcim.poweroutlet"
# Positions in `fabric.solver.cabling.CABLING_COLUMNS`.
_LINK, _FROM_DEVICE, _FROM_PORT, _TO_DEVICE, _TO_PORT, _MEDIA, _CABLE, _LENGTH, _FABRIC = 0, 3, 4, 7, 8, 9, 10, 12, 16
_SWITCH_PORT = re.compile(r"^p(\d+)(?:/(\d+))?$")
_NIC_PORT = re.compile(r"^(.+)-p(\d+)(?:/(\d+))?$")


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "unnamed"


def device_prefix(site_name: str) -> str:
    """The default start of the site's device names: its slug, cut to `DEVICE_PREFIX_LENGTH`."""
    return slug(site_name)[:DEVICE_PREFIX_LENGTH].strip("-") + "-"


@dataclass(frozen=True)
class Part:
    slug: str
    kind: str
    """system, switch, server, storage, pdu."""
    spec: Any


@dataclass(frozen=True)
class Interface:
    name: str
    type: str
    mgmt_only: bool = False
    parent: str = ""
    """The type's interface this one is a lane or plane of (a plan's own interface, which its
    description names); empty for the type's own interfaces."""


def plan_parts(devices: Iterable[Device], catalog: "CatalogSnapshot",
               shares: dict[str, SystemShare] | None = None) -> dict[str, Part]:
    """The catalog part of every device's slug (a multi-rack system's trays and scale-up
    switching: their `shares`)."""
    shares = shares or {}
    tables = (("system", catalog.systems), ("switch", catalog.switches), ("server", catalog.servers),
              ("storage", catalog.storage_systems), ("pdu", catalog.pdus),
              ("tray", {slug: share for slug, share in shares.items() if slug.endswith(TRAY_SUFFIX)}),
              ("scale-up", {slug: share for slug, share in shares.items() if slug.endswith(SCALE_UP_SUFFIX)}))
    parts: dict[str, Part] = {}
    for device in devices:
        if device.slug in parts:
            continue
        for kind, table in tables:
            if device.slug in table:
                parts[device.slug] = Part(device.slug, kind, table[device.slug])
                break
    return parts


def part_manufacturer(part: Part) -> str:
    return manufacturer_name(part.spec.vendor, part.slug)


def part_model(part: Part) -> str:
    return library_entry(part.slug).model


def nic_interface_type(gbps: float, role: str) -> str:
    """A NIC port's type by its cage and speed (a ConnectX port is the same port on InfiniBand
    or Ethernet); a BMC's port is copper."""
    if role == "oob" and gbps <= OOB_GBPS:
        return MANAGEMENT_TYPE
    return ETHERNET_INTERFACE_BY_GBPS.get(round(gbps), "other")


def type_interfaces(part: Part) -> list[Interface]:
    """The interfaces of a part's device type, as the catalog counts its ports."""
    spec = part.spec
    entry = library_entry(part.slug)
    if part.kind == "switch":
        cage = getattr(spec, "ports_per_cage", 1)
        down, up = interface_type(spec.technology, spec.port_gbps), interface_type(spec.technology, spec.uplink_gbps)
        ports = [Interface(switch_port_name(entry.port_names, n, 0, cage), down) for n in range(1, spec.ports + 1)]
        uplinks = [Interface(switch_port_name(entry.port_names, n, 0, cage), up)
                   for n in range(spec.ports + 1, spec.ports + spec.uplink_ports + 1)]
        return [Interface(entry.management_port, MANAGEMENT_TYPE, True), *ports, *uplinks]
    if part.kind in ("system", "server", "tray"):
        return [Interface(f"{nic.role}-p{n}", nic_interface_type(nic.gbps, nic.role), nic.role == "oob")
                for nic in spec.nics for n in range(1, nic.count + 1)]
    if part.kind == "storage":
        ports = [Interface(f"storage-p{n}", nic_interface_type(spec.port_gbps, "storage"))
                 for n in range(1, spec.ports + 1)]
        return [Interface(MANAGEMENT_PORT, MANAGEMENT_TYPE, True), *ports]
    if part.kind == "pdu":
        count = getattr(spec, "management_ports", 1)
        names = [MANAGEMENT_PORT] if count <= 1 else [f"{MANAGEMENT_PORT}{n}" for n in range(1, count + 1)]
        return [Interface(name, MANAGEMENT_TYPE, True) for name in names]
    return []


def power_supplies(part: Part) -> list[str]:
    """The names of a part's power ports: a PDU's inlet, every other part's PSUs."""
    if part.kind == "pdu":
        return [PDU_INLET]
    return [f"PSU{n}" for n in range(1, library_entry(part.slug).power_supplies + 1)]


def device_type(part: Part) -> dict:
    """One device type in the library's format, the same for every plan."""
    spec = part.spec
    entry = library_entry(part.slug)
    manufacturer = part_manufacturer(part)
    units = 0 if part.kind == "pdu" else getattr(spec, "rack_units", 1)
    data: dict[str, Any] = {
        "manufacturer": manufacturer,
        "model": entry.model,
        "slug": f"{slug(manufacturer)}-{slug(entry.model)}",
    }
    if entry.part_number:
        data["part_number"] = entry.part_number
    data.update(u_height=units, is_full_depth=part.kind != "pdu")
    weight = getattr(spec, "weight_kg", None)
    if weight:
        data.update(weight=library_weight(float(weight)), weight_unit="kg")
    data["comments"] = spec.name if part.kind in ("tray", "scale-up") else f"{spec.name} (catalog part {part.slug})"
    interfaces = type_interfaces(part)
    if interfaces:
        data["interfaces"] = [{"name": item.name, "type": item.type, **({"mgmt_only": True} if item.mgmt_only else {})}
                              for item in interfaces]
    draw_w = _maximum_draw_w(part)
    names = power_supplies(part)
    if part.kind == "pdu":
        data["power-ports"] = [{"name": PDU_INLET, "type": PDU_POWER_PORT,
                                **({"maximum_draw": draw_w} if draw_w else {})}]
        data["power-outlets"] = [{"name": f"outlet{n}", "type": PDU_OUTLET, "power_port": PDU_INLET}
                                 for n in range(1, getattr(spec, "outlets", 1) + 1)]
    else:
        kind = entry.power_port_type or (SWITCH_POWER_PORT if part.kind == "switch" else SERVER_POWER_PORT)
        # The part's maximum draw shared by its supplies: NetBox sums the draws of the ports on a feed.
        each_w = ceil(draw_w / len(names)) if draw_w else 0
        data["power-ports"] = [{"name": name, "type": kind, **({"maximum_draw": each_w} if each_w else {})}
                               for name in names]
    return data


def library_weight(kg: float) -> float:
    """A weight the library's schema takes (`multipleOf: 0.01`, checked in binary floating point,
    where 130.45 / 0.01 is not whole): to 0.01 kg where that divides evenly, else to 0.1 kg."""
    for digits in (2, 1, 0):
        value = round(kg, digits)
        if (value / 0.01) == int(value / 0.01):
            return value
    return float(round(kg))


def _maximum_draw_w(part: Part) -> int:
    spec = part.spec
    if part.kind == "switch":
        return round(spec.power_w)
    if part.kind == "pdu":
        return round(spec.voltage_v * spec.current_a * (3 ** 0.5 if spec.phases == 3 else 1) * spec.continuous_derating)
    return round(getattr(spec, "power_kw", 0) * 1000)


def nic_role(fabric: str, roles: Iterable[str]) -> str:
    """The NIC role a fabric's ports take: a pool's own compute fabric (`compute-training`) is
    served by the system's compute NICs."""
    roles = set(roles)
    if fabric in roles:
        return fabric
    if fabric.startswith("compute-") and "compute" in roles:
        return "compute"
    return fabric


def cable_end(part: Part | None, port: str, fabric: str, technology: str) -> Interface:
    """The interface a cabling plan port (`p17/2`, `compute-training-p3`, `mgmt`) is on the
    part's device: a type's own interface, or a lane or plane of one (with its parent)."""
    if part is None:
        return Interface(port, "other")
    spec = part.spec
    entry = library_entry(part.slug)
    if part.kind == "switch":
        if port == MANAGEMENT_PORT:
            return Interface(entry.management_port, MANAGEMENT_TYPE, True)
        if port.startswith(MANAGEMENT_PORT + "/"):
            return Interface(f"{entry.management_port}/{port.partition('/')[2]}", MANAGEMENT_TYPE, True,
                             entry.management_port)
        match = _SWITCH_PORT.match(port)
        if match is None:
            return Interface(port, "other")
        native, lane = int(match[1]), int(match[2] or 0)
        cage = getattr(spec, "ports_per_cage", 1)
        uplink = native > spec.ports
        gbps = spec.uplink_gbps if uplink else spec.port_gbps
        if not lane:
            return Interface(switch_port_name(entry.port_names, native, 0, cage), interface_type(spec.technology, gbps))
        # The lane's speed is the port's over the smallest breakout the switch offers that holds it.
        ways = min((option for option in getattr(spec, "split", ()) if option >= lane), default=lane)
        return Interface(switch_port_name(entry.port_names, native, lane, cage),
                         interface_type(spec.technology, gbps / max(ways, 1)),
                         parent=switch_port_name(entry.port_names, native, 0, cage))
    if part.kind == "pdu":
        base, _, plane = port.partition("/")
        return Interface(port, MANAGEMENT_TYPE, True, base if plane else "")
    own = {item.name: item for item in type_interfaces(part)}
    if port in own:
        return own[port]
    match = _NIC_PORT.match(port)
    if match is None:
        base, _, plane = port.partition("/")
        if plane and base in own:
            return Interface(port, own[base].type, own[base].mgmt_only, base)
        return Interface(port, MANAGEMENT_TYPE if fabric == "oob" else "other", fabric == "oob")
    roles = [nic.role for nic in getattr(spec, "nics", ())] or (["storage"] if part.kind == "storage" else [])
    role = nic_role(match[1], roles)
    base = f"{role}-p{match[2]}"
    plane = int(match[3] or 0)
    if base not in own:
        nic_gbps = next((nic.gbps for nic in getattr(spec, "nics", ()) if nic.role == role),
                        getattr(spec, "port_gbps", OOB_GBPS))
        kind = MANAGEMENT_TYPE if role == "oob" else interface_type(technology, nic_gbps)
        return Interface(f"{base}/{plane}" if plane else base, kind, role == "oob")
    if not plane:
        return own[base]
    nic = next((nic for nic in getattr(spec, "nics", ()) if nic.role == role), None)
    gbps = nic.gbps if nic is not None else getattr(spec, "port_gbps", 0)
    return Interface(f"{base}/{plane}", interface_type(technology, gbps), own[base].mgmt_only, base)


def rack_rows(plan: Any, racks_index: Any, catalog: "CatalogSnapshot", site: str) -> Iterator[tuple]:
    """One row per rack, in floor order, named as the cabling plan names them (`r012`)."""
    rows = []
    seen: dict[str, int] = {}
    for group in getattr(plan.racks, "per_rack", ()) or ():
        rack_type = catalog.rack_types.get(group.rack_type)
        for within in range(group.count):
            index = seen.get(group.kind, 0) + within
            number = racks_index.number(group.kind, index)
            width = OPEN_RACK_WIDTH_IN if group.rack_type.startswith("orv3") else RACK_WIDTH_IN
            rows.append((number, (
                site, racks_index.label(number) or f"{group.kind}-{index + 1}", STATUS, group.kind, group.usable_u,
                width, getattr(rack_type, "width_mm", ""), getattr(rack_type, "depth_mm", ""),
                "mm" if rack_type is not None else "", getattr(rack_type, "static_load_kg", ""),
                "kg" if rack_type is not None else "", group.rack_type,
            )))
        seen[group.kind] = seen.get(group.kind, 0) + group.count
    return (row for _, row in sorted(rows, key=lambda item: item[0]))


def device_rows(devices: Iterable[Device], parts: dict[str, Part], site: str, prefix: str = "",
                host_names: dict[str, str] | None = None,
                chassis: dict[str, tuple[str, int]] | None = None) -> Iterator[tuple]:
    """One row per device at its rack position (lowest U), front face; PDUs (0U) without a
    position. `host_names` (device -> host name) fills the description (the Slurm node name);
    `chassis` (device -> virtual chassis, position) groups a multi-rack system's devices."""
    host_names = host_names or {}
    chassis = chassis or {}
    for device in devices:
        part = parts.get(device.slug)
        manufacturer = part_manufacturer(part) if part else ""
        model = part_model(part) if part else device.slug
        racked = bool(device.u) and bool(device.rack_label)
        virtual_chassis, position = chassis.get(device.name, ("", ""))
        yield (prefix + device.name, device.role, manufacturer, model, STATUS, site, device.rack_label,
               device.u if racked else "", FACE if racked else "", virtual_chassis, position,
               host_names.get(device.name, ""))


def cable_row(row: tuple, site: str, prefix: str, end_a: Interface, end_b: Interface) -> tuple:
    """The NetBox cable of one cabling plan row: interface to interface, each end at its site."""
    return (site, prefix + row[_FROM_DEVICE], INTERFACE_OBJECT, end_a.name,
            site, prefix + row[_TO_DEVICE], INTERFACE_OBJECT, end_b.name,
            cable_type(row[_MEDIA], row[_CABLE]), STATUS, f"{row[_FABRIC]}-{row[_LINK]}", row[_LENGTH], LENGTH_UNIT)


def interface_row(device: str, interface: Interface) -> tuple:
    return (device, interface.name, interface.type, interface.mgmt_only,
            f"lane of {interface.parent}" if interface.parent else "port of the plan's own NICs")


def rack_pdus(devices: Iterable[Device]) -> dict[str, list[Device]]:
    """The PDUs of each rack (by label), in their order."""
    per_rack: dict[str, list[Device]] = {}
    for device in devices:
        if device.role == "pdu":
            per_rack.setdefault(device.rack_label, []).append(device)
    return per_rack


def pdu_side(at: int, pdus: int) -> int:
    """0 (panel A) for the first half of a rack's PDUs, 1 (panel B) for the rest."""
    return 0 if at < (pdus + 1) // 2 else 1


def feed_name(pdu_name: str) -> str:
    return pdu_name.replace("-pdu-", "-feed-")


def power_feed_rows(devices: Iterable[Device], catalog: "CatalogSnapshot", site: str,
                    prefix: str = "") -> Iterator[tuple]:
    """One feed per PDU: the first half of a rack's PDUs on panel A (primary), the rest on B."""
    for rack, pdus in rack_pdus(devices).items():
        for at, pdu in enumerate(pdus):
            spec = catalog.pdus.get(pdu.slug)
            side = pdu_side(at, len(pdus))
            yield (site, f"panel-{PANELS[side].lower()}", rack, feed_name(prefix + pdu.name), STATUS,
                   "primary" if side == 0 else "redundant", "ac",
                   "three-phase" if getattr(spec, "phases", 1) == 3 else "single-phase",
                   round(getattr(spec, "voltage_v", 0)), round(getattr(spec, "current_a", 0)),
                   round(getattr(spec, "continuous_derating", 0.8) * 100))


@dataclass
class PowerCabling:
    rows: list[tuple]
    unpowered: int
    """PSUs left without an outlet (their rack's PDUs have too few outlets, or it has none)."""


def power_cable_rows(devices: list[Device], parts: dict[str, Part], site: str, prefix: str = "") -> PowerCabling:
    """Feed -> PDU inlet, then every racked device's PSUs -> its rack's PDU outlets: odd PSUs
    to side A's PDUs, even ones to side B's (a single-side rack takes them all), each side's
    PDUs in turn, each PDU's outlets in order."""
    rows: list[tuple] = []
    pdus_of = rack_pdus(devices)
    for rack, pdus in pdus_of.items():
        for at, pdu in enumerate(pdus):
            side = pdu_side(at, len(pdus))
            rows.append((site, "", f"panel-{PANELS[side].lower()}", POWER_FEED_OBJECT, feed_name(prefix + pdu.name),
                         site, prefix + pdu.name, POWER_PORT_OBJECT, PDU_INLET, POWER_CABLE, STATUS,
                         f"{feed_name(prefix + pdu.name)}-{PDU_INLET}"))
    sides: dict[str, list[list[Device]]] = {}
    for rack, pdus in pdus_of.items():
        a = [pdu for at, pdu in enumerate(pdus) if pdu_side(at, len(pdus)) == 0]
        b = [pdu for at, pdu in enumerate(pdus) if pdu_side(at, len(pdus)) == 1]
        sides[rack] = [a, b or a]
    used: dict[str, int] = {}
    turn: dict[tuple[str, int], int] = {}
    unpowered = 0
    for device in devices:
        part = parts.get(device.slug)
        if device.role == "pdu" or part is None:
            continue
        rack_sides = sides.get(device.rack_label) if device.rack_label else None
        for at, supply in enumerate(power_supplies(part)):
            pdu = _next_outlet(rack_sides, at % 2, parts, used, turn, (device.rack_label, at % 2))
            if pdu is None:
                unpowered += 1
                continue
            rows.append((site, prefix + pdu.name, "", POWER_OUTLET_OBJECT, f"outlet{used[pdu.name]}",
                         site, prefix + device.name, POWER_PORT_OBJECT, supply, POWER_CABLE, STATUS,
                         f"{prefix}{device.name}-{supply}"))
    return PowerCabling(rows, unpowered)


def _next_outlet(rack_sides, side: int, parts, used: dict[str, int], turn: dict, key) -> Device | None:
    if not rack_sides:
        return None
    pdus = rack_sides[side]
    for step in range(len(pdus)):
        pdu = pdus[(turn.get(key, 0) + step) % len(pdus)]
        outlets = getattr(parts[pdu.slug].spec, "outlets", 0) if pdu.slug in parts else 0
        if used.get(pdu.name, 0) < outlets:
            used[pdu.name] = used.get(pdu.name, 0) + 1
            turn[key] = (turn.get(key, 0) + step + 1) % len(pdus)
            return pdu
    return None



def virtual_chassis(devices: Iterable[Device], parts: dict[str, Part], prefix: str = "") -> tuple[list[tuple], dict]:
    """The virtual chassis rows, and device -> (chassis, position), of the multi-rack systems."""
    rows: list[tuple] = []
    members: dict[str, tuple[str, int]] = {}
    for device in devices:
        if device.chassis:
            name = prefix + device.chassis
            if not rows or rows[-1][0] != name:
                system = device.slug.removesuffix(TRAY_SUFFIX).removesuffix(SCALE_UP_SUFFIX)
                rows.append((name, "", f"{system}: one system over several racks"))
            members[device.name] = (name, device.chassis_position)
    return rows, members
