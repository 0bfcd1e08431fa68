"""What a plan puts in Nautobot, and what a push must change: the desired objects of every kind
(made from the NetBox bundle's functions, so Nautobot receives exactly what the bundle lists)
and the diff of desired against existing objects. No Django, no network
(handoff/nautobot_push.py talks to Nautobot).

Sources: Nautobot 2/3 REST API (dcim and extras): a location needs a location type whose
content types allow racks, rack groups, devices and power panels; roles and statuses carry
the content types they apply to; a device type's interface and power-port templates become
the device's interfaces and power ports when the device is created; a cable joins two
terminations (`termination_a_type`/`termination_a_id`) and has a type, length, length unit
and status.

An object is named by a key (its natural key: a manufacturer by its name, an interface by its
device and name, a cable by its two ends); a field that names another object holds a `Ref` to
that object's kind and key, which the client turns into the object's id.
"""

from bisect import bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from catalog.solver.snapshot import plan_catalog
from fabric.solver.cabling import cabling_rows
from handoff.solver.devices import MultiRackSystems, plan_cabling, plan_devices, plan_system_shares
from handoff.solver.fabrics import fabric_technologies
from handoff.solver.netbox import (
    DEVICE_ROLE_COLORS,
    ROLE_COLORS,
    cable_end,
    cable_row,
    device_rows,
    device_type,
    plan_parts,
    power_feed_rows,
    rack_rows,
    type_interfaces,
)

if TYPE_CHECKING:
    from catalog.solver.snapshot import CatalogSnapshot

TAG = "capacity-planner"
STATUS = "Planned"
LOCATION_TYPE = "Data hall"
LOCATION_TYPE_CONTENT_TYPES = ("dcim.device", "dcim.powerpanel", "dcim.rack", "dcim.rackgroup")
STATUS_CONTENT_TYPES = ("dcim.cable", "dcim.device", "dcim.interface", "dcim.location", "dcim.powerfeed", "dcim.rack")
DEVICE_ROLE_CONTENT_TYPES = ("dcim.device",)
RACK_ROLE_CONTENT_TYPES = ("dcim.rack",)
INTERFACE_OBJECT = "dcim.interface"
MAX_DRAW_LIMIT_W = 32_767
"""Nautobot keeps a power port's maximum draw in a small integer: a larger draw (a 3-phase
PDU's 33 kW) is left unset rather than written wrong."""

KINDS = ("statuses", "location_types", "locations", "manufacturers", "device_types", "interface_templates",
         "power_port_templates", "roles", "rack_groups", "racks", "devices", "interfaces", "power_panels",
         "power_feeds", "cables")
"""Every kind, in the order a push writes them (an object after the objects it names)."""
SHARED_KINDS = frozenset({"statuses", "location_types", "manufacturers", "device_types", "interface_templates",
                          "power_port_templates", "roles"})
"""Kinds other plans and people use too: a push adds to them and updates them, never reports
their other objects as left over."""
TEMPLATE_MADE_KINDS = frozenset({"interfaces"})
"""Kinds Nautobot makes itself from the device type's templates when a device is created."""


@dataclass(frozen=True)
class Ref:
    """Another object, by its kind and key."""

    kind: str
    key: tuple


@dataclass
class Desired:
    """The plan's objects: kind -> key -> fields (a `Ref` where a field names an object)."""

    location: str
    objects: dict[str, dict[tuple, dict[str, Any]]] = field(default_factory=lambda: {kind: {} for kind in KINDS})

    def add(self, kind: str, key: tuple, fields: dict[str, Any]) -> None:
        self.objects[kind][key] = fields

    def counts(self) -> dict[str, int]:
        return {kind: len(objects) for kind, objects in self.objects.items()}


@dataclass
class Changes:
    """What a push does to one kind: the objects to create (key, fields), to update (id, key,
    changed fields), how many are as desired, and the existing ones the plan does not have."""

    create: list[tuple[tuple, dict[str, Any]]] = field(default_factory=list)
    update: list[tuple[Any, tuple, dict[str, Any]]] = field(default_factory=list)
    unchanged: int = 0
    left_over: list[tuple] = field(default_factory=list)


def rack_row(racks_index: Any, number: int) -> int:
    """The floor row (from 1) of a rack number, from the floor's runs of racks along its rows;
    row 1 when the plan has no floor layout."""
    starts = getattr(racks_index, "number_starts", None) or []
    at = bisect_right(starts, number) - 1
    return int(racks_index.number_rows[at]) + 1 if at >= 0 else 1


def desired_objects(plan: Any, catalog: "CatalogSnapshot", location: str | None = None) -> Desired:
    """Every object the plan puts in Nautobot: the NetBox bundle's site, manufacturers, device
    types, roles, racks, devices, cables and power feeds (the same functions make both), with a
    rack group per floor row and the devices' interfaces from their types' templates."""
    catalog = plan_catalog(plan, catalog)
    cabling = plan_cabling(plan, catalog)
    devices = list(plan_devices(plan, catalog, cabling))
    shares = plan_system_shares(plan, catalog)
    parts = plan_parts(devices, catalog, shares)
    on_trays = MultiRackSystems(devices, shares)
    technologies = fabric_technologies(plan, catalog)
    site = location or plan.name or "plan"
    desired = Desired(site)
    status = Ref("statuses", (STATUS,))
    desired.add("statuses", (STATUS,), {"name": STATUS, "content_types": list(STATUS_CONTENT_TYPES)})
    desired.add("location_types", (LOCATION_TYPE,), {"name": LOCATION_TYPE,
                                                    "content_types": list(LOCATION_TYPE_CONTENT_TYPES)})
    location_ref = Ref("locations", (site,))
    desired.add("locations", (site,), {"name": site, "location_type": Ref("location_types", (LOCATION_TYPE,)),
                                       "status": status})

    part_of = {device.name: parts.get(device.slug) for device in devices}
    own_interfaces = {part.slug: {item.name for item in type_interfaces(part)} for part in parts.values()}
    plan_interfaces: dict[tuple[str, str], Any] = {}
    cables = []
    for row in map(on_trays.row, cabling_rows(plan, catalog)):
        fabric = row[16]
        ends = []
        for device, port in ((row[3], row[4]), (row[7], row[8])):
            part = part_of.get(device)
            end = cable_end(part, port, fabric, technologies.get(fabric, "ethernet"))
            if part is None or end.name not in own_interfaces[part.slug]:
                plan_interfaces.setdefault((device, end.name), end)
            ends.append(end)
        cables.append(cable_row(row, site, "", *ends))

    interfaces_of: dict[str, list[dict]] = {}
    for part in parts.values():
        data = device_type(part)
        manufacturer = data["manufacturer"]
        desired.add("manufacturers", (manufacturer,), {"name": manufacturer})
        type_key = (manufacturer, data["model"])
        desired.add("device_types", type_key, {
            "manufacturer": Ref("manufacturers", (manufacturer,)), "model": data["model"],
            "part_number": data.get("part_number", ""), "u_height": data["u_height"],
            "is_full_depth": data["is_full_depth"], "comments": data["comments"],
        })
        type_ref = Ref("device_types", type_key)
        for interface in data.get("interfaces", []):
            desired.add("interface_templates", (*type_key, interface["name"]), {
                "device_type": type_ref, "name": interface["name"], "type": interface["type"],
                "mgmt_only": interface.get("mgmt_only", False),
            })
        for port in data.get("power-ports", []):
            desired.add("power_port_templates", (*type_key, port["name"]), {
                "device_type": type_ref, "name": port["name"], "type": port["type"],
                "maximum_draw": port.get("maximum_draw") if port.get("maximum_draw", 0) <= MAX_DRAW_LIMIT_W else None,
            })
        interfaces_of[part.slug] = data.get("interfaces", [])

    rack_list = list(rack_rows(plan, cabling.racks, catalog, site))
    rack_numbers = {cabling.racks.label(number): number for number in range(1, len(rack_list) + 1)}
    for kind in sorted({rack[3] for rack in rack_list}):
        desired.add("roles", (kind,), {"name": kind, "color": ROLE_COLORS.get(kind, "9e9e9e"),
                                       "content_types": list(RACK_ROLE_CONTENT_TYPES)})
    for rack in rack_list:
        name = rack[1]
        group = f"row-{rack_row(cabling.racks, rack_numbers.get(name, 0))}"
        desired.add("rack_groups", (site, group), {"name": group, "location": location_ref})
        desired.add("racks", (site, name), {
            "name": name, "location": location_ref, "rack_group": Ref("rack_groups", (site, group)),
            "status": status, "role": Ref("roles", (rack[3],)), "u_height": rack[4], "width": rack[5],
            "comments": rack[11],
        })

    for role in sorted({device.role for device in devices}):
        key = (role,)
        fields = desired.objects["roles"].get(key)
        content_types = sorted({*(fields or {}).get("content_types", ()), *DEVICE_ROLE_CONTENT_TYPES})
        desired.add("roles", key, {"name": role, "color": DEVICE_ROLE_COLORS.get(role, (fields or {}).get(
            "color", "1f77b4")), "content_types": content_types})
    for device, row in zip(devices, device_rows(devices, parts, site), strict=True):
        name, role, manufacturer, model, _, _, rack, position, face, _, _, _ = row
        desired.add("devices", (name,), {
            "name": name, "device_type": Ref("device_types", (manufacturer, model)), "role": Ref("roles", (role,)),
            "location": location_ref, "status": status, "rack": Ref("racks", (site, rack)) if rack else None,
            "position": position or None, "face": face or None,
        })
        for interface in interfaces_of.get(device.slug, ()):
            desired.add("interfaces", (name, interface["name"]), {
                "device": Ref("devices", (name,)), "name": interface["name"], "type": interface["type"],
                "mgmt_only": interface.get("mgmt_only", False), "status": status,
            })

    for (device, name), interface in plan_interfaces.items():
        desired.add("interfaces", (device, name), {
            "device": Ref("devices", (device,)), "name": name, "type": interface.type,
            "mgmt_only": interface.mgmt_only, "status": status,
        })

    for feed in power_feed_rows(devices, catalog, site):
        _, panel, rack, name, _, feed_type, supply, phase, voltage, amperage, utilization = feed
        desired.add("power_panels", (site, panel), {"name": panel, "location": location_ref})
        desired.add("power_feeds", (site, panel, name), {
            "name": name, "power_panel": Ref("power_panels", (site, panel)), "rack": Ref("racks", (site, rack)),
            "status": status, "type": feed_type, "supply": supply, "phase": phase, "voltage": voltage,
            "amperage": amperage, "max_utilization": utilization,
        })

    for _, a_device, _, a_port, _, b_device, _, b_port, kind, _, label, length, unit in cables:
        length, unit = whole_length(length, unit)
        desired.add("cables", cable_key((a_device, a_port), (b_device, b_port)), {
            "termination_a_type": INTERFACE_OBJECT, "termination_a_id": Ref("interfaces", (a_device, a_port)),
            "termination_b_type": INTERFACE_OBJECT, "termination_b_id": Ref("interfaces", (b_device, b_port)),
            "type": kind, "status": status, "label": label, "length": length, "length_unit": unit,
        })
    return desired


def whole_length(length: Any, unit: str) -> tuple[int | None, str]:
    """Nautobot keeps a cable's length as a whole number: metres when the length is whole,
    centimetres otherwise (2.5 m -> 250 cm)."""
    if length in (None, ""):
        return None, unit
    metres = Decimal(str(length))
    if unit == "m" and metres != metres.to_integral_value():
        return int((metres * 100).to_integral_value()), "cm"
    return int(metres.to_integral_value()), unit


def cable_key(end_a: tuple[str, str], end_b: tuple[str, str]) -> tuple:
    """A cable by its two (device, port) ends, whichever end is A."""
    return tuple(sorted((tuple(end_a), tuple(end_b))))


def resolve(fields: Mapping[str, Any], ids: Mapping[str, Mapping[tuple, Any]]) -> dict[str, Any]:
    """The fields with every `Ref` replaced by its object's id (KeyError when it has none)."""
    return {name: ids[value.kind][value.key] if isinstance(value, Ref) else value for name, value in fields.items()}


def same_value(want: Any, have: Any) -> bool:
    """Whether an existing value is the desired one: numbers by value (Nautobot gives lengths
    as decimals), empty as empty, and a list when it holds every desired item (a status or role
    may apply to more content types than the plan needs)."""
    if want in (None, "") or have in (None, ""):
        return want in (None, "") and have in (None, "")
    if isinstance(want, (list, tuple)):
        return isinstance(have, (list, tuple)) and set(want) <= set(have)
    if isinstance(want, bool) or isinstance(have, bool):
        return isinstance(want, bool) and isinstance(have, bool) and want == have
    if isinstance(want, (int, float, Decimal)):
        try:
            return Decimal(str(want)) == Decimal(str(have))
        except (ArithmeticError, ValueError):
            return False
    return str(want) == str(have)


def diff(desired: Mapping[tuple, Mapping[str, Any]], existing: Mapping[tuple, tuple[Any, Mapping[str, Any]]],
         fixed: Iterable[str] = ()) -> Changes:
    """The changes that make `existing` (key -> (id, fields)) hold `desired` (key -> resolved
    fields): create what is missing, update the fields that differ (a list: the union, so
    nothing another user added is removed), and list the existing keys the plan does not have.
    `fixed` fields are set on creation and never updated (a cable's ends)."""
    changes = Changes()
    fixed = set(fixed)
    for key, fields in desired.items():
        if key not in existing:
            changes.create.append((key, dict(fields)))
            continue
        object_id, have = existing[key]
        changed = {}
        for name, want in fields.items():
            if name in fixed or same_value(want, have.get(name)):
                continue
            if isinstance(want, (list, tuple)) and isinstance(have.get(name), (list, tuple)):
                want = sorted({*have[name], *want})
            changed[name] = want
        if changed:
            changes.update.append((object_id, key, changed))
        else:
            changes.unchanged += 1
    changes.left_over = [key for key in existing if key not in desired]
    return changes
