"""Push a plan to NetBox through its REST API: the NetBox bundle's rows
(handoff.formats.netbox_tables, as handoff/solver/netbox_objects.py gives them to the API), kind
by kind in the bundle's import order. What exists is read in a few paged requests per kind
(`PAGE` objects each, only the fields compared), diffed against the plan, and the changes are
written with bulk requests (a list in one POST or PATCH, `CHUNK` objects at a time).

Plain HTTP (requests) rather than pynetbox: every request here is a paged read or a bulk write,
where pynetbox's record objects only slow the reading of thousands of interfaces.

Shared objects (manufacturers, roles, device types and their templates) are found by name and
reused: an existing device type of the same manufacturer and model is the plan's, given any
template it lacks. Objects the plan no longer has at its site (racks, devices, panels, feeds,
cables) are kept and reported as left over; a left-over device leaves its rack units (position
cleared), a left-over cable on a port the plan cables anew is deleted.
"""

import time
from collections.abc import Callable, Iterable
from typing import Any

import requests

from handoff.formats import netbox_tables
from handoff.push import CHUNK, KindSummary, PushSummary, chunks, devices_to_unrack, plain, refusals
from handoff.solver.nautobot import Changes, Desired, diff, resolve
from handoff.solver.netbox_objects import (
    CABLE_END_FIELDS,
    END_KINDS,
    KINDS,
    SHARED_KINDS,
    cable_key,
    netbox_objects,
)

TIMEOUT_S = 300
DEVICE_CHUNK = 50
"""Devices a bulk request creates: NetBox makes each one's interfaces, power ports and outlets
from its type's templates in the same request (a switch: 65 interfaces)."""
PAGE = 1000
"""Objects a read asks for at a time: NetBox's default MAX_PAGE_SIZE."""
V2_TOKEN_PREFIX = "nbt_"
"""NetBox 4.5's v2 tokens (`nbt_<key>.<secret>`) go in a Bearer header; v1 tokens in `Token`."""
PATHS = {
    "sites": "dcim/sites", "manufacturers": "dcim/manufacturers", "rack_roles": "dcim/rack-roles",
    "device_roles": "dcim/device-roles", "device_types": "dcim/device-types",
    "interface_templates": "dcim/interface-templates", "power_port_templates": "dcim/power-port-templates",
    "power_outlet_templates": "dcim/power-outlet-templates", "racks": "dcim/racks",
    "power_panels": "dcim/power-panels", "power_feeds": "dcim/power-feeds", "virtual_chassis": "dcim/virtual-chassis",
    "devices": "dcim/devices", "interfaces": "dcim/interfaces", "power_ports": "dcim/power-ports",
    "power_outlets": "dcim/power-outlets", "cables": "dcim/cables", "power_cables": "dcim/cables",
}
NAMED_KINDS = {"manufacturers", "rack_roles", "device_roles", "virtual_chassis"}
"""Kinds read by the names the plan gives them."""
SITE_KINDS = {"racks", "power_panels", "power_feeds", "devices", "interfaces", "power_ports", "power_outlets"}
"""Kinds read as everything at the plan's site."""
KEY_FIELDS = {"sites": ("slug",), "device_types": ("manufacturer", "model"), "power_feeds": ("power_panel", "name"),
              **{kind: ("device_type", "name") for kind in ("interface_templates", "power_port_templates",
                                                             "power_outlet_templates")},
              **{kind: ("device", "name") for kind in ("interfaces", "power_ports", "power_outlets")}}
"""The fields that name an object of the kind (its key); `name` where not listed."""
TEMPLATE_KINDS = {"interface_templates", "power_port_templates", "power_outlet_templates"}
CABLE_KINDS = {"cables", "power_cables"}
POWER_ENDS = {"power_feeds", "power_ports", "power_outlets"}


class PushError(Exception):
    """NetBox could not be reached, refused the token, or refused an object (its 400 answer)."""


class NetboxApi:
    """NetBox's REST API at `url`: paged reads and bulk writes."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url.rstrip("/")
        self.session = requests.Session()
        scheme = "Bearer" if token.startswith(V2_TOKEN_PREFIX) else "Token"
        self.session.headers.update({"Authorization": f"{scheme} {token}", "Accept": "application/json",
                                     "Content-Type": "application/json"})

    def request(self, method: str, path: str, **kwargs) -> Any:
        address = path if path.startswith("http") else f"{self.url}/api/{path}/"
        try:
            answer = self.session.request(method, address, timeout=TIMEOUT_S, **kwargs)
        except requests.RequestException as error:
            raise PushError(f"NetBox at {self.url} cannot be reached: {error.__class__.__name__}: {error}") from None
        if answer.status_code in (401, 403):
            raise PushError(f"NetBox at {self.url} refused the token (HTTP {answer.status_code}): "
                            "check NETBOX_TOKEN / --token")
        if answer.status_code == 404:
            raise PushError(f"{address} is not a NetBox API: check the URL ({self.url})")
        if answer.status_code == 400:
            raise PushError(f"NetBox refused the objects (HTTP 400) at {address}: {refusals(answer.text)}")
        if answer.status_code >= 300:
            raise PushError(f"NetBox answered HTTP {answer.status_code} at {address}: {answer.text[:500]}")
        try:
            return answer.json() if answer.content else None
        except ValueError:
            raise PushError(f"{address} is not a NetBox API (its answer is not JSON): check the URL") from None

    def read(self, path: str, **params) -> list[dict]:
        """Every object the filters select, `PAGE` at a time."""
        params = {**params, "limit": PAGE}
        found: list[dict] = []
        page = self.request("GET", path, params=params)
        while True:
            found += page["results"]
            if not page.get("next"):
                return found
            page = self.request("GET", page["next"])

    def create(self, path: str, objects: list[dict], size: int = CHUNK) -> list[dict]:
        return [record for chunk in chunks(objects, size) for record in self.request("POST", path, json=chunk)]

    def update(self, path: str, objects: list[dict]) -> None:
        for chunk in chunks(objects):
            self.request("PATCH", path, json=chunk)

    def delete(self, path: str, ids: list[Any]) -> None:
        for chunk in chunks(ids):
            self.request("DELETE", path, json=[{"id": object_id} for object_id in chunk])


class NetboxPush:
    def __init__(self, url: str, token: str, progress: Callable[[str], None] | None = None) -> None:
        self.api = NetboxApi(url, token)
        self.progress = progress or (lambda message: None)
        self.ids: dict[str, dict[tuple, Any]] = {kind: {} for kind in KINDS}
        self.keys: dict[str, dict[Any, tuple]] = {kind: {} for kind in KINDS}
        """Kind -> id -> key of the kinds pushed so far."""
        self.cables: list[dict] | None = None

    def push(self, desired: Desired) -> PushSummary:
        started = time.monotonic()
        summary = PushSummary()
        self.api.request("GET", "status")
        for kind in KINDS:
            self.progress(kind.replace("_", " "))
            kind_started = time.monotonic()
            summary.kinds[kind] = self._push_kind(kind, desired)
            summary.kinds[kind].seconds = time.monotonic() - kind_started
        summary.seconds = time.monotonic() - started
        return summary

    def _push_kind(self, kind: str, desired: Desired) -> KindSummary:
        wanted = desired.objects[kind]
        existing = self._existing(kind, desired)
        for key, (object_id, _) in existing.items():
            self.ids[kind][key] = object_id
        try:
            resolved = {key: resolve(fields, self.ids) for key, fields in wanted.items()}
        except KeyError as error:
            raise PushError(f"{kind}: {error.args[0]} is in no object NetBox holds or the plan makes") from None
        changes: Changes = diff(resolved, existing, CABLE_END_FIELDS if kind in CABLE_KINDS else ())
        path = PATHS[kind]
        if kind == "devices":
            self._make_room(changes, existing, resolved)
        deleted = 0
        if kind in CABLE_KINDS:
            # A port takes one cable: a left-over cable on a port the plan cables anew goes.
            ends = {(fields[f"{side}_type"], fields[f"{side}_end"]) for _, fields in changes.create for side in "ab"}
            blocking = [existing[key][0] for key in changes.left_over
                        if {(existing[key][1][f"{side}_type"], existing[key][1][f"{side}_end"]) for side in "ab"} & ends]
            self.api.delete(path, blocking)
            deleted = len(blocking)
        created = self.api.create(path, [_payload(kind, fields) for _, fields in changes.create],
                                  DEVICE_CHUNK if kind == "devices" else CHUNK)
        for (key, _), record in zip(changes.create, created, strict=True):
            self.ids[kind][key] = record["id"]
        self.api.update(path, [{"id": object_id, **_payload(kind, fields, creating=False)}
                               for object_id, _, fields in changes.update])
        self.keys[kind] = {object_id: key for key, object_id in self.ids[kind].items()}
        left_over = 0 if kind in SHARED_KINDS else len(changes.left_over) - deleted
        return KindSummary(len(changes.create), len(changes.update), changes.unchanged, left_over, deleted)

    def _make_room(self, changes: Changes, existing: dict, resolved: dict) -> None:
        freed = devices_to_unrack(changes, existing, resolved)
        self.api.update(PATHS["devices"], [{"id": object_id, "position": None, "face": ""} for object_id in freed])

    # -- reading what exists --------------------------------------------------------------------

    def _existing(self, kind: str, desired: Desired) -> dict[tuple, tuple[Any, dict]]:
        existing = {}
        for record in self._records(kind, desired):
            fields = _fields(kind, record)
            key = self._key(kind, fields, desired.location)
            if key is not None and (kind not in CABLE_KINDS or (kind == "power_cables") == _powers(key)):
                existing[key] = (fields["id"], fields)
        return existing

    def _records(self, kind: str, desired: Desired) -> Iterable[dict]:
        path = PATHS[kind]
        wanted = desired.objects[kind]
        if not wanted and kind not in SITE_KINDS | CABLE_KINDS:
            return []
        fields = _read_fields(kind, wanted)
        if kind == "sites":
            return self.api.read(path, slug=[key[0] for key in wanted], fields=fields)
        if kind in NAMED_KINDS:
            return self.api.read(path, name=sorted(key[0] for key in wanted), fields=fields)
        if kind == "device_types":
            manufacturers = [self.ids["manufacturers"][(name,)] for name in sorted({key[0] for key in wanted})]
            return self.api.read(path, manufacturer_id=manufacturers, model=sorted({key[1] for key in wanted}),
                                 fields=fields)
        if kind in TEMPLATE_KINDS:
            return self.api.read(path, device_type_id=sorted(self.ids["device_types"].values()), fields=fields)
        site_id = self.ids["sites"].get(next(iter(desired.objects["sites"]), None))
        if site_id is None:
            return []
        if kind in CABLE_KINDS:
            if self.cables is None:
                self.cables = self.api.read(path, site_id=site_id, fields=fields)
            return self.cables
        return self.api.read(path, site_id=site_id, fields=fields)

    def _key(self, kind: str, fields: dict, site: str) -> tuple | None:
        name = fields.get("name")
        if kind == "sites":
            return (fields.get("slug"),)
        if kind in NAMED_KINDS or kind == "devices":
            return (name,)
        if kind == "device_types":
            manufacturer = self.keys["manufacturers"].get(fields.get("manufacturer"))
            return (manufacturer[0], fields["model"]) if manufacturer else None
        if kind in TEMPLATE_KINDS:
            device_type = self.keys["device_types"].get(fields.get("device_type"))
            return (*device_type, name) if device_type else None
        if kind in ("racks", "power_panels"):
            return (site, name)
        if kind == "power_feeds":
            panel = self.keys["power_panels"].get(fields.get("power_panel"))
            return (*panel, name) if panel else None
        if kind in ("interfaces", "power_ports", "power_outlets"):
            device = self.keys["devices"].get(fields.get("device"))
            return (device[0], name) if device else None
        if kind in CABLE_KINDS:
            ends = []
            for side in "ab":
                end_kind = END_KINDS.get(fields[f"{side}_type"])
                key = self.keys[end_kind].get(fields[f"{side}_end"]) if end_kind else None
                if key is None:
                    return None
                ends.append((fields[f"{side}_type"], key))
            return cable_key(*ends)
        return None


def _powers(key: tuple) -> bool:
    """Whether a cable (by its key) carries power: an end is a feed, a power port or an outlet."""
    return any(END_KINDS[object_type] in POWER_ENDS for object_type, _ in key)


def _read_fields(kind: str, wanted: dict) -> str:
    """The fields a read asks for: the id, the key's, and those the plan sets (a cable's
    terminations)."""
    names = {name for fields in wanted.values() for name in fields} - set(CABLE_END_FIELDS)
    names |= {"a_terminations", "b_terminations"} if kind in CABLE_KINDS else set(KEY_FIELDS.get(kind, ("name",)))
    return ",".join(sorted({"id", *names}))


def _fields(kind: str, record: dict) -> dict:
    """An object as read, its related objects as ids; a cable's single ends as `a_type`,
    `a_end`, `b_type`, `b_end`."""
    fields = {name: plain(value) for name, value in record.items() if not name.endswith("_terminations")}
    if kind in CABLE_KINDS:
        for side in "ab":
            terminations = record.get(f"{side}_terminations") or []
            single = terminations[0] if len(terminations) == 1 else {}
            fields.update({f"{side}_type": single.get("object_type"), f"{side}_end": single.get("object_id")})
    return fields


def _payload(kind: str, fields: dict, creating: bool = True) -> dict:
    """The fields as NetBox's API takes them: a new object those with a value; a cable's ends
    as its termination lists."""
    payload = {name: value for name, value in fields.items()
               if name not in CABLE_END_FIELDS and (value is not None or not creating)}
    if kind in CABLE_KINDS and creating:
        for side in "ab":
            payload[f"{side}_terminations"] = [{"object_type": fields[f"{side}_type"],
                                                "object_id": fields[f"{side}_end"]}]
    return payload


def push_plan(plan: Any, catalog: Any, url: str, token: str, device_prefix: str | None = None,
              site: str | None = None, progress: Callable[[str], None] | None = None) -> PushSummary:
    """Push the plan's NetBox bundle (`netbox_tables`) to the NetBox at `url`."""
    if not url or not url.startswith(("http://", "https://")):
        raise PushError(f"the NetBox URL {url!r} is not an http:// or https:// address")
    if not token:
        raise PushError("no NetBox API token: give --token or set NETBOX_TOKEN")
    tables = netbox_tables(plan, catalog, device_prefix=device_prefix, site=site)
    return NetboxPush(url, token, progress).push(netbox_objects(tables))
