"""The NetBox bundle's contents: device types in the community device-type library's format
and rows in NetBox's bulk-import (CSV) columns, for the plan's racks, devices, cables and power
feeds.

Sources: netbox-community/devicetype-library README ("Definition Format": manufacturer, model,
slug, u_height, is_full_depth, weight, interfaces with name/type/mgmt_only, power-ports with
name/type/maximum_draw) and NetBox's bulk import forms (dcim/forms/bulk_import.py: the column
names are the form's fields; a related object by its name, a device type by its model with its
manufacturer). NetBox 3.6 renamed the device's `device_role` column to `role`; this bundle
writes `role` (NetBox 4).

Assumptions where the catalog is silent: a part's manufacturer is its vendor's first name
(`NVIDIA / Generic` -> NVIDIA); its model is the catalog slug (unique, and what the BOM lists),
its full name the comments; one power port per part carries its maximum draw (the catalog
does not count power supplies); switches and servers are full depth, PDUs 0U; every rack,
device and cable is `planned`. Each PDU has its own power feed, the first half of a rack's
PDUs on panel A (primary), the rest on panel B (redundant), at the PDU's voltage, current and
phases.
"""

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from handoff.solver.devices import Device
from handoff.solver.netbox_choices import cable_type, interface_type

if TYPE_CHECKING:
    from planner.solver.catalog import CatalogSnapshot

STATUS = "planned"
LENGTH_UNIT = "m"
FACE = "front"
MANAGEMENT_PORT = "mgmt"
ETHERNET = "ethernet"
OOB_GBPS = 1
SERVER_POWER_PORT = "iec-60320-c20"
SWITCH_POWER_PORT = "iec-60320-c14"
PDU_POWER_PORT = "hardwired"
RACK_WIDTH_IN = 19
OPEN_RACK_WIDTH_IN = 21
PANELS = ("A", "B")

SITE_COLUMNS = ("name", "slug", "status")
MANUFACTURER_COLUMNS = ("name", "slug")
ROLE_COLUMNS = ("name", "slug", "color")
RACK_COLUMNS = ("site", "name", "status", "role", "u_height", "width", "outer_width", "outer_depth",
                "outer_unit", "max_weight", "weight_unit", "comments")
DEVICE_COLUMNS = ("name", "role", "manufacturer", "device_type", "status", "site", "rack", "position", "face",
                  "description")
CABLE_COLUMNS = ("side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type", "side_b_name",
                 "type", "status", "label", "length", "length_unit")
POWER_PANEL_COLUMNS = ("site", "name")
POWER_FEED_COLUMNS = ("site", "power_panel", "rack", "name", "status", "type", "supply", "phase", "voltage",
                      "amperage", "max_utilization")
ROLE_COLORS = {"compute": "76b900", "network": "1f77b4", "storage": "ff7f0e", "management": "7f7f7f"}
DEVICE_ROLE_COLORS = {"node": "76b900", "pdu": "9e9e9e", "storage": "ff7f0e", "fabric-manager": "17becf",
                      "management-server": "7f7f7f"}
INTERFACE_OBJECT = "dcim.interface"
# Positions in `fabric.solver.cabling.CABLING_COLUMNS`.
_LINK, _FROM_DEVICE, _FROM_PORT, _TO_DEVICE, _TO_PORT, _MEDIA, _CABLE, _LENGTH, _FABRIC = 0, 3, 4, 7, 8, 9, 10, 12, 16


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "unnamed"


def manufacturer_name(vendor: str) -> str:
    """The vendor's first name: `NVIDIA / Generic` -> NVIDIA; `Generic (Dell ...)` -> Generic."""
    name = re.split(r"\s*[/(,]\s*", vendor or "")[0].strip()
    return name or "Generic"


@dataclass(frozen=True)
class Part:
    slug: str
    kind: str
    """system, switch, server, storage, pdu."""
    spec: Any


def plan_parts(devices: Iterable[Device], catalog: "CatalogSnapshot") -> dict[str, Part]:
    """The catalog part of every device's slug."""
    tables = (("system", catalog.systems), ("switch", catalog.switches), ("server", catalog.servers),
              ("storage", catalog.storage_systems), ("pdu", catalog.pdus))
    parts: dict[str, Part] = {}
    for device in devices:
        if device.slug in parts:
            continue
        for kind, table in tables:
            if device.slug in table:
                parts[device.slug] = Part(device.slug, kind, table[device.slug])
                break
    return parts


def nominal_interfaces(part: Part, technologies: dict[str, str]) -> list[tuple[str, str, bool]]:
    """(name, NetBox type, management only) of a part's ports as the catalog lists them."""
    spec = part.spec
    if part.kind == "switch":
        ports = [(f"p{n}", interface_type(spec.technology, spec.port_gbps), False) for n in range(1, spec.ports + 1)]
        uplinks = [(f"p{n}", interface_type(spec.technology, spec.uplink_gbps), False)
                   for n in range(spec.ports + 1, spec.ports + spec.uplink_ports + 1)]
        return [*ports, *uplinks, (MANAGEMENT_PORT, "1000base-t", True)]
    if part.kind in ("system", "server"):
        interfaces = []
        for nic in spec.nics:
            role, gbps = nic.role, nic.gbps
            technology = technologies.get(role, ETHERNET)
            kind = "1000base-t" if role == "oob" and gbps <= OOB_GBPS else interface_type(technology, gbps)
            interfaces += [(f"{role}-p{n}", kind, role == "oob") for n in range(1, nic.count + 1)]
        return interfaces
    if part.kind == "storage":
        ports = [(f"storage-p{n}", interface_type(ETHERNET, spec.port_gbps), False) for n in range(1, spec.ports + 1)]
        return [*ports, (MANAGEMENT_PORT, "1000base-t", True)]
    if part.kind == "pdu":
        count = getattr(spec, "management_ports", 1)
        names = [MANAGEMENT_PORT] if count <= 1 else [f"{MANAGEMENT_PORT}{n}" for n in range(1, count + 1)]
        return [(name, "1000base-t", True) for name in names]
    return []


def device_type(part: Part, cabled_ports: Iterable[str], technologies: dict[str, str]) -> dict:
    """One device type in the library's format: the catalog's ports, and any port the cabling
    plan names that the catalog does not list (split ports `p17/2`, plane ports `compute-p3/2`),
    typed as the port they split (at its speed over the split)."""
    spec = part.spec
    manufacturer = manufacturer_name(spec.vendor)
    interfaces = nominal_interfaces(part, technologies)
    known = {name: (kind, mgmt) for name, kind, mgmt in interfaces}
    extra = sorted(set(cabled_ports) - set(known), key=_natural)
    splits: dict[str, int] = {}
    for name in extra:
        base, _, part_number = name.partition("/")
        if part_number.isdigit():
            splits[base] = max(splits.get(base, 1), int(part_number))
    for name in extra:
        base, _, _ = name.partition("/")
        kind, mgmt = known.get(base, ("other", False))
        kind = _split_type(part, base, kind, splits.get(base, 1), technologies)
        interfaces.append((name, kind, mgmt))
    units = 0 if part.kind == "pdu" else getattr(spec, "rack_units", 1)
    data: dict[str, Any] = {
        "manufacturer": manufacturer,
        "model": part.slug,
        "slug": f"{slug(manufacturer)}-{slug(part.slug)}",
        "part_number": part.slug,
        "u_height": units,
        "is_full_depth": part.kind != "pdu",
        "comments": spec.name,
    }
    weight = getattr(spec, "weight_kg", None)
    if weight:
        data.update(weight=float(weight), weight_unit="kg")
    data["interfaces"] = [{"name": name, "type": kind, "mgmt_only": mgmt} for name, kind, mgmt in interfaces]
    draw_w = _maximum_draw_w(part)
    if draw_w:
        power_type = {"pdu": PDU_POWER_PORT, "switch": SWITCH_POWER_PORT}.get(part.kind, SERVER_POWER_PORT)
        data["power-ports"] = [{"name": "PSU1", "type": power_type, "maximum_draw": draw_w}]
    return data


def _split_type(part: Part, base: str, kind: str, ways: int, technologies: dict[str, str]) -> str:
    spec = part.spec
    if ways <= 1 or kind in ("other", "1000base-t"):
        return kind
    if part.kind == "switch":
        # The port's split is the switch's smallest breakout that holds the highest part seen.
        ways = min((option for option in getattr(spec, "split", ()) if option >= ways), default=ways)
        return interface_type(spec.technology, spec.port_gbps / ways)
    role = base.rsplit("-", 1)[0]
    for nic in getattr(spec, "nics", ()):
        if nic.role == role:
            return interface_type(technologies.get(role, ETHERNET), nic.gbps / ways)
    return kind


def _maximum_draw_w(part: Part) -> int:
    spec = part.spec
    if part.kind == "switch":
        return round(spec.power_w)
    if part.kind == "pdu":
        return round(spec.voltage_v * spec.current_a * (3 ** 0.5 if spec.phases == 3 else 1) * spec.continuous_derating)
    return round(getattr(spec, "power_kw", 0) * 1000)


def _natural(name: str) -> tuple:
    return tuple(int(piece) if piece.isdigit() else piece for piece in re.split(r"(\d+)", name))


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


def device_rows(devices: Iterable[Device], parts: dict[str, Part], site: str,
                host_names: dict[str, str] | None = None) -> Iterator[tuple]:
    """One row per device at its rack position (lowest U), front face; PDUs (0U) without a
    position. `host_names` (device -> host name) fills the description (the Slurm node name)."""
    host_names = host_names or {}
    for device in devices:
        part = parts.get(device.slug)
        manufacturer = manufacturer_name(part.spec.vendor) if part else ""
        racked = bool(device.u) and bool(device.rack_label)
        yield (device.name, device.role, manufacturer, device.slug, STATUS, site, device.rack_label,
               device.u if racked else "", FACE if racked else "", host_names.get(device.name, ""))


def cable_row(row: tuple) -> tuple:
    """The NetBox cable of one cabling plan row: interface to interface."""
    return (row[_FROM_DEVICE], INTERFACE_OBJECT, row[_FROM_PORT], row[_TO_DEVICE], INTERFACE_OBJECT, row[_TO_PORT],
            cable_type(row[_MEDIA], row[_CABLE]), STATUS, f"{row[_FABRIC]}-{row[_LINK]}", row[_LENGTH], LENGTH_UNIT)


def power_feed_rows(devices: Iterable[Device], catalog: "CatalogSnapshot", site: str) -> Iterator[tuple]:
    """One feed per PDU: the first half of a rack's PDUs on panel A (primary), the rest on B."""
    per_rack: dict[str, list[Device]] = {}
    for device in devices:
        if device.role == "pdu":
            per_rack.setdefault(device.rack_label, []).append(device)
    for rack, pdus in per_rack.items():
        half = (len(pdus) + 1) // 2
        for at, pdu in enumerate(pdus):
            spec = catalog.pdus.get(pdu.slug)
            side = 0 if at < half else 1
            yield (site, f"panel-{PANELS[side].lower()}", rack, pdu.name.replace("-pdu-", "-feed-"), STATUS,
                   "primary" if side == 0 else "redundant", "ac",
                   "three-phase" if getattr(spec, "phases", 1) == 3 else "single-phase",
                   round(getattr(spec, "voltage_v", 0)), round(getattr(spec, "current_a", 0)),
                   round(getattr(spec, "continuous_derating", 0.8) * 100))
