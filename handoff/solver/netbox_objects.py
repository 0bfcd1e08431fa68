"""What a plan puts in NetBox through its REST API: the NetBox bundle's rows
(`handoff.formats.netbox_tables`, the same rows the bundle's CSV files hold), each as the
fields NetBox's API takes, keyed by its natural key. No Django, no network
(handoff/netbox_push.py talks to NetBox).

Sources: NetBox 4.x REST API (`dcim` serializers): a related object is given by its id; a
device type's component templates are objects of their own (`interface-templates`,
`power-port-templates`, `power-outlet-templates`, an outlet naming its power-port template),
from which NetBox makes a new device's interfaces, power ports and outlets; a cable has lists of
`a_terminations` and `b_terminations`, each `{object_type, object_id}`.

An object's fields name another object by a `Ref` (its kind and key), which the client turns
into the object's id; a cable's two ends are `a_end` and `b_end` with their `a_type` and
`b_type`, which the client writes as NetBox's termination lists.
"""

from typing import Any

from handoff.solver.nautobot import Desired, Ref
from handoff.solver.netbox import (
    INTERFACE_OBJECT,
    PDU_INLET,
    POWER_FEED_OBJECT,
    POWER_OUTLET_OBJECT,
    POWER_PORT_OBJECT,
)

KINDS = ("sites", "manufacturers", "rack_roles", "device_roles", "device_types", "interface_templates",
         "power_port_templates", "power_outlet_templates", "racks", "power_panels", "power_feeds",
         "virtual_chassis", "devices", "interfaces", "power_ports", "power_outlets", "cables", "power_cables")
"""Every kind, in the order a push writes them (the bundle's import order)."""
SHARED_KINDS = frozenset({"manufacturers", "rack_roles", "device_roles", "device_types", "interface_templates",
                          "power_port_templates", "power_outlet_templates"})
"""Kinds other plans and people use too: a push adds to them, never reports their other objects
as left over."""
TEMPLATE_MADE_KINDS = frozenset({"interfaces", "power_ports", "power_outlets"})
"""Kinds NetBox makes itself from the device type's templates when a device is created (the
plan's own interfaces, lanes and planes, the push creates)."""
END_KINDS = {INTERFACE_OBJECT: "interfaces", POWER_FEED_OBJECT: "power_feeds", POWER_PORT_OBJECT: "power_ports",
             POWER_OUTLET_OBJECT: "power_outlets"}
"""A cable end's object type -> the kind its object is."""
CABLE_END_FIELDS = ("a_type", "a_end", "b_type", "b_end")
"""A cable's ends: set when it is made, never changed (a cable cabled elsewhere is another cable)."""


def cable_key(end_a: tuple[str, tuple], end_b: tuple[str, tuple]) -> tuple:
    """A cable by its two (object type, object key) ends, whichever end is A."""
    return tuple(sorted((end_a, end_b)))


def _number(value: Any) -> Any:
    """A CSV cell's value as the API takes it: empty as none."""
    return None if value in ("", None) else value


def netbox_objects(tables: Any) -> Desired:
    """Every object the bundle's rows describe (`tables`: a `handoff.formats.NetboxTables`),
    with the interfaces, power ports and outlets NetBox makes from the device types."""
    desired = Desired(tables.site, {kind: {} for kind in KINDS})
    (site_row,) = tables.records("sites")
    site_ref = Ref("sites", (site_row["slug"],))
    desired.add("sites", (site_row["slug"],), dict(site_row))
    for row in tables.records("manufacturers"):
        desired.add("manufacturers", (row["name"],), dict(row))
    for kind, name in (("rack_roles", "rack-roles"), ("device_roles", "device-roles")):
        for row in tables.records(name):
            desired.add(kind, (row["name"],), dict(row))

    components: dict[tuple, dict[str, list[dict]]] = {}
    for data in tables.device_types.values():
        type_key = (data["manufacturer"], data["model"])
        type_ref = Ref("device_types", type_key)
        desired.add("device_types", type_key, {
            "manufacturer": Ref("manufacturers", (data["manufacturer"],)), "model": data["model"],
            "slug": data["slug"], "part_number": data.get("part_number", ""), "u_height": data["u_height"],
            "is_full_depth": data["is_full_depth"], "weight": data.get("weight"),
            "weight_unit": data.get("weight_unit", ""), "comments": data["comments"],
        })
        for interface in data.get("interfaces", []):
            desired.add("interface_templates", (*type_key, interface["name"]), {
                "device_type": type_ref, "name": interface["name"], "type": interface["type"],
                "mgmt_only": interface.get("mgmt_only", False)})
        for port in data.get("power-ports", []):
            desired.add("power_port_templates", (*type_key, port["name"]), {
                "device_type": type_ref, "name": port["name"], "type": port["type"],
                "maximum_draw": port.get("maximum_draw")})
        for outlet in data.get("power-outlets", []):
            desired.add("power_outlet_templates", (*type_key, outlet["name"]), {
                "device_type": type_ref, "name": outlet["name"], "type": outlet["type"],
                "power_port": Ref("power_port_templates", (*type_key, outlet.get("power_port", PDU_INLET)))})
        components[type_key] = {"interfaces": data.get("interfaces", []), "power_ports": data.get("power-ports", []),
                                "power_outlets": data.get("power-outlets", [])}

    for row in tables.records("racks"):
        desired.add("racks", (tables.site, row["name"]), {
            **{name: _number(value) for name, value in row.items()},
            "site": site_ref, "role": Ref("rack_roles", (row["role"],))})
    for row in tables.records("power-panels"):
        desired.add("power_panels", (tables.site, row["name"]), {"site": site_ref, "name": row["name"]})
    for row in tables.records("power-feeds"):
        fields = {name: value for name, value in row.items() if name != "site"}
        desired.add("power_feeds", (tables.site, row["power_panel"], row["name"]), {
            **fields, "power_panel": Ref("power_panels", (tables.site, row["power_panel"])),
            "rack": Ref("racks", (tables.site, row["rack"]))})
    for row in tables.records("virtual-chassis"):
        desired.add("virtual_chassis", (row["name"],), dict(row))

    for row in tables.records("devices"):
        name = row["name"]
        type_key = (row["manufacturer"], row["device_type"])
        desired.add("devices", (name,), {
            "name": name, "role": Ref("device_roles", (row["role"],)), "device_type": Ref("device_types", type_key),
            "status": row["status"], "site": site_ref,
            "rack": Ref("racks", (tables.site, row["rack"])) if row["rack"] else None,
            "position": _number(row["position"]), "face": row["face"] or None,
            "virtual_chassis": Ref("virtual_chassis", (row["virtual_chassis"],)) if row["virtual_chassis"] else None,
            "vc_position": _number(row["vc_position"]), "description": row["description"],
        })
        device_ref = Ref("devices", (name,))
        for kind, items in components.get(type_key, {}).items():
            for item in items:
                fields = {"device": device_ref, "name": item["name"], "type": item["type"]}
                if kind == "interfaces":
                    fields["mgmt_only"] = item.get("mgmt_only", False)
                desired.add(kind, (name, item["name"]), fields)
    for row in tables.records("interfaces"):
        device = row["device"]
        desired.add("interfaces", (device, row["name"]), {
            "device": Ref("devices", (device,)), "name": row["name"], "type": row["type"],
            "mgmt_only": row["mgmt_only"], "description": row["description"]})

    for kind, name in (("cables", "cables"), ("power_cables", "power-cables")):
        for row in tables.records(name):
            ends = [_cable_end(tables.site, row, side) for side in "ab"]
            desired.add(kind, cable_key(*ends), {
                "a_type": ends[0][0], "a_end": Ref(END_KINDS[ends[0][0]], ends[0][1]),
                "b_type": ends[1][0], "b_end": Ref(END_KINDS[ends[1][0]], ends[1][1]),
                **{field: _number(row[field]) if field == "length" else row[field]
                   for field in ("type", "status", "label", "length", "length_unit") if field in row},
            })
    return desired


def _cable_end(site: str, row: dict, side: str) -> tuple[str, tuple]:
    """A cable row's end as (object type, the object's key): a feed by its panel and name, a
    device's port by the device and name."""
    object_type = row[f"side_{side}_type"]
    if object_type == POWER_FEED_OBJECT:
        return object_type, (site, row[f"side_{side}_power_panel"], row[f"side_{side}_name"])
    return object_type, (row[f"side_{side}_device"], row[f"side_{side}_name"])
